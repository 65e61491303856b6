// The QualityScoresComputation job's work (docs/health-checks.md, "How checks are computed"): the
// dataset's snapshot is built, each enabled check's fingerprint computed, and only the checks
// whose fingerprint moved run (in the checks process; custom checks through the explorer's filter);
// the others keep their result, stamped with the current data version. Data checks run once,
// model checks once per prediction set. Idempotent: a second run finds every fingerprint current.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bitsetToRows, idsAt, rowIndex } from '@loupe/analysis';
import { DATA_LEVELS, TASK_TRAITS, type DataLevel } from '@loupe/contracts';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { EmbeddingsRepository } from '../embeddings/embeddings.repository.js';
import type { ExploreService } from '../explore/explore.service.js';
import type { FeaturesRepository } from '../features/features.repository.js';
import type { JobPayloads } from '../jobs/job-types.js';
import type { Clock } from '../platform/clock.js';
import type { EvaluationCache } from '../performance/evaluation-cache.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { ChecksPool, CheckRun } from './checks-pool.js';
import { featureFile } from './feature-file.js';
import {
  NO_PREDICTIONS,
  ignoredKey,
  type HealthChecksRepository,
  type ResultHeader,
} from './health-checks.repository.js';
import { statusOf, type StoredOutcome } from './outcomes.js';
import {
  defaultFeatureOf,
  instancesOf,
  paramsHash,
  type CheckCatalogue,
  type CheckInstance,
  type CustomFilterValue,
} from './registry.js';
import {
  featureOf,
  fingerprint,
  fromEvaluation,
  InputHashes,
  mediaOf,
  metadataOf,
  missingRequirements,
  sampleColumns,
  type SentFeatureMatrix,
  type SentSnapshot,
} from './snapshot.js';

export type ChecksJob = JobPayloads['QualityScoresComputation'];

export interface ChecksJobsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<PredictionSetsRepository, 'listSets'>;
  features: Pick<FeaturesRepository, 'list'>;
  embeddings: Pick<EmbeddingsRepository, 'vectorsByRow'>;
  healthChecks: Pick<
    HealthChecksRepository,
    | 'checks'
    | 'resultHeaders'
    | 'saveResult'
    | 'restamp'
    | 'deleteResultsExcept'
    | 'ignored'
    | 'bumpState'
  >;
}

type Progress = (fraction: number) => Promise<void>;

/** What the registry needs of a dataset's features, classes and splits. */
export async function paramContext(
  repos: Pick<ChecksJobsRepos, 'features'>,
  dataset: DatasetRecord,
  splits: string[],
) {
  const features = (await repos.features.list(dataset.id)).map((f) => f.name);
  const unique = [...new Set(features)];
  const fallback = defaultFeatureOf(dataset.task_type);
  return {
    features: unique,
    defaultFeature: unique.includes(fallback) ? fallback : (unique[0] ?? null),
    classes: [...dataset.class_names],
    splits,
  };
}

export class ChecksJobsService {
  constructor(
    private readonly repos: ChecksJobsRepos,
    private readonly catalogue: CheckCatalogue,
    private readonly explore: Pick<ExploreService, 'view'>,
    private readonly evaluations: Pick<EvaluationCache, 'get'>,
    private readonly pool: Pick<ChecksPool, 'run' | 'warm'>,
    private readonly clock: Clock,
  ) {}

  async compute(payload: ChecksJob, progress: Progress): Promise<void> {
    const dataset = await this.repos.datasets.find(payload.dataset_id);
    if (!dataset) return;
    const { healthChecks } = this.repos;
    const sampleLevel = DATA_LEVELS[dataset.task_type][0]!;
    const view = await this.explore.view(dataset.id, sampleLevel, undefined, null);
    const table = view.explore.table;
    const splits = table.split ? [...new Set(table.split.categories)].sort() : [];
    const context = await paramContext(this.repos, dataset, splits);
    const records = await healthChecks.checks(dataset.id);
    const checks = instancesOf(
      await this.catalogue.definitions(),
      dataset.task_type,
      context,
      records,
    );
    await healthChecks.deleteResultsExcept(
      dataset.id,
      checks.map((c) => c.id),
    );
    const enabled = checks.filter((c) => c.enabled);
    const stored = new Map(
      (await healthChecks.resultHeaders(dataset.id)).map((h) => [
        ignoredKey(h.check_id, h.prediction_set_id),
        h,
      ]),
    );
    const ignored = await healthChecks.ignored(dataset.id);
    const ignoredOf = (checkId: string, setId: string) =>
      ignored.get(ignoredKey(checkId, setId)) ?? new Set<string>();
    const save = async (
      check: CheckInstance,
      setId: string,
      print: string,
      hash: string,
      outcome: StoredOutcome,
      durationMs = 0,
    ) => {
      await healthChecks.saveResult(dataset.id, {
        check_id: check.id,
        prediction_set_id: setId,
        fingerprint: print,
        data_version: dataset.data_version,
        params_hash: hash,
        status: statusOf(outcome, ignoredOf(check.id, setId)),
        outcome,
        computed_at: this.clock(),
        duration_ms: durationMs,
      });
    };
    const current = (header: ResultHeader | undefined, print: string) =>
      header !== undefined && header.fingerprint === print && header.status !== 'error';

    // Custom checks: the explorer's filter over the level's table, on the main thread.
    for (const check of enabled.filter((c) => c.type === 'custom')) {
      const hash = paramsHash(check.params);
      const value = check.record!.params.filter as CustomFilterValue | undefined;
      let outcome: StoredOutcome;
      try {
        if (!value?.filter) throw new Error('Filter is required.');
        const found = await this.explore.view(dataset.id, check.level, undefined, value.filter);
        const ids = found.rows ? idsAt(found.explore.table, bitsetToRows(found.rows)) : [];
        outcome = {
          kind: 'outcome',
          total: found.explore.table.length,
          outcome: {
            checked: found.explore.table.length,
            flagged: { ids: [...ids], values: {} },
            summary: '{n} items match the filter',
            evidence: [],
            recommendation: {
              type: 'actions',
              actions: [
                {
                  type: 'delete',
                  suggestions: [{ id: 'delete', name: 'Delete', item_ids: [...ids] }],
                },
              ],
            },
            is_approximate: false,
          },
        };
      } catch (error) {
        outcome = {
          kind: 'error',
          message: error instanceof Error ? error.message : String(error),
        };
      }
      // Its filter may name any field: computed again at every data version.
      const print = createHash('sha256').update(`${hash}:${dataset.data_version}`).digest('hex');
      await save(check, NO_PREDICTIONS, print, hash, outcome);
    }
    await progress(0.1);

    const defaults = enabled.filter((c) => c.definition !== null);
    const dataChecks = defaults.filter((c) => !c.needsPredictions);
    const modelChecks = defaults.filter((c) => c.needsPredictions);
    const sets = modelChecks.length > 0 ? await this.repos.predictionSets.listSets(dataset.id) : [];
    const metadata = [...new Set(defaults.flatMap(metadataOf))];
    const classes = [...dataset.class_names];
    const samples = sampleColumns(table, classes, metadata);
    const features: Record<string, SentFeatureMatrix> = {};
    const folder = mkdtempSync(join(tmpdir(), 'loupe-features-'));
    try {
      const wanted = new Set(defaults.flatMap((c) => featureOf(c, context.defaultFeature) ?? []));
      const known = new Map(
        (await this.repos.features.list(dataset.id))
          .filter((f) => f.data_level === sampleLevel)
          .map((f) => [f.name, f]),
      );
      const rows = rowIndex(table);
      for (const name of wanted) {
        const feature = known.get(name);
        if (!feature) continue;
        // One matrix by sample row, in a file the checks process reads (feature-file.ts).
        features[name] = await featureFile(
          folder,
          name,
          feature.dimension,
          samples.ids.length,
          (put) =>
            this.repos.embeddings.vectorsByRow(
              dataset.id,
              sampleLevel,
              name,
              feature.dimension,
              samples.ids.length,
              (id) => rows.get(id),
              put,
            ),
        );
      }
      const base: SentSnapshot = {
        datasetId: dataset.id,
        task: dataset.task_type,
        media: mediaOf(dataset),
        classes,
        samples,
        objects: null,
        features,
        predictions: null,
      };
      // Ground-truth objects come with a prediction set's evaluation data (object tasks).
      const batches: { setId: string; snapshot: SentSnapshot; checks: CheckInstance[] }[] = [];
      let objectsSnapshot: SentSnapshot | null = null;
      for (const [i, set] of sets.entries()) {
        let evaluation;
        try {
          evaluation = await this.evaluations.get(dataset, set.id, (f) =>
            progress(0.1 + (0.4 * (i + f)) / Math.max(1, sets.length)),
          );
        } catch (error) {
          // The set's model checks fail to compute; the other sets' still run.
          const message = error instanceof Error ? error.message : String(error);
          for (const check of modelChecks) {
            const hash = paramsHash(check.params);
            await save(check, set.id, '', hash, { kind: 'error', message });
          }
          continue;
        }
        const { predictions, objects } = fromEvaluation(
          evaluation,
          set.name,
          samples.ids,
          classes,
          rows,
        );
        const snapshot: SentSnapshot = { ...base, objects, predictions };
        objectsSnapshot ??= TASK_TRAITS[dataset.task_type].hasObjects ? snapshot : null;
        batches.push({ setId: set.id, snapshot, checks: modelChecks });
      }
      batches.unshift({
        setId: NO_PREDICTIONS,
        snapshot: objectsSnapshot ? { ...base, objects: objectsSnapshot.objects } : base,
        checks: dataChecks,
      });

      this.pool.warm();
      for (const [b, batch] of batches.entries()) {
        const hashes = new InputHashes(batch.snapshot);
        const runs: { check: CheckInstance; print: string; hash: string }[] = [];
        for (const check of batch.checks) {
          const hash = paramsHash(check.params);
          const feature = featureOf(check, context.defaultFeature);
          const print = fingerprint(check, hashes, hash, batch.setId, feature);
          const header = stored.get(ignoredKey(check.id, batch.setId));
          const missing = missingRequirements(check, batch.snapshot, context.defaultFeature);
          if (current(header, print)) {
            if (header!.data_version !== dataset.data_version || header!.params_hash !== hash)
              await healthChecks.restamp(
                dataset.id,
                check.id,
                batch.setId,
                dataset.data_version,
                hash,
              );
          } else if (missing.length > 0) {
            await save(check, batch.setId, print, hash, { kind: 'missing', requirements: missing });
          } else runs.push({ check, print, hash });
        }
        if (runs.length === 0) continue;
        const tasks: CheckRun[] = runs.map(({ check }) => ({
          checkId: check.id,
          key: check.key,
          level: check.level as DataLevel,
          params: check.params,
        }));
        const totals = levelTotals(batch.snapshot);
        // Each result is saved as soon as it comes: the list shows checks finishing one by one.
        await this.pool.run(
          { sources: this.catalogue.sources, snapshot: batch.snapshot, runs: tasks },
          async (i, result) => {
            const { check, print, hash } = runs[i]!;
            await save(
              check,
              batch.setId,
              print,
              hash,
              'outcome' in result
                ? { kind: 'outcome', outcome: result.outcome, total: totals(check.level) }
                : { kind: 'error', message: result.error },
              result.ms ?? 0,
            );
            await progress(0.5 + (0.5 * (b + (i + 1) / runs.length)) / batches.length);
          },
        );
      }
      await healthChecks.bumpState(dataset.id);
    } finally {
      for (const feature of Object.values(features))
        if (!ArrayBuffer.isView(feature.data)) feature.data.remove();
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

/** The number of items of a level in a snapshot. */
function levelTotals(snapshot: SentSnapshot): (level: string) => number {
  return (level) =>
    level === 'image_object' ? (snapshot.objects?.ids.length ?? 0) : snapshot.samples.ids.length;
}
