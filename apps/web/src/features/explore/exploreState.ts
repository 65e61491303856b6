// The explorer's state as URL query parameters, so a reload or a shared link keeps it:
// level, sort (JSON), filter (JSON), color, cards (JSON list of card toggles), size (card
// width) and item (the open item). Anything unreadable falls back to the default.
import { Filter, SortEntry, type DataLevel } from '@loupe/contracts';
import { DEFAULT_CARD_WIDTH, clampCardWidth } from './gridRules';

/** Card toggles preselected by default (§2): similarity score, label, split. */
export const DEFAULT_CARD_TOGGLES = ['similarity_score', 'label', 'split'];

export interface ExploreState {
  dataLevel: DataLevel;
  sort: SortEntry[];
  filter: Filter | null;
  colorBy: string | null;
  cardToggles: string[];
  cardWidth: number;
  item: string | null;
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
  return {
    dataLevel: level && levels.includes(level) ? level : (levels[0] ?? 'image'),
    sort: parseJson(params.get('sort'), SortEntry.array()) ?? [],
    filter: parseJson(params.get('filter'), Filter) ?? null,
    colorBy: params.get('color') || null,
    cardToggles: parseJson(params.get('cards'), stringList) ?? DEFAULT_CARD_TOGGLES,
    cardWidth: size === null ? DEFAULT_CARD_WIDTH : clampCardWidth(Number(size)),
    item: params.get('item') || null,
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
  if ('item' in change) set('item', change.item ?? null);
  return next;
}
