// The explorer's view of the health checks (docs/health-checks.md, "Explorer"): for a table's
// level and prediction set, every check with a stored outcome there (model checks only in tables
// of their prediction set) with its flagged items, field values and ignored items. Decoded once
// per dataset, level, prediction set and check-state version; each read asks only the version.
import type { DataLevel } from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type {
  CheckColumnData,
  CheckColumnSet,
  CheckColumnsSource,
} from '../explore/check-columns.js';
import {
  NO_PREDICTIONS,
  ignoredKey,
  type HealthChecksRepository,
} from './health-checks.repository.js';
import type { StoredOutcome } from './outcomes.js';
import { instancesOf, type CheckCatalogue } from './registry.js';

/** Sets kept (dataset, level and prediction set), the oldest going first. */
const KEPT = 16;

export class HealthCheckColumns implements CheckColumnsSource {
  private readonly cache = new Map<string, Promise<CheckColumnSet>>();

  constructor(
    private readonly repo: Pick<
      HealthChecksRepository,
      'stateVersion' | 'checks' | 'results' | 'ignored'
    >,
    private readonly catalogue: CheckCatalogue,
  ) {}

  async columns(
    dataset: DatasetRecord,
    level: DataLevel,
    predictionsId: string | undefined,
  ): Promise<CheckColumnSet | null> {
    const version = await this.repo.stateVersion(dataset.id);
    if (version === 0) return null;
    const key = `${dataset.id}\n${level}\n${predictionsId ?? ''}\n${version}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.load(dataset, level, predictionsId, key);
      found.catch(() => this.cache.delete(key));
      this.cache.set(key, found);
      while (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value!);
    }
    return found;
  }

  private async load(
    dataset: DatasetRecord,
    level: DataLevel,
    predictionsId: string | undefined,
    key: string,
  ): Promise<CheckColumnSet> {
    const setIds = [NO_PREDICTIONS, ...(predictionsId ? [predictionsId] : [])];
    const [records, results, ignored] = await Promise.all([
      this.repo.checks(dataset.id),
      this.repo.results(dataset.id, setIds),
      this.repo.ignored(dataset.id),
    ]);
    // Names and fields need no params: an empty context serves.
    const definitions = await this.catalogue.definitions().catch(() => []);
    const checks = instancesOf(
      definitions,
      dataset.task_type,
      { features: [], defaultFeature: null, classes: dataset.class_names, splits: [] },
      records,
    );
    const byId = new Map(checks.map((c) => [c.id, c]));
    const out: CheckColumnData[] = [];
    for (const result of results) {
      const check = byId.get(result.check_id);
      if (!check || check.level !== level) continue;
      const own = check.needsPredictions
        ? result.prediction_set_id === predictionsId
        : result.prediction_set_id === NO_PREDICTIONS;
      const stored = result.outcome as StoredOutcome;
      if (!own || stored.kind !== 'outcome') continue;
      out.push({
        id: check.id,
        name: check.name,
        fields: check.fields,
        flagged: stored.outcome.flagged,
        ignored: ignored.get(ignoredKey(check.id, result.prediction_set_id)) ?? new Set<string>(),
      });
    }
    out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { key, checks: out };
  }
}
