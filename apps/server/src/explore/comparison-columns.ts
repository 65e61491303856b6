// The explorer's item table while a comparison of two models is the context of its requests
// (docs/model-comparison.md, "The explorer in a comparison"): the cached table of the level and
// prediction set plus the per-item comparison columns (COMPARISON_FIELDS), each row taking the
// values of the compared item with its id. The derived table shares the base table's ids, rows,
// version and every other column (with their sort indexes and id index), so row indices of one
// answer index the other.
import {
  COMPARISON_CATEGORIES,
  COMPARISON_FIELDS,
  OBJECT_SUBCATEGORIES,
  type DataLevel,
} from '@loupe/contracts';
import { fromColumns, rowIndex, type ColumnInput, type ItemTable } from '@loupe/analysis';
import type { ComparedColumns, ComparedItems } from '../comparison/compared-items.js';
import { comparisonFieldDefs, type FieldDef } from './field-catalogue.js';
import { prepareSortIndexesInBackground, type ExploreTable } from './item-table-loader.js';

/** Category, subcategory and bin codes mean "none" at this value. */
const NONE = 255;

/**
 * The compared items whose values rows of a level's table take: the samples at the sample level;
 * at the object level the ground truths and the predicted objects of the explorer's own model
 * (A's in A's explorer, B's in B's). Other levels have none.
 */
export function comparedSources(
  items: ComparedItems,
  level: DataLevel,
  predictionsId: string,
): ComparedColumns[] {
  if (comparisonFieldDefs(items.task, level).length === 0) return [];
  if (level !== 'image_object') return items.samples ? [items.samples] : [];
  const own =
    predictionsId === items.context.predictions_id_a ? items.predictionsA : items.predictionsB;
  return [items.groundTruth, own].filter((c): c is ComparedColumns => c !== null);
}

/**
 * The comparison columns of `defs` over a table's rows: each compared item's values go to the row
 * of its id (items the table lacks, deleted meanwhile, are skipped); rows no compared item names
 * are null.
 */
export function comparisonColumns(
  table: Pick<ItemTable, 'ids' | 'length'>,
  defs: readonly FieldDef[],
  sources: readonly ComparedColumns[],
): Record<string, ColumnInput> {
  const n = table.length;
  const wanted = new Set(defs.map((d) => d.id));
  const category = new Int32Array(n).fill(-1);
  const subcategory = new Int32Array(n).fill(-1);
  const delta = new Float64Array(n).fill(NaN);
  const bin = new Float64Array(n).fill(NaN);
  const categories: (string | null)[] = new Array<string | null>(n).fill(null);
  const index = rowIndex(table);
  for (const source of sources) {
    source.ids.forEach((id, t) => {
      const row = index.get(id);
      if (row === undefined) return;
      const c = source.category[t]!;
      if (c !== NONE && c < COMPARISON_CATEGORIES.length) category[row] = c;
      const s = source.subcategory?.[t];
      if (s !== undefined && s !== NONE && s < OBJECT_SUBCATEGORIES.length) subcategory[row] = s;
      delta[row] = source.delta[t]!;
      const b = source.bin[t]!;
      if (b !== NONE) bin[row] = b;
      const joined = source.categories?.[t];
      if (joined) categories[row] = joined;
    });
  }
  const all: Record<string, ColumnInput> = {
    [COMPARISON_FIELDS.category]: {
      type: 'string',
      codes: category,
      categories: COMPARISON_CATEGORIES,
    },
    [COMPARISON_FIELDS.subcategory]: {
      type: 'string',
      codes: subcategory,
      categories: OBJECT_SUBCATEGORIES,
    },
    [COMPARISON_FIELDS.delta]: { type: 'numeric', values: delta },
    [COMPARISON_FIELDS.bin]: { type: 'numeric', values: bin },
    [COMPARISON_FIELDS.categories]: { type: 'string', values: categories },
  };
  return Object.fromEntries(Object.entries(all).filter(([id]) => wanted.has(id)));
}

/** Derived tables per base table, by ComparedItems.key (a few: one per context looked at). */
const derived = new WeakMap<ExploreTable, Map<string, ExploreTable>>();
/** Contexts kept per base table; the oldest goes first. */
const KEPT_CONTEXTS = 4;

/**
 * The base table with the comparison columns of `items` at `level`, for the explorer of model
 * `predictionsId` (A or B of the comparison). Built once per base table and comparison, so paging
 * reuses it; a patched or rebuilt base table is another table and gets its own.
 */
export function withComparison(
  base: ExploreTable,
  items: ComparedItems,
  level: DataLevel,
  predictionsId: string,
): ExploreTable {
  let byKey = derived.get(base);
  if (!byKey) {
    byKey = new Map();
    derived.set(base, byKey);
  }
  const hit = byKey.get(items.key);
  if (hit) {
    byKey.delete(items.key);
    byKey.set(items.key, hit); // most recently used last
    return hit;
  }
  const defs = comparisonFieldDefs(items.task, level).filter((d) => !base.table.columns.has(d.id));
  let explore = base;
  if (defs.length > 0) {
    const inputs = comparisonColumns(
      base.table,
      defs,
      comparedSources(items, level, predictionsId),
    );
    // Built over the base table's ids: the engine checks and sorts the dictionaries.
    const added = fromColumns({ ids: base.table.ids, columns: inputs });
    const table: ItemTable = {
      ...base.table,
      columns: new Map([...base.table.columns, ...added.columns]),
    };
    let bytes = 0;
    for (const column of added.columns.values())
      bytes += 'values' in column ? column.values.byteLength * 2 : column.codes.byteLength;
    explore = {
      ...base,
      table,
      fields: [...base.fields, ...defs],
      bytes: base.bytes + bytes,
      stats: new Map(base.stats),
    };
    // The base table's columns keep their sort indexes; the new numeric ones get theirs.
    void prepareSortIndexesInBackground(table);
  }
  byKey.set(items.key, explore);
  while (byKey.size > KEPT_CONTEXTS) byKey.delete(byKey.keys().next().value!);
  return explore;
}
