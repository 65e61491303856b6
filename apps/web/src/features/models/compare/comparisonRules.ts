// The rules of the comparison page that are not drawing (docs/model-comparison.md, "The
// comparison page"): score scaling and delta texts, segment widths, the order and scaling of the
// per-entity bars, the subset groups, and the explorer addresses of bars, bins and subcategories.
import {
  COMPARISON_CATEGORIES,
  OBJECT_SUBCATEGORY_EXPLORE,
  type ComparisonCategory,
  type ComparisonExploreConfig,
  type DataLevel,
  type EntityBreakdown,
  type EntityDelta,
  type Filter,
  type MetricDelta,
  type ObjectSubcategory,
  type SubsetComparisonEntry,
  type TaskType,
} from '@loupe/contracts';
import { deltaArrow, formatByType, getMetric, scoreScale } from '@loupe/metrics';
import {
  exploreConfigPath,
  matchesSubsetSearch,
  modelRoot,
  SUBSET_LEVEL_ORDER,
} from '../performance/performanceRules';

/** Rows a per-category list shows before 'Show N more' (docs/product.md, Models §9). */
export const LIST_ROWS_SHOWN = 5;
/** Subsets shown per data level before 'Show more' on the comparison page. */
export const COMPARISON_SUBSETS_SHOWN = 3;

export type ModelSide = 'model_a' | 'model_b';

/** Regression and speech recognition describe the overall result in words instead of a gauge. */
export function hasLargeDescription(task: TaskType): boolean {
  return task === 'regression' || task === 'automatic_speech_recognition';
}

/**
 * A score on the active metric: percentages times 100 with 2 decimals and '%', except accuracy
 * and equal_error_rate (scale 1), which are shown as they are, with 2 decimals; other metrics
 * (errors, counts) by their catalogue type. '–' when undefined.
 */
export function scoreText(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (scoreScale(metric) === 1) return value.toFixed(2);
  if (getMetric(metric)?.type === 'percentage') return `${(value * 100).toFixed(2)}%`;
  return formatByType(metric, value);
}

/** A gauge's fill in percent: the score as a fraction of 1, for every scale. */
export function gaugePercent(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(100, value * 100));
}

export interface DeltaText {
  /** '+12.34%' or '−3.10%'; '–' when undefined. */
  text: string;
  /** ↑ B's score is higher, ↓ lower, '' equal or undefined. */
  arrow: '↑' | '↓' | '';
  /** Whether B is better by the metric's desired direction (null: undefined or equal). */
  improved: boolean | null;
}

const signed = (value: number, digits: number) =>
  `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(digits)}`;

/**
 * The relative delta of B against A with its sign and arrow; whether it is an improvement
 * follows the metric's desired direction (a lower error is one).
 */
export function relativeDeltaText(delta: MetricDelta): DeltaText {
  const relative = delta.relative_delta;
  const raw = delta.raw_delta;
  const improved =
    raw === null || raw === 0 || delta.better === null
      ? null
      : delta.better === 'model_b_is_better';
  if (relative === null) return { text: '–', arrow: raw === null ? '' : deltaArrow(raw), improved };
  return { text: `${signed(relative, 2)}%`, arrow: deltaArrow(relative), improved };
}

/** A raw difference B − A in the metric's own terms ('+2.50%' for percentages, '−0.125'). */
export function rawDeltaText(metric: string, raw: number | null | undefined): string {
  if (raw === null || raw === undefined || !Number.isFinite(raw)) return '–';
  const magnitude = scoreText(metric, Math.abs(raw));
  return `${raw > 0 ? '+' : raw < 0 ? '−' : ''}${magnitude}`;
}

/** Segment widths in percent of the total (count / total × 100); 0 when there is nothing. */
export function segmentWidths(counts: readonly number[], total: number): number[] {
  return counts.map((count) => (total > 0 ? (count / total) * 100 : 0));
}

/** A list sorted by |raw delta|, largest first, then by name (a copy). */
export function sortByAbsoluteDelta(list: readonly EntityDelta[]): EntityDelta[] {
  return [...list].sort(
    (a, b) =>
      Math.abs(b.raw_delta) - Math.abs(a.raw_delta) ||
      a.entity.localeCompare(b.entity, undefined, { numeric: true }),
  );
}

/** The largest |raw delta| across every category: the length of a full bar. */
export function largestAbsoluteDelta(breakdown: EntityBreakdown): number {
  let largest = 0;
  for (const category of COMPARISON_CATEGORIES) {
    for (const entry of breakdown[category]) largest = Math.max(largest, Math.abs(entry.raw_delta));
  }
  return largest;
}

/** A bar's length in percent of the full bar. */
export function barLength(rawDelta: number, largest: number): number {
  return largest > 0 ? (Math.abs(rawDelta) / largest) * 100 : 0;
}

/** The models a subcategory's explore links open (the unmatched side has nothing to show). */
export function exploreSides(subcategory: ObjectSubcategory | null): ModelSide[] {
  const which = subcategory === null ? 'both' : OBJECT_SUBCATEGORY_EXPLORE[subcategory];
  return which === 'both' ? ['model_a', 'model_b'] : [which];
}

/**
 * The explorer of model A or B showing exactly a bar's items: the config's level, filter, sort
 * and fields as the performance page builds them (all items selected, `select=all`), plus the
 * comparison context (`compare`) the explorer sends with every request so the comparison fields
 * exist.
 */
export function comparisonExplorePath(
  datasetId: string,
  side: ModelSide,
  config: ComparisonExploreConfig,
): string {
  const id = side === 'model_a' ? config.context.predictions_id_a : config.context.predictions_id_b;
  const path = exploreConfigPath(modelRoot(datasetId, id), config);
  const compare = new URLSearchParams({ compare: JSON.stringify(config.context) });
  return `${path}&${compare.toString()}`;
}

/** A distribution's config narrowed to bin `index`: its filter and the bin's, joined by 'and'. */
export function binExploreConfig(
  config: ComparisonExploreConfig,
  index: number,
): ComparisonExploreConfig {
  if (!config.bin_metadata_id) return config;
  const bin: Filter = {
    type: 'numeric',
    metadata_id: config.bin_metadata_id,
    op: 'between',
    value: [index, index],
  };
  return {
    ...config,
    filter: config.filter ? { type: 'and', children: [config.filter, bin] } : bin,
  };
}

/** Where the comparison of A with B (or A alone, to pick B) is. */
export function comparisonPath(datasetId: string, modelA: string, modelB?: string): string {
  const root = `${modelRoot(datasetId, modelA)}/compare`;
  return modelB ? `${root}/${encodeURIComponent(modelB)}` : root;
}

/** Whether a model name matches the search: a case-insensitive substring. */
export function matchesModelSearch(name: string, query: string): boolean {
  return name.toLowerCase().includes(query.trim().toLowerCase());
}

export interface SubsetComparisonGroup {
  level: DataLevel;
  entries: SubsetComparisonEntry[];
}

/** The entries matching the search, grouped by data level (audio, image, image_object), by name. */
export function groupSubsetComparison(
  entries: readonly SubsetComparisonEntry[],
  query: string,
): SubsetComparisonGroup[] {
  const matching = entries
    .filter((entry) => matchesSubsetSearch(entry.subset.name, query))
    .sort((a, b) => a.subset.name.localeCompare(b.subset.name));
  return SUBSET_LEVEL_ORDER.map((level) => ({
    level,
    entries: matching.filter((entry) => entry.subset.data_level === level),
  })).filter((group) => group.entries.length > 0);
}

/** How many subsets fall in each category on their chosen metric (undefined ones in none). */
export function subsetCategoryCounts(
  entries: readonly SubsetComparisonEntry[],
): Record<ComparisonCategory, number> {
  const counts = Object.fromEntries(COMPARISON_CATEGORIES.map((id) => [id, 0])) as Record<
    ComparisonCategory,
    number
  >;
  for (const entry of entries) {
    const category = entry.comparison_per_metric[entry.metric_name]?.category;
    if (category) counts[category] += 1;
  }
  return counts;
}
