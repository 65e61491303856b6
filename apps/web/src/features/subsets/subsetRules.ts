// The rules of the subsets pages (docs/curation.md): where a subset's pages live (dataset or
// model routes), the table's search, sort and stored page size, name checks before the server's,
// which export formats a task offers, and click/Shift selection over the subset's items.
import {
  RESERVED_SUBSET_NAMES,
  TASK_TRAITS,
  type DataLevel,
  type ExportFormat,
  type Subset,
  type TaskType,
} from '@loupe/contracts';
import { readStorage, writeStorage } from '../../lib/storage';
import { LEVEL_LABELS, subsetStrings as strings } from './strings';

/**
 * The page size of the issues tables (the subsets table among them), one key for all of them
 * (docs/product.md, Datasets §2, §9).
 */
export const ISSUES_TABLE_PAGE_SIZE_KEY = 'loupe.issuesTable.pageSize';
export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

export function readPageSize(): number {
  const stored = Number(readStorage(ISSUES_TABLE_PAGE_SIZE_KEY));
  return PAGE_SIZE_OPTIONS.includes(stored) ? stored : DEFAULT_PAGE_SIZE;
}

export function writePageSize(size: number): void {
  if (PAGE_SIZE_OPTIONS.includes(size)) writeStorage(ISSUES_TABLE_PAGE_SIZE_KEY, String(size));
}

/** The search box matches names, ignoring case and the blanks around the term. */
export function matchesSearch(subset: Pick<Subset, 'name'>, term: string): boolean {
  const needle = term.trim().toLowerCase();
  return needle === '' || subset.name.toLowerCase().includes(needle);
}

/** The data level in the product's words: Sample, Object, or Class (semantic segmentation). */
export function levelLabel(task: TaskType, level: DataLevel): string {
  if (level !== 'image_object') return LEVEL_LABELS.sample;
  return TASK_TRAITS[task].label === 'mask' ? LEVEL_LABELS.class : LEVEL_LABELS.object;
}

/** Why a name cannot be saved before asking the server (which also refuses taken names). */
export function nameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return strings.nameRequired;
  const reserved = RESERVED_SUBSET_NAMES.find((word) => word === trimmed);
  return reserved ? strings.nameReserved(reserved) : null;
}

/** COCO holds boxes and polygons: only tasks whose samples carry objects export it. */
export function exportFormats(task: TaskType): { format: ExportFormat; enabled: boolean }[] {
  return [
    { format: 'coco', enabled: TASK_TRAITS[task].hasObjects },
    { format: 'csv', enabled: true },
  ];
}

export { pagesRoot } from '../models';

export const subsetsPath = (root: string) => `${root}/subsets`;
export const subsetPath = (root: string, subsetId: string) =>
  `${root}/subsets/${encodeURIComponent(subsetId)}`;

/**
 * The explorer showing only the subset (its data level, which the explorer then locks), in a
 * view, with an item open. The parameter names are the explorer's URL state.
 */
export function explorePath(
  root: string,
  subset: Pick<Subset, 'id' | 'data_level'>,
  { view, item }: { view?: 'grid' | 'split' | 'embeddings'; item?: string } = {},
): string {
  const search = new URLSearchParams({ subset_id: subset.id, level: subset.data_level });
  if (view && view !== 'grid') search.set('view', view);
  if (item) search.set('item', item);
  return `${root}/explore?${search.toString()}`;
}

/** The Similar items page with the subset's items as the query (some of them pre-selected). */
export function similarPath(
  root: string,
  subset: Pick<Subset, 'id' | 'data_level'>,
  preselected: readonly string[] = [],
): string {
  const search = new URLSearchParams();
  if (preselected.length > 0) search.set('sample_ids', preselected.join(','));
  if (subset.data_level === 'image_object') search.set('data_level', subset.data_level);
  const query = search.toString().replaceAll('%2C', ',');
  return `${subsetPath(root, subset.id)}/similar${query ? `?${query}` : ''}`;
}

/** Selected item ids, and the position last clicked (the anchor of a Shift range). */
export interface IdSelection {
  ids: ReadonlySet<string>;
  anchor: number | null;
}

export const NO_SELECTION: IdSelection = { ids: new Set(), anchor: null };

/** A click toggles the item; Shift+click adds every item between the anchor and it. */
export function clickSelect(
  selection: IdSelection,
  itemIds: readonly string[],
  position: number,
  shift: boolean,
): IdSelection {
  const id = itemIds[position];
  if (id === undefined) return selection;
  const ids = new Set(selection.ids);
  if (shift && selection.anchor !== null) {
    const lo = Math.min(selection.anchor, position);
    const hi = Math.min(Math.max(selection.anchor, position), itemIds.length - 1);
    for (let i = lo; i <= hi; i++) ids.add(itemIds[i]!);
  } else if (ids.has(id)) {
    ids.delete(id);
  } else {
    ids.add(id);
  }
  return { ids, anchor: position };
}

/** The selection in the subset's order (ids no longer in the subset dropped). */
export function selectedInOrder(itemIds: readonly string[], selected: ReadonlySet<string>) {
  return selected.size === 0 ? [] : itemIds.filter((id) => selected.has(id));
}
