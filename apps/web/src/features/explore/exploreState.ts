// The explorer's state as URL query parameters, so a reload or a shared link keeps it:
// level, sort (JSON), filter (JSON), color, cards (JSON list of card toggles), size (card
// width), view (grid, split or embeddings), item (the open item), attribution (the heatmap drawn
// over pictures, in the default view only), opacity (the heatmap's, in percent), compare (JSON
// of the ComparisonContext a comparison page's link opens the explorer in) and select (`all`: a
// model page's link asks for every item of its result to be selected on arrival, so the map
// highlights them; the explorer removes it once done, so a reload does not select again).
// Anything unreadable falls back to the default.
import {
  ATTRIBUTION_OPACITY,
  ComparisonContext,
  Filter,
  SortEntry,
  type DataLevel,
} from '@loupe/contracts';
import { DEFAULT_CARD_WIDTH, clampCardWidth } from './gridRules';

/** Card toggles preselected by default (§2): similarity score, label, split. */
export const DEFAULT_CARD_TOGGLES = ['similarity_score', 'label', 'split'];

/** The explorer's views (§2, §4); the grid is the default. */
export const EXPLORE_VIEWS = ['split', 'grid', 'embeddings'] as const;
export type ExploreView = (typeof EXPLORE_VIEWS)[number];

export interface ExploreState {
  view: ExploreView;
  dataLevel: DataLevel;
  sort: SortEntry[];
  filter: Filter | null;
  colorBy: string | null;
  cardToggles: string[];
  cardWidth: number;
  item: string | null;
  /** The attribution id whose heatmaps are drawn; only in the default (grid) view. */
  attribution: string | null;
  /** The heatmaps' opacity in percent, 0 to 100. */
  opacity: number;
  /** The comparison of two models the explorer is in (compare/), or none. */
  compare: ComparisonContext | null;
  /** Select the whole result once it is known (`select=all`); a one-off request of a link. */
  selectAll: boolean;
}

/** An opacity from the URL: a whole percent from 0 to 100, else the default. */
export function readOpacity(text: string | null): number {
  const value = text === null || text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) return ATTRIBUTION_OPACITY.default;
  return Math.round(Math.min(ATTRIBUTION_OPACITY.max, Math.max(ATTRIBUTION_OPACITY.min, value)));
}

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

function parseJson<T>(text: string | null, schema: Schema<T>): T | undefined {
  if (text === null) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const stringList: Schema<string[]> = {
  safeParse: (value) =>
    Array.isArray(value) && value.every((entry) => typeof entry === 'string')
      ? { success: true, data: value as string[] }
      : { success: false },
};

export function readExploreState(params: URLSearchParams, levels: DataLevel[]): ExploreState {
  const level = params.get('level') as DataLevel | null;
  const size = params.get('size');
  const view = params.get('view') as ExploreView | null;
  const shownView = view && EXPLORE_VIEWS.includes(view) ? view : 'grid';
  return {
    view: shownView,
    dataLevel: level && levels.includes(level) ? level : (levels[0] ?? 'image'),
    sort: parseJson(params.get('sort'), SortEntry.array()) ?? [],
    filter: parseJson(params.get('filter'), Filter) ?? null,
    colorBy: params.get('color') || null,
    cardToggles: parseJson(params.get('cards'), stringList) ?? DEFAULT_CARD_TOGGLES,
    cardWidth: size === null ? DEFAULT_CARD_WIDTH : clampCardWidth(Number(size)),
    item: params.get('item') || null,
    attribution: shownView === 'grid' ? params.get('attribution') || null : null,
    opacity: readOpacity(params.get('opacity')),
    compare: parseJson(params.get('compare'), ComparisonContext) ?? null,
    selectAll: params.get('select') === 'all',
  };
}

/** Writes the changed parts of the state into a copy of `params` (defaults are left out). */
export function writeExploreState(
  params: URLSearchParams,
  change: Partial<ExploreState>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) =>
    value === null ? next.delete(key) : next.set(key, value);
  if ('dataLevel' in change) set('level', change.dataLevel ?? null);
  if ('sort' in change) set('sort', change.sort?.length ? JSON.stringify(change.sort) : null);
  if ('filter' in change) set('filter', change.filter ? JSON.stringify(change.filter) : null);
  if ('colorBy' in change) set('color', change.colorBy ?? null);
  if ('cardToggles' in change) {
    const same = JSON.stringify(change.cardToggles) === JSON.stringify(DEFAULT_CARD_TOGGLES);
    set('cards', same || !change.cardToggles ? null : JSON.stringify(change.cardToggles));
  }
  if ('cardWidth' in change) {
    set('size', change.cardWidth === DEFAULT_CARD_WIDTH ? null : String(change.cardWidth));
  }
  if ('view' in change) set('view', change.view === 'grid' ? null : (change.view ?? null));
  if ('item' in change) set('item', change.item ?? null);
  if ('attribution' in change) set('attribution', change.attribution ?? null);
  // Attributions are drawn in the default view only: another view clears the choice.
  if ('view' in change && change.view && change.view !== 'grid') set('attribution', null);
  if ('opacity' in change) {
    const opacity = readOpacity(String(change.opacity));
    set('opacity', opacity === ATTRIBUTION_OPACITY.default ? null : String(opacity));
  }
  if ('compare' in change) set('compare', change.compare ? JSON.stringify(change.compare) : null);
  if ('selectAll' in change) set('select', change.selectAll ? 'all' : null);
  return next;
}
