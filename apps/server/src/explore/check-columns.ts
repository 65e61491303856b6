// The explorer's item table with the per-item fields of the dataset's health checks
// (docs/health-checks.md, "Explorer"): for every check with a stored result at the table's level,
// `checks.<id>.failed` (true: flagged and not ignored; false otherwise), `checks.<id>.ignored` and
// the check's own fields. The derived table shares the base table's ids, rows, version and every
// other column (as comparison-columns.ts does), and is built once per base table and check-state
// version, so paging reuses it.
import {
  checkFailedField,
  checkFieldId,
  checkIgnoredField,
  type DataLevel,
} from '@loupe/contracts';
import { fromColumns, rowIndex, type ColumnInput, type ItemTable } from '@loupe/analysis';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import { checkFieldDefs, type FieldDef } from './field-catalogue.js';
import { prepareSortIndexesInBackground, type ExploreTable } from './item-table-loader.js';

/** One check's stored result as the explorer shows it. */
export interface CheckColumnData {
  id: string;
  name: string;
  fields: readonly { name: string; label: string; type: 'numeric' | 'string' }[];
  flagged: {
    ids: readonly string[];
    values: Readonly<Record<string, readonly (number | string | null)[]>>;
  };
  ignored: ReadonlySet<string>;
}

/** The checks of a table's level and prediction set, at one check-state version. */
export interface CheckColumnSet {
  /** Changes whenever a result, an ignore or a check's name changes. */
  key: string;
  checks: readonly CheckColumnData[];
}

/** Where the explorer finds the checks of a table (the health-checks feature). */
export interface CheckColumnsSource {
  columns(
    dataset: DatasetRecord,
    level: DataLevel,
    predictionsId: string | undefined,
  ): Promise<CheckColumnSet | null>;
}

/** The check columns over a table's rows (ids the table lacks, deleted meanwhile, are skipped). */
export function checkColumns(
  table: Pick<ItemTable, 'ids' | 'length'>,
  checks: readonly CheckColumnData[],
): Record<string, ColumnInput> {
  const n = table.length;
  const index = rowIndex(table);
  const out: Record<string, ColumnInput> = {};
  for (const check of checks) {
    const failed = new Int32Array(n);
    const ignored = new Int32Array(n);
    const fields = check.fields.map((f) => ({
      spec: f,
      numbers: f.type === 'numeric' ? new Float64Array(n).fill(NaN) : null,
      strings: f.type === 'string' ? new Array<string | null>(n).fill(null) : null,
    }));
    check.flagged.ids.forEach((id, k) => {
      const row = index.get(id);
      if (row === undefined) return;
      if (!check.ignored.has(id)) failed[row] = 1;
      for (const field of fields) {
        const value = check.flagged.values[field.spec.name]?.[k];
        if (value === undefined || value === null) continue;
        if (field.numbers && typeof value === 'number') field.numbers[row] = value;
        else if (field.strings) field.strings[row] = String(value);
      }
    });
    for (const id of check.ignored) {
      const row = index.get(id);
      if (row !== undefined) ignored[row] = 1;
    }
    out[checkFailedField(check.id)] = { type: 'boolean', codes: failed };
    out[checkIgnoredField(check.id)] = { type: 'boolean', codes: ignored };
    for (const field of fields) {
      const id = checkFieldId(check.id, field.spec.name);
      out[id] = field.numbers
        ? { type: 'numeric', values: field.numbers }
        : { type: 'string', values: field.strings! };
    }
  }
  return out;
}

/** Derived tables per base table, by CheckColumnSet.key (the newest few). */
const derived = new WeakMap<ExploreTable, Map<string, ExploreTable>>();
const KEPT = 2;

/** The base table with the check columns of `set`. */
export function withChecks(base: ExploreTable, set: CheckColumnSet): ExploreTable {
  if (set.checks.length === 0) return base;
  let byKey = derived.get(base);
  if (!byKey) derived.set(base, (byKey = new Map()));
  const hit = byKey.get(set.key);
  if (hit) return hit;
  const defs: FieldDef[] = checkFieldDefs(set.checks).filter((d) => !base.table.columns.has(d.id));
  const added = fromColumns({ ids: base.table.ids, columns: checkColumns(base.table, set.checks) });
  const wanted = new Set(defs.map((d) => d.id));
  const columns = [...added.columns].filter(([id]) => wanted.has(id));
  const table: ItemTable = { ...base.table, columns: new Map([...base.table.columns, ...columns]) };
  let bytes = 0;
  for (const [, column] of columns)
    bytes += 'values' in column ? column.values.byteLength * 2 : column.codes.byteLength;
  const explore: ExploreTable = {
    ...base,
    table,
    fields: [...base.fields, ...defs],
    bytes: base.bytes + bytes,
    stats: new Map(base.stats),
  };
  void prepareSortIndexesInBackground(table);
  byKey.set(set.key, explore);
  while (byKey.size > KEPT) byKey.delete(byKey.keys().next().value!);
  return explore;
}
