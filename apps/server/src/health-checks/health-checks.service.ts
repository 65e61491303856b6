// Data health checks (docs/health-checks.md): the checks of a dataset with their status, one
// check with its evaluation, and running, creating, configuring, enabling and deleting checks;
// ignoring items for the curation actions. Statuses and evaluations are answered from the stored
// results with the ignored items taken out; computing is the QualityScoresComputation job's.
import { randomUUID } from 'node:crypto';
import {
  CHECK_MESSAGES,
  CHECK_STATUSES,
  DATA_LEVELS,
  checkFailedField,
  checkFieldId,
  checkIgnoredField,
  passingPercentage,
  type CheckField,
  type CheckParamValue,
  type CheckResponse,
  type CheckSettingsRequest,
  type CheckStatus,
  type ChecksListResponse,
  type ChecksQuery,
  type ConfigureCheckRequest,
  type DataLevel,
  type Evaluation,
  type Evidence,
  type HealthCheckOverview,
  type RunChecksResponse,
} from '@loupe/contracts';
import type { z } from 'zod';
import type { CreateCheckRequest as CreateCheckSchema } from '@loupe/contracts';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import { requireDataset } from '../datasets/datasets.service.js';
import type { ExploreService } from '../explore/explore.service.js';
import type { FeaturesRepository } from '../features/features.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { jobDedupeKey } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, Conflict, NotFound } from '../platform/errors.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { Actor } from '../users/actor.js';
import { systemActor } from '../users/actor.js';
import { paramContext } from './checks-jobs.service.js';
import { checksJobPayload, enqueueChecks } from './enqueue.js';
import {
  NO_PREDICTIONS,
  ignoredKey,
  type HealthChecksRepository,
  type ResultRecord,
} from './health-checks.repository.js';
import { effective, recommendationWithout, statusOf, type StoredOutcome } from './outcomes.js';
import {
  CUSTOM_KEY,
  GROUP_ORDER,
  instancesOf,
  paramsHash,
  validParamValue,
  type CheckCatalogue,
  type CheckInstance,
} from './registry.js';
import { predictionsRequirement } from './snapshot.js';

export interface HealthChecksRepos {
  datasets: Pick<DatasetsRepository, 'find' | 'splits'>;
  predictionSets: Pick<PredictionSetsRepository, 'listSets' | 'findSet'>;
  features: Pick<FeaturesRepository, 'list'>;
  healthChecks: HealthChecksRepository;
}

/** A check of a dataset with its stored result for the prediction set asked about. */
interface Resolved {
  check: CheckInstance;
  setId: string;
  result: ResultRecord | undefined;
  ignored: ReadonlySet<string>;
  status: CheckStatus;
}

const STATUS_ORDER = new Map(CHECK_STATUSES.map((s, i) => [s, i]));
const CHECKS_JOB_ACTOR = systemActor('health checks');

export class HealthChecksService {
  constructor(
    private readonly repos: HealthChecksRepos,
    private readonly catalogue: CheckCatalogue,
    private readonly explore: Pick<ExploreService, 'view'>,
    private readonly jobs: Pick<JobsService, 'enqueue' | 'latest' | 'active'>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly clock: Clock,
  ) {}

  /** The dataset's checks (custom ones included) with their params. */
  private async instances(dataset: DatasetRecord): Promise<CheckInstance[]> {
    const [splits, records, definitions] = await Promise.all([
      this.repos.datasets.splits(dataset.id),
      this.repos.healthChecks.checks(dataset.id),
      this.catalogue.definitions(),
    ]);
    const context = await paramContext(this.repos, dataset, splits);
    return instancesOf(definitions, dataset.task_type, context, records);
  }

  private async instance(dataset: DatasetRecord, checkId: string): Promise<CheckInstance> {
    const check = (await this.instances(dataset)).find((c) => c.id === checkId);
    if (!check) throw new NotFound(CHECK_MESSAGES.notFound(checkId));
    return check;
  }

  /** Whether the dataset has the check (curation actions naming one). */
  async exists(datasetId: string, checkId: string): Promise<boolean> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    return (await this.instances(dataset)).some((c) => c.id === checkId);
  }

  /** The prediction set model checks are read for: the one asked, else the newest; null: none. */
  private async predictionSet(
    dataset: DatasetRecord,
    predictionsId: string | undefined,
  ): Promise<string | null> {
    if (predictionsId !== undefined) {
      const set = await this.repos.predictionSets.findSet(predictionsId);
      if (!set || set.dataset_id !== dataset.id)
        throw new NotFound(`No prediction set with id ${predictionsId} in dataset ${dataset.id}.`);
      return set.id;
    }
    const sets = await this.repos.predictionSets.listSets(dataset.id);
    return sets.length === 0 ? null : sets[sets.length - 1]!.id;
  }

  private async resolve(
    dataset: DatasetRecord,
    checks: CheckInstance[],
    predictionsId: string | null,
  ): Promise<Resolved[]> {
    const results = await this.repos.healthChecks.results(dataset.id, [
      NO_PREDICTIONS,
      ...(predictionsId ? [predictionsId] : []),
    ]);
    const byKey = new Map(results.map((r) => [ignoredKey(r.check_id, r.prediction_set_id), r]));
    const ignored = await this.repos.healthChecks.ignored(dataset.id);
    return checks.map((check) => {
      const setId = check.needsPredictions ? (predictionsId ?? NO_PREDICTIONS) : NO_PREDICTIONS;
      const result = byKey.get(ignoredKey(check.id, setId));
      const ignoredIds = ignored.get(ignoredKey(check.id, setId)) ?? new Set<string>();
      return {
        check,
        setId,
        result,
        ignored: ignoredIds,
        status: this.status(dataset, check, predictionsId, result, ignoredIds),
      };
    });
  }

  private status(
    dataset: DatasetRecord,
    check: CheckInstance,
    predictionsId: string | null,
    result: ResultRecord | undefined,
    ignored: ReadonlySet<string>,
  ): CheckStatus {
    if (!check.enabled) return { type: 'disabled_check' };
    const needs = check.definition?.requires.predictions;
    if (needs && predictionsId === null)
      return {
        type: 'missing_req_check',
        requirements: [predictionsRequirement(needs, check.level)],
      };
    if (
      !result ||
      result.data_version < dataset.data_version ||
      result.params_hash !== paramsHash(check.params)
    )
      return { type: 'pending_check' };
    const stored = result.outcome as StoredOutcome;
    if (stored.kind === 'missing')
      return { type: 'missing_req_check', requirements: stored.requirements };
    if (stored.kind === 'error')
      return { type: 'failed_to_compute_check', message: stored.message };
    const { outcome } = stored;
    const { failed, failedIds, numIgnored } = effective(outcome, ignored);
    const checked_items_summary = {
      data_level: check.level,
      predictions_id: check.needsPredictions ? predictionsId : null,
      num_items_failed: failedIds.length,
      num_items_checked: outcome.checked,
      num_items_ignored: numIgnored,
      num_items_total: stored.total,
    };
    if (!failed)
      return {
        type: 'passed_check',
        is_approximate: outcome.is_approximate,
        checked_items_summary,
        computed_at: result.computed_at,
      };
    return {
      type: 'failed_check',
      is_approximate: outcome.is_approximate,
      checked_items_summary,
      evidence_summary: outcome.summary.replaceAll('{n}', String(failedIds.length)),
      computed_at: result.computed_at,
    };
  }

  private overview(resolved: Resolved): HealthCheckOverview {
    const { check, status } = resolved;
    const fields: CheckField[] = [
      { id: checkFailedField(check.id), label: 'Failed', type: 'boolean' },
      { id: checkIgnoredField(check.id), label: 'Ignored', type: 'boolean' },
      ...check.fields.map((f) => ({
        id: checkFieldId(check.id, f.name),
        label: f.label,
        type: f.type,
      })),
    ];
    return {
      id: check.id,
      key: check.key,
      name: check.name,
      group: check.group,
      description: check.description,
      type: check.type,
      data_level: check.level,
      needs_predictions: check.needsPredictions,
      config: { description: check.configDescription, params: check.params },
      status,
      fields,
    };
  }

  async list(datasetId: string, query: ChecksQuery): Promise<ChecksListResponse> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const predictionsId = await this.predictionSet(dataset, query.predictions_id);
    const resolved = await this.resolve(dataset, await this.instances(dataset), predictionsId);
    resolved.sort(
      (a, b) =>
        GROUP_ORDER.get(a.check.group)! - GROUP_ORDER.get(b.check.group)! ||
        STATUS_ORDER.get(a.status.type)! - STATUS_ORDER.get(b.status.type)! ||
        a.check.order - b.check.order ||
        a.check.name.localeCompare(b.check.name),
    );
    const statuses = resolved.map((r) => r.status.type);
    if (statuses.includes('pending_check')) await this.enqueueUnlessKnown(dataset);
    const computing = await this.jobs.active(
      jobDedupeKey('QualityScoresComputation', checksJobPayload(dataset)),
    );
    return {
      checks: resolved.map((r) => this.overview(r)),
      summary: {
        num_failed: statuses.filter((s) => s === 'failed_check').length,
        num_passed: statuses.filter((s) => s === 'passed_check').length,
        num_pending: statuses.filter((s) => s === 'pending_check').length,
        num_enabled: statuses.filter((s) => s !== 'disabled_check').length,
        passing_percentage: passingPercentage(statuses),
      },
      predictions_id: predictionsId,
      computing,
    };
  }

  async get(datasetId: string, checkId: string, query: ChecksQuery): Promise<CheckResponse> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const check = await this.instance(dataset, checkId);
    const predictionsId = await this.predictionSet(dataset, query.predictions_id);
    const [resolved] = await this.resolve(dataset, [check], predictionsId);
    const { status, result } = resolved!;
    if (status.type === 'pending_check') await this.enqueueUnlessKnown(dataset);
    const evaluation =
      (status.type === 'failed_check' || status.type === 'passed_check') && result
        ? this.evaluation(resolved!, result)
        : null;
    return { check: this.overview(resolved!), evaluation };
  }

  private evaluation(resolved: Resolved, result: ResultRecord): Evaluation {
    const { check, ignored } = resolved;
    const stored = result.outcome as Extract<StoredOutcome, { kind: 'outcome' }>;
    const { outcome } = stored;
    const { failed, failedIds } = effective(outcome, ignored);
    const fieldNames = new Set(check.fields.map((f) => f.name));
    const fieldId = (name: string) => (fieldNames.has(name) ? checkFieldId(check.id, name) : name);
    const evidence: Evidence[] = [];
    if (failedIds.length > 0)
      evidence.push({
        type: 'items',
        title: outcome.summary.replaceAll('{n}', String(failedIds.length)),
        num_items: failedIds.length,
        items_preview_config: {
          data_level: check.level,
          filter: {
            type: 'boolean',
            metadata_id: checkFailedField(check.id),
            op: 'bool_equals',
            value: true,
          },
          sort_by: (outcome.preview?.sort_by ?? [])
            .slice(0, 4)
            .map((s) => ({ name: fieldId(s.name), direction: s.direction })),
          visible_metadata_ids: (outcome.preview?.visible_metadata_ids ?? []).map(fieldId),
        },
      });
    evidence.push(...outcome.evidence);
    return {
      type: failed ? 'fail' : 'pass',
      evaluation_id: result.fingerprint,
      history: { data_version: result.data_version, computed_at: result.computed_at },
      evidence,
      recommendation: recommendationWithout(outcome.recommendation, ignored),
    };
  }

  /** Enqueues the checks job for the dataset's data as it is now. */
  async enqueue(datasetId: string, actor: Actor): Promise<void> {
    await enqueueChecks(this.jobs, this.repos.datasets, datasetId, actor);
  }

  /** A pending check with no job ever enqueued for this data: the read enqueues one. */
  private async enqueueUnlessKnown(dataset: DatasetRecord): Promise<void> {
    const payload = checksJobPayload(dataset);
    if (await this.jobs.latest(jobDedupeKey('QualityScoresComputation', payload))) return;
    await this.jobs.enqueue('QualityScoresComputation', payload, CHECKS_JOB_ACTOR);
  }

  async run(actor: Actor, datasetId: string): Promise<RunChecksResponse> {
    await this.license.requireLicense('run health checks', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    await this.enqueue(dataset.id, actor);
    return { queued: true };
  }

  /** 409 when another custom check of the dataset has the name. */
  private async uniqueName(datasetId: string, name: string, except?: string): Promise<void> {
    const taken = (await this.repos.healthChecks.checks(datasetId)).some(
      (r) => r.type === 'custom' && r.id !== except && r.name?.trim() === name.trim(),
    );
    if (taken) throw new Conflict(CHECK_MESSAGES.nameExists);
  }

  /** 400 unless the explorer can evaluate the filter at its level. */
  private async validFilter(
    dataset: DatasetRecord,
    value: { filter: unknown; data_level: DataLevel },
  ): Promise<void> {
    if (!DATA_LEVELS[dataset.task_type].includes(value.data_level))
      throw new BadRequest(
        `body.config.filter.data_level: a ${dataset.task_type} dataset has no ${value.data_level} level.`,
      );
    if (value.filter === null) throw new BadRequest(CHECK_MESSAGES.filterRequired);
    await this.explore.view(
      dataset.id,
      value.data_level,
      undefined,
      value.filter as Parameters<ExploreService['view']>[3],
    );
  }

  async create(
    actor: Actor,
    datasetId: string,
    body: z.output<typeof CreateCheckSchema>,
  ): Promise<{ check_id: string }> {
    await this.license.requireLicense('create health checks', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const { check_name, filter } = body.config;
    await this.uniqueName(dataset.id, check_name);
    await this.validFilter(dataset, filter);
    const now = this.clock();
    const id = `custom.${randomUUID()}`;
    await this.repos.healthChecks.saveCheck({
      dataset_id: dataset.id,
      id,
      key: CUSTOM_KEY,
      level: filter.data_level,
      type: 'custom',
      name: check_name,
      params: { filter },
      enabled: true,
      created_at: now,
      updated_at: now,
    });
    await this.enqueue(dataset.id, actor);
    return { check_id: id };
  }

  async configure(
    actor: Actor,
    datasetId: string,
    checkId: string,
    body: ConfigureCheckRequest,
  ): Promise<void> {
    await this.license.requireLicense('configure health checks', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const check = await this.instance(dataset, checkId);
    const values: Record<string, unknown> = { ...(check.record?.params ?? {}) };
    let name = check.record?.name ?? null;
    for (const [param, value] of Object.entries(body.params) as [string, CheckParamValue][]) {
      const spec = check.params[param];
      if (!spec) throw new BadRequest(`body.params.${param}: the check has no param '${param}'.`);
      const valid = validParamValue(param, spec, value);
      if (spec.type === 'check_name') {
        await this.uniqueName(dataset.id, valid as string, check.id);
        name = valid as string;
      } else if (spec.type === 'filter') {
        await this.validFilter(dataset, valid as { filter: unknown; data_level: DataLevel });
        values[param] = valid;
      } else values[param] = valid;
    }
    await this.saveInstance(dataset.id, check, {
      name: check.type === 'custom' ? name : null,
      params: values,
    });
    await this.repos.healthChecks.bumpState(dataset.id);
    await this.enqueue(dataset.id, actor);
  }

  async settings(
    actor: Actor,
    datasetId: string,
    checkId: string,
    body: CheckSettingsRequest,
  ): Promise<void> {
    await this.license.requireLicense('enable or disable health checks', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const check = await this.instance(dataset, checkId);
    await this.saveInstance(dataset.id, check, { enabled: body.enabled });
    // Disabling keeps the results; enabling computes what is not current.
    if (body.enabled) await this.enqueue(dataset.id, actor);
  }

  /** Stores a check's record: what it had (or its defaults), with `changes`. */
  private async saveInstance(
    datasetId: string,
    check: CheckInstance,
    changes: { name?: string | null; params?: Record<string, unknown>; enabled?: boolean },
  ): Promise<void> {
    const now = this.clock();
    await this.repos.healthChecks.saveCheck({
      dataset_id: datasetId,
      id: check.id,
      key: check.key,
      level: check.level,
      type: check.type,
      name: changes.name !== undefined ? changes.name : (check.record?.name ?? null),
      params: changes.params ?? check.record?.params ?? {},
      enabled: changes.enabled ?? check.enabled,
      created_at: check.record?.created_at ?? now,
      updated_at: now,
    });
  }

  async remove(actor: Actor, datasetId: string, checkId: string): Promise<void> {
    await this.license.requireLicense('delete health checks', { actor });
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const check = await this.instance(dataset, checkId);
    if (check.type !== 'custom') throw new BadRequest(CHECK_MESSAGES.onlyCustomDelete);
    await this.repos.healthChecks.deleteCheck(dataset.id, check.id);
    await this.repos.healthChecks.bumpState(dataset.id);
  }

  /**
   * Ignores (or re-enables) items of a check (the curation action check_ignore_items): no data
   * changes, no history; the check's status and the explorer's check columns change at once.
   * Answers the check's level.
   */
  async ignore(
    datasetId: string,
    input: {
      check_id: string;
      predictions_id?: string | undefined;
      item_ids: string[];
      ignore: boolean;
    },
  ): Promise<DataLevel> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const check = await this.instance(dataset, input.check_id);
    const setId = check.needsPredictions
      ? ((await this.predictionSet(dataset, input.predictions_id)) ?? NO_PREDICTIONS)
      : NO_PREDICTIONS;
    const { healthChecks } = this.repos;
    await healthChecks.setIgnored(dataset.id, check.id, setId, input.item_ids, input.ignore);
    const result = await healthChecks.result(dataset.id, check.id, setId);
    if (result) {
      const ignored = (await healthChecks.ignored(dataset.id, check.id)).get(
        ignoredKey(check.id, setId),
      );
      const status = statusOf(result.outcome as StoredOutcome, ignored ?? new Set());
      if (status !== result.status)
        await healthChecks.setStatus(dataset.id, check.id, setId, status);
    }
    await healthChecks.bumpState(dataset.id);
    return check.level;
  }
}
