// The rules of the performance page that are not drawing: splits, metric choices kept in local
// storage, labels, subset grouping and search, the metadata field picked first, and the explorer
// address of a bin (docs/product.md, Models §2, §5, §9).
import {
  ALL_SPLITS,
  type DataLevel,
  type ExploreConfig,
  type MetadataFieldInfo,
  type MetricValue,
  type SubsetPerformanceEntry,
} from '@loupe/contracts';
import { formatByType } from '@loupe/metrics';

/** The split choices: 'all' first, then the dataset's splits. */
export function splitOptions(datasetSplits: readonly string[]): string[] {
  return [ALL_SPLITS, ...datasetSplits.filter((split) => split !== ALL_SPLITS)];
}

/** Default split (docs/product.md, Models §5): 'all' if present, else the first. */
export function defaultSplit(splits: readonly string[]): string {
  return splits.includes(ALL_SPLITS) ? ALL_SPLITS : (splits[0] ?? ALL_SPLITS);
}

/** A label cut to `max` characters plus '...' (class names 20, metadata axis labels 25). */
export function truncateLabel(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export const CLASS_NAME_MAX = 20;
export const METADATA_LABEL_MAX = 25;

/** Text safe inside the HTML of a chart tooltip. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A metric value as its catalogue type says; '–' when undefined. */
export function formatMetric(id: string, value: MetricValue | undefined): string {
  return value === null || value === undefined ? '–' : formatByType(id, value);
}

/**
 * The metrics a table shows, read from local storage: the stored ids the table still offers, in
 * the table's order; the defaults when nothing (or nothing usable) is stored.
 */
export function readVisibleMetrics(
  stored: string | null,
  choices: readonly string[],
  defaults: readonly string[],
): string[] {
  if (stored !== null) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (Array.isArray(parsed)) {
        const kept = choices.filter((id) => parsed.includes(id));
        if (kept.length > 0) return kept;
      }
    } catch {
      // Unreadable: the defaults.
    }
  }
  return [...defaults];
}

/** Data levels in the order the subset sections list them (docs/product.md, Models §2). */
export const SUBSET_LEVEL_ORDER: DataLevel[] = ['audio', 'image', 'image_object'];
/** Subsets shown per data level before 'Show more' on the performance page. */
export const SUBSETS_SHOWN = 4;

/** Subset cards a row holds at most, per antd breakpoint (one a row on phones). */
const SUBSET_COLUMNS = { xs: 1, md: 2, lg: 3, xl: 4 } as const;

/**
 * The antd Col spans of a level's `cards` subset cards: equal columns that fill the row, as many
 * as there are cards up to the breakpoint's maximum, so two cards share the width half and half.
 */
export function subsetGridSpans(cards: number): Record<keyof typeof SUBSET_COLUMNS, number> {
  const span = (columns: number) => 24 / Math.max(1, Math.min(cards, columns));
  return {
    xs: span(SUBSET_COLUMNS.xs),
    md: span(SUBSET_COLUMNS.md),
    lg: span(SUBSET_COLUMNS.lg),
    xl: span(SUBSET_COLUMNS.xl),
  };
}

export interface SubsetGroup {
  level: DataLevel;
  entries: SubsetPerformanceEntry[];
}

/** Whether a subset name matches the search: a case-insensitive substring. */
export function matchesSubsetSearch(name: string, query: string): boolean {
  return name.toLowerCase().includes(query.trim().toLowerCase());
}

/** The entries matching the search, grouped by data level (audio, image, image_object), by name. */
export function groupSubsetEntries(
  entries: readonly SubsetPerformanceEntry[],
  query: string,
): SubsetGroup[] {
  const matching = entries
    .filter((entry) => matchesSubsetSearch(entry.subset.name, query))
    .sort((a, b) => a.subset.name.localeCompare(b.subset.name));
  return SUBSET_LEVEL_ORDER.map((level) => ({
    level,
    entries: matching.filter((entry) => entry.subset.data_level === level),
  })).filter((group) => group.entries.length > 0);
}

/**
 * The field the metadata chart opens with: the first uploaded field, else the first computed one,
 * else the label, else the split; pending fields are skipped (they cannot be binned yet).
 */
export function defaultMetadataField(fields: readonly MetadataFieldInfo[]): string | undefined {
  const available = fields.filter((field) => field.state === 'available');
  const pick =
    available.find((field) => field.source === 'uploaded') ??
    available.find((field) => field.source === 'computed') ??
    available.find((field) => field.id === 'label' || field.id === 'object.label') ??
    available.find((field) => field.id === 'split') ??
    available[0];
  return pick?.id;
}

// The explorer's default card toggles (docs/product.md, Datasets §2): the bin's field is added.
const EXPLORE_CARD_TOGGLES = ['similarity_score', 'label', 'split'];

/**
 * The model's explorer showing exactly a bin's items: its data level and filter, its sort and its
 * field on the cards, with all of them selected so the embeddings map highlights them. The
 * parameter names are the explorer's URL state (level, filter, sort, cards, select).
 */
export function exploreConfigPath(root: string, config: ExploreConfig): string {
  const search = new URLSearchParams({ level: config.data_level });
  if (config.filter) search.set('filter', JSON.stringify(config.filter));
  if (config.sort_by) {
    search.set('sort', JSON.stringify([{ name: config.sort_by, direction: 'ascending' }]));
  }
  const cards = [...new Set([...EXPLORE_CARD_TOGGLES, ...config.visible_metadata_ids])];
  if (cards.length > EXPLORE_CARD_TOGGLES.length) search.set('cards', JSON.stringify(cards));
  search.set('select', 'all');
  return `${root}/explore?${search.toString()}`;
}

/** Where a model's pages are. */
export function modelRoot(datasetId: string, predictionSetId: string): string {
  return `/models/datasets/${encodeURIComponent(datasetId)}/predictions/${encodeURIComponent(predictionSetId)}`;
}
