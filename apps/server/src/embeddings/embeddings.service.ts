// Embeddings (docs/product.md, Datasets §2, §3, §5, §7): the scatter plot's settings, its points (laid out
// by the EmbeddingsComputation job, then filtered and coloured with the explorer's item table),
// aggregates of a lasso selection, and the similar-items search over a feature. Under a
// prediction set the map may lay out the model's own features too (docs/api.md, Embeddings).
import {
  DATA_LEVELS,
  DEFAULT_REDUCTION,
  DimensionalityReductionSetting,
  EMBEDDINGS_FAILED,
  encodeIndices,
  FEATURE_NOT_AVAILABLE,
  NO_FEATURES_FOR_EMBEDDINGS,
  type AggregatedMetric,
  type DataLevel,
  type EmbeddingPointsResponse,
  type EmbeddingsLegend,
  type EmbeddingsSettings,
  type ExploreComparison,
  type Filter,
  type SelectionAggregateResponse,
  type SimilarItemsResponse,
} from '@loupe/contracts';
import { countRows, type ItemTable } from '@loupe/analysis';
import type { DatasetsRepository } from '../datasets/datasets.repository.js';
import type { ExploreService } from '../explore/explore.service.js';
import type { FeatureRecord, FeaturesRepository } from '../features/features.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { jobDedupeKey } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, FailedDependency, NotFound } from '../platform/errors.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { Actor } from '../users/actor.js';
import type { EmbeddingKey, EmbeddingsRepository } from './embeddings.repository.js';
import { methodKey } from './reduce.js';
import type { SimilaritySearch } from './similarity.js';

export const NO_FEATURES_FOR_SIMILAR =
  'You need to upload at least one feature to find similar items.';
/** Most frequent string values an aggregate lists. */
const MAX_STRING_VALUES = 20;
const AGGREGATE_BINS = 10;

export interface PointsInput {
  dimensionality_reduction_setting?: DimensionalityReductionSetting | undefined;
  feature_name?: string | undefined;
  filter?: Filter | null | undefined;
  subset_id?: string | undefined;
  data_level: DataLevel;
  predictions_id?: string | undefined;
  /** The explorer's comparison, whose per-item fields filter and color_by may name. */
  comparison?: ExploreComparison | undefined;
  color_by?: string | null | undefined;
  include_missing: boolean;
  format: 'strings' | 'binary';
}

/** A stored layout decoded once and kept while it is current. */
interface Layout {
  ids: string[];
  coords: Float32Array;
  /** Table row of each point (−1: not an item of the table any more), per item table. */
  rowsByTable: WeakMap<ItemTable, Int32Array>;
}

const rowMaps = new WeakMap<ItemTable, Map<string, number>>();

/** id → row of an item table, built once per table. */
export function rowMap(table: ItemTable): Map<string, number> {
  let map = rowMaps.get(table);
  if (!map) {
    map = new Map();
    for (let i = 0; i < table.length; i++) map.set(table.ids[i]!, i);
    rowMaps.set(table, map);
  }
  return map;
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

export interface EmbeddingsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  features: Pick<FeaturesRepository, 'list'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  embeddings: Pick<
    EmbeddingsRepository,
    'settings' | 'saveSettings' | 'state' | 'setState' | 'result' | 'vectorsOf'
  >;
}

export class EmbeddingsService {
  /** Decoded layouts by key and stored time; a handful, the newest kept. */
  private layouts = new Map<string, Promise<Layout>>();

  constructor(
    private readonly repos: EmbeddingsRepos,
    private readonly explore: Pick<ExploreService, 'view' | 'fieldColors'>,
    private readonly jobs: Pick<JobsService, 'enqueue' | 'latest'>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly similarity: SimilaritySearch,
    private readonly clock: Clock,
  ) {}

  /**
   * The features of a level the map may lay out: the dataset's, then, with a prediction set, the
   * set's own (`modelFeatures`). A name both have means the model's under its prediction set.
   */
  private async level(
    datasetId: string,
    level: DataLevel,
    where: 'body' | 'query',
    predictionsId?: string,
  ) {
    const dataset = await this.repos.datasets.find(datasetId);
    if (!dataset) throw new NotFound(`No dataset with id ${datasetId}.`);
    const task = dataset.task_type;
    if (!DATA_LEVELS[task].includes(level))
      throw new BadRequest(
        `${where}.data_level: a ${task} dataset has no ${level} level (it has ${DATA_LEVELS[task].join(', ')}).`,
      );
    await this.checkPredictions(datasetId, predictionsId);
    const [own, model] = await Promise.all([
      this.repos.features.list(datasetId),
      predictionsId === undefined ? [] : this.repos.features.list(datasetId, predictionsId),
    ]);
    const modelFeatures = model.filter((f) => f.data_level === level).map((f) => f.name);
    const shadowed = new Set(modelFeatures);
    const features = [
      ...own.filter((f) => f.data_level === level && !shadowed.has(f.name)),
      ...model.filter((f) => f.data_level === level),
    ];
    return { dataset, features, modelFeatures };
  }

  private async checkPredictions(datasetId: string, predictionsId: string | undefined) {
    if (predictionsId === undefined) return;
    const set = await this.repos.predictionSets.findSet(predictionsId);
    if (!set || set.dataset_id !== datasetId)
      throw new NotFound(`No prediction set with id ${predictionsId} in dataset ${datasetId}.`);
  }

  async settings(
    datasetId: string,
    query: { data_level: DataLevel; predictions_id?: string | undefined },
  ): Promise<EmbeddingsSettings> {
    const { features, modelFeatures } = await this.level(
      datasetId,
      query.data_level,
      'query',
      query.predictions_id,
    );
    const stored = await this.repos.embeddings.settings(
      datasetId,
      query.data_level,
      query.predictions_id ?? '',
    );
    const names = features.map((f) => f.name);
    // A stored feature that is gone (never the case today: features are not deleted) falls back.
    const featureName =
      stored && names.includes(stored.feature_name) ? stored.feature_name : (names[0] ?? null);
    return {
      feature_names: names,
      predictions_feature_names: modelFeatures,
      feature_name: featureName,
      dimensionality_reduction_setting: stored ? stored.setting : DEFAULT_REDUCTION,
    };
  }

  async updateSettings(
    datasetId: string,
    input: {
      dimensionality_reduction_setting: DimensionalityReductionSetting;
      feature_name: string;
      data_level: DataLevel;
      predictions_id?: string | undefined;
    },
  ): Promise<EmbeddingsSettings> {
    const { features, modelFeatures } = await this.level(
      datasetId,
      input.data_level,
      'body',
      input.predictions_id,
    );
    if (features.length === 0) throw new FailedDependency(NO_FEATURES_FOR_EMBEDDINGS);
    if (!features.some((f) => f.name === input.feature_name))
      throw new BadRequest(FEATURE_NOT_AVAILABLE);
    await this.repos.embeddings.saveSettings({
      dataset_id: datasetId,
      data_level: input.data_level,
      predictions_id: input.predictions_id ?? '',
      feature_name: input.feature_name,
      setting: input.dimensionality_reduction_setting,
      updated_at: this.clock(),
    });
    return {
      feature_names: features.map((f) => f.name),
      predictions_feature_names: modelFeatures,
      feature_name: input.feature_name,
      dimensionality_reduction_setting: input.dimensionality_reduction_setting,
    };
  }

  /** The feature and method a points request means: its own, else the stored settings. */
  private async resolve(
    datasetId: string,
    input: PointsInput,
  ): Promise<{ feature: FeatureRecord; setting: DimensionalityReductionSetting }> {
    const { features } = await this.level(
      datasetId,
      input.data_level,
      'body',
      input.predictions_id,
    );
    if (features.length === 0) throw new FailedDependency(NO_FEATURES_FOR_EMBEDDINGS);
    const settings = await this.settings(datasetId, input);
    const name = input.feature_name ?? settings.feature_name!;
    const feature = features.find((f) => f.name === name);
    if (!feature) throw new BadRequest(FEATURE_NOT_AVAILABLE);
    return {
      feature,
      setting: input.dimensionality_reduction_setting ?? settings.dimensionality_reduction_setting,
    };
  }

  async points(
    actor: Actor,
    datasetId: string,
    input: PointsInput,
  ): Promise<EmbeddingPointsResponse> {
    const { feature, setting } = await this.resolve(datasetId, input);
    const key: EmbeddingKey = {
      dataset_id: datasetId,
      prediction_set_id: feature.prediction_set_id,
      data_level: input.data_level,
      feature_name: feature.name,
      method_key: methodKey(setting),
    };
    const version = Number(feature.updated_at);
    const base = {
      feature_name: feature.name,
      dimensionality_reduction_setting: setting,
      legend: null,
      num_points: 0,
      num_missing: 0,
    };
    const computing = (progress: number): EmbeddingPointsResponse => ({
      ...base,
      status: 'computing',
      progress,
    });
    const failed = (): EmbeddingPointsResponse => ({
      ...base,
      status: 'failed',
      progress: 0,
      description: EMBEDDINGS_FAILED,
    });
    const state = await this.repos.embeddings.state(key);
    const current = state !== undefined && Number(state.source_version) === version;
    if (current && state.status === 'ready')
      return this.readyPoints(key, state.updated_at, input, actor);
    // A wrong subset is refused while the layout is not ready too (readyPoints checks it by its view).
    if (input.subset_id !== undefined)
      await this.explore.view(
        datasetId,
        input.data_level,
        input.predictions_id,
        null,
        input.subset_id,
      );
    if (current && state.status === 'failed') return failed();
    if (state?.status === 'computing' && state.job_key) {
      const job = await this.jobs.latest(state.job_key);
      // One computation at a time per layout: a newer version waits for the running one.
      if (job && (job.status === 'queued' || job.status === 'running'))
        return computing(current ? (job.progress ?? 0) : 0);
      if (job?.status === 'failed' && current) return failed();
    }
    const payload = {
      dataset_id: datasetId,
      // Only for a model's feature: a dataset feature's job (and its dedupe key) stays as it was.
      ...(feature.prediction_set_id ? { prediction_set_id: feature.prediction_set_id } : {}),
      data_level: input.data_level,
      feature_name: feature.name,
      setting,
      feature_version: version,
    };
    await this.jobs.enqueue('EmbeddingsComputation', payload, actor);
    await this.repos.embeddings.setState(key, {
      status: 'computing',
      source_version: version,
      job_key: jobDedupeKey('EmbeddingsComputation', payload),
      error: null,
      updated_at: this.clock(),
    });
    return computing(0);
  }

  private layout(key: EmbeddingKey, storedAt: number): Promise<Layout> {
    const cacheKey = `${key.dataset_id}|${key.prediction_set_id}|${key.data_level}|${key.feature_name}|${key.method_key}|${storedAt}`;
    let hit = this.layouts.get(cacheKey);
    if (!hit) {
      hit = this.repos.embeddings.result(key).then((layout) => {
        if (!layout?.ids || !layout.coords) throw new NotFound('The embeddings were replaced.');
        return { ids: layout.ids, coords: layout.coords, rowsByTable: new WeakMap() };
      });
      hit.catch(() => this.layouts.delete(cacheKey));
      this.layouts.set(cacheKey, hit);
      // Layouts of a million points weigh ~50 MB decoded: keep the four most recent.
      while (this.layouts.size > 4) this.layouts.delete(this.layouts.keys().next().value!);
    }
    return hit;
  }

  private async readyPoints(
    key: EmbeddingKey,
    storedAt: number,
    input: PointsInput,
    actor: Actor,
  ): Promise<EmbeddingPointsResponse> {
    const [layout, view] = await Promise.all([
      this.layout(key, Number(storedAt)),
      // In a comparison, the explorer's derived table: filter and colour may name its fields.
      this.explore.view(
        key.dataset_id,
        input.data_level,
        input.predictions_id,
        input.filter,
        input.subset_id,
        [],
        input.comparison,
        actor,
      ),
    ]);
    const table = view.explore.table;
    let pointRows = layout.rowsByTable.get(table);
    if (!pointRows) {
      const map = rowMap(table);
      pointRows = new Int32Array(layout.ids.length);
      for (let i = 0; i < layout.ids.length; i++) pointRows[i] = map.get(layout.ids[i]!) ?? -1;
      layout.rowsByTable.set(table, pointRows);
    }
    const color = input.color_by ? this.colouring(view, input.color_by) : null;
    const keep = view.rows;
    // Points in the filter, then those whose colour value is missing when they are left out.
    // Typed arrays and plain loops: this runs over a million points per request.
    const n = pointRows.length;
    const selectedRows = new Uint32Array(n);
    const selectedPoints = new Uint32Array(n);
    let count = 0;
    let inFilterWithVector = 0;
    const dropMissing = !input.include_missing && color !== null;
    for (let i = 0; i < n; i++) {
      const row = pointRows[i]!;
      if (row < 0 || (keep && (keep[row >>> 5]! & (1 << (row & 31))) === 0)) continue;
      inFilterWithVector++;
      if (dropMissing && color.missing(row)) continue;
      selectedRows[count] = row;
      selectedPoints[count++] = i;
    }
    const rows = selectedRows.subarray(0, count);
    const selected = selectedPoints.subarray(0, count);
    const inFilter = keep ? countRows(keep) : table.length;
    const legend = color ? color.legend(rows) : null;
    const response = {
      status: 'ready' as const,
      progress: 1,
      feature_name: key.feature_name,
      dimensionality_reduction_setting: DimensionalityReductionSetting.parse(
        input.dimensionality_reduction_setting ?? settingOf(key.method_key),
      ),
      legend,
      num_points: count,
      num_missing: inFilter - inFilterWithVector,
    };
    const { coords } = layout;
    if (input.format === 'binary') {
      const xy = new Float32Array(count * 2);
      for (let i = 0; i < count; i++) {
        const point = selected[i]!;
        xy[i * 2] = coords[point * 2]!;
        xy[i * 2 + 1] = coords[point * 2 + 1]!;
      }
      // Plain u32 rows: encoding is a copy (bit-packing a million rows costs ~0.2 s of CPU for
      // 1.5 MB less on the wire).
      const encoded = encodeIndices(rows, { version: table.version, format: 'u32' });
      return {
        ...response,
        version: table.version,
        binary: {
          rows: base64(encoded),
          xy: base64(xy),
          colors: color ? base64(color.binary(rows)) : null,
        },
      };
    }
    const points = Array.from(selected, (point, i) => {
      const row = rows[i]!;
      return `${table.ids[row]}|${round(coords[point * 2]!)}|${round(coords[point * 2 + 1]!)}|${color ? color.key(row) : ''}`;
    });
    return { ...response, points };
  }

  /** How points are coloured by one metadata field: keys, legend and binary codes. */
  private colouring(view: Awaited<ReturnType<ExploreService['view']>>, colorBy: string) {
    const column = view.explore.table.columns.get(colorBy);
    const colors = this.explore.fieldColors(view, colorBy);
    if (!column || !colors)
      throw new BadRequest(
        `body.color_by: unknown metadata field '${colorBy}' at this data level.`,
      );
    if ('values' in column) {
      const values = column.values;
      // The field's range over the whole table, as the grid's scale has it: a filter never
      // changes a value's colour.
      const { min, max } = colors.field.options ?? {};
      return {
        missing: (row: number) => Number.isNaN(values[row]!),
        key: (row: number) => (Number.isNaN(values[row]!) ? '' : String(values[row])),
        legend(): EmbeddingsLegend {
          return { type: 'continuous', min: min ?? null, max: max ?? null };
        },
        binary(rows: Uint32Array): Float32Array {
          const out = new Float32Array(rows.length);
          for (let i = 0; i < rows.length; i++) out[i] = values[rows[i]!]!;
          return out;
        },
      };
    }
    const { codes, categories } = column;
    return {
      missing: (row: number) => codes[row]! < 0,
      key: (row: number) => (codes[row]! < 0 ? '' : String(codes[row])),
      legend(rows: Uint32Array): EmbeddingsLegend {
        const present = new Uint8Array(categories.length);
        for (let i = 0; i < rows.length; i++) {
          const code = codes[rows[i]!]!;
          if (code >= 0) present[code] = 1;
        }
        return {
          type: 'categorical',
          categories: categories.flatMap((label, code) =>
            present[code] ? [{ key: String(code), label, color: colors.colorOf(label)! }] : [],
          ),
        };
      },
      binary(rows: Uint32Array): Uint16Array {
        if (categories.length >= 0xffff)
          throw new BadRequest(
            `body.color_by: '${colorBy}' has ${categories.length} values; binary colours hold at most 65,534 (use format strings).`,
          );
        const out = new Uint16Array(rows.length);
        for (let i = 0; i < rows.length; i++) {
          const code = codes[rows[i]!]!;
          out[i] = code < 0 ? 0xffff : code;
        }
        return out;
      },
    };
  }

  async selectionAggregate(
    datasetId: string,
    input: {
      ids: string[];
      props: string[];
      data_level: DataLevel;
      predictions_id?: string | undefined;
    },
  ): Promise<SelectionAggregateResponse> {
    const view = await this.explore.view(datasetId, input.data_level, input.predictions_id, null);
    const table = view.explore.table;
    const map = rowMap(table);
    const rows = [...new Set(input.ids.flatMap((id) => (map.has(id) ? [map.get(id)!] : [])))];
    const out: Record<string, AggregatedMetric> = {};
    input.props.forEach((prop, i) => {
      const column = table.columns.get(prop);
      if (!column)
        throw new BadRequest(
          `body.props[${i}]: unknown metadata field '${prop}' at this data level.`,
        );
      out[prop] = aggregate(column, rows);
    });
    return { aggregated_metrics: out };
  }

  async similar(
    datasetId: string,
    input: {
      item_ids: string[];
      feature_name?: string | undefined;
      data_level: DataLevel;
      k: number;
      exclude_ids: string[];
    },
  ): Promise<SimilarItemsResponse> {
    await this.license.requireLicense('find similar items');
    const { features } = await this.level(datasetId, input.data_level, 'body');
    if (features.length === 0) throw new FailedDependency(NO_FEATURES_FOR_SIMILAR);
    const feature = features.find((f) => f.name === (input.feature_name ?? features[0]!.name));
    if (!feature) throw new BadRequest(FEATURE_NOT_AVAILABLE);
    const queryIds = [...new Set(input.item_ids)];
    const vectors = await this.repos.embeddings.vectorsOf(
      datasetId,
      input.data_level,
      feature.name,
      queryIds,
    );
    const ignored = queryIds.length - vectors.size;
    const base = { feature_name: feature.name, ignored };
    if (vectors.size === 0) return { ...base, items: [], approximate: false };
    const query = meanOfNormalised([...vectors.values()], feature.dimension);
    const exclude = new Set([...queryIds, ...input.exclude_ids]);
    const view = await this.explore.view(datasetId, input.data_level, undefined, null);
    const present = rowMap(view.explore.table);
    const found = await this.similarity.search(
      {
        dataset_id: datasetId,
        data_level: input.data_level,
        feature_name: feature.name,
        dimension: feature.dimension,
        version: Number(feature.updated_at),
      },
      query,
      // Room for the excluded items, which may all rank first.
      input.k + exclude.size,
    );
    const items: SimilarItemsResponse['items'] = [];
    for (const hit of found.hits) {
      if (items.length >= input.k) break;
      // Deleted items keep their vectors until purged: only current items are answers.
      if (exclude.has(hit.id) || !present.has(hit.id)) continue;
      items.push({ id: hit.id, similarity: hit.similarity });
    }
    return { ...base, items, approximate: found.approximate };
  }
}

/** The layout key's method back as a setting (for a request that used the stored settings). */
function settingOf(key: string): DimensionalityReductionSetting {
  const [method, value] = key.split(':');
  if (method === 'UMAP') return { method: 'UMAP', num_neighbors: Number(value) };
  if (method === 'TSNE') return { method: 'TSNE', perplexity: Number(value) };
  return { method: 'PCA' };
}

function base64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}

/**
 * The query of a multi-item search: the mean of the items' unit vectors, i.e. the direction
 * most similar to all of them on average (one search, ranking by mean cosine similarity).
 */
export function meanOfNormalised(vectors: Float32Array[], dimension: number): Float32Array {
  const mean = new Float32Array(dimension);
  for (const v of vectors) {
    let norm = 0;
    for (let j = 0; j < dimension; j++) norm += v[j]! * v[j]!;
    norm = Math.sqrt(norm);
    if (norm === 0) continue;
    for (let j = 0; j < dimension; j++) mean[j]! += v[j]! / norm / vectors.length;
  }
  return mean;
}

function aggregate(column: NonNullable<ReturnType<ItemTable['columns']['get']>>, rows: number[]) {
  const common = { num_items: rows.length, num_missing: 0 };
  if ('values' in column) {
    const values: number[] = [];
    for (const row of rows) {
      const v = column.values[row]!;
      if (Number.isNaN(v)) common.num_missing++;
      else values.push(v);
    }
    values.sort((a, b) => a - b);
    const min = values.length ? values[0]! : null;
    const max = values.length ? values[values.length - 1]! : null;
    const bins = binsOf(values, min, max);
    if (column.type === 'timestamp')
      return { type: 'timestamp' as const, ...common, min, max, bins };
    const mid = values.length >> 1;
    return {
      type: 'numeric' as const,
      ...common,
      min,
      max,
      mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      median: values.length
        ? values.length % 2
          ? values[mid]!
          : (values[mid - 1]! + values[mid]!) / 2
        : null,
      bins,
    };
  }
  const counts = new Map<number, number>();
  for (const row of rows) {
    const code = column.codes[row]!;
    if (code < 0) common.num_missing++;
    else counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  if (column.type === 'boolean') {
    const code = (value: string) => column.categories.indexOf(value);
    return {
      type: 'bool' as const,
      ...common,
      num_true: counts.get(code('true')) ?? 0,
      num_false: counts.get(code('false')) ?? 0,
    };
  }
  const ranked = [...counts]
    .map(([code, count]) => ({ value: column.categories[code]!, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  const listed = ranked.slice(0, MAX_STRING_VALUES);
  return {
    type: 'string' as const,
    ...common,
    values: listed,
    num_other: ranked.slice(MAX_STRING_VALUES).reduce((sum, v) => sum + v.count, 0),
  };
}

/** Equal-width bins from min to max; the last bin includes max. */
function binsOf(sorted: number[], min: number | null, max: number | null) {
  if (min === null || max === null) return [];
  if (min === max) return [{ bin_start: min, bin_end: max, count: sorted.length }];
  const width = (max - min) / AGGREGATE_BINS;
  const counts = new Array<number>(AGGREGATE_BINS).fill(0);
  for (const v of sorted) counts[Math.min(AGGREGATE_BINS - 1, Math.floor((v - min) / width))]!++;
  return counts.map((count, i) => ({
    bin_start: min + i * width,
    bin_end: i === AGGREGATE_BINS - 1 ? max : min + (i + 1) * width,
    count,
  }));
}
