// The explorer benchmarks' generated item table (bench/explore/engine.ts, bench/compare): 20
// metadata fields of every type with some missing values, and the query both benchmarks time.
import {
  createRandom,
  type CodedColumn,
  type ColumnInput,
  type Filter,
  type ItemTable,
  type SortEntry,
} from '@loupe/analysis';

export interface GeneratedColumns {
  columns: Record<string, ColumnInput>;
  split: CodedColumn;
  createdRecord: CodedColumn;
}

/** Item ids in upload order, `item-000000` style. */
export function generateIds(items: number): string[] {
  return Array.from({ length: items }, (_, i) => `item-${i.toString(36).padStart(6, '0')}`);
}

/**
 * 8 numeric fields (half continuous, half integer-valued), 6 strings with 5–50 categories,
 * 3 booleans and 3 timestamps; every third field has 5 % missing values; 3 splits (80 % train)
 * and 10 history records of 100,000 items each. Seeded: the same items give the same table.
 */
export function generateColumns(items: number, seed = 6): GeneratedColumns {
  const random = createRandom(seed);
  const columns: Record<string, ColumnInput> = {};
  const missingShare = (f: number) => (f % 3 === 0 ? 0.05 : 0);
  for (let f = 0; f < 8; f++) {
    const values = new Float64Array(items);
    for (let i = 0; i < items; i++) {
      const x =
        f % 2 === 0 ? random.normal() * 10 + f : f < 4 ? random.int(32, 4096) : random.next();
      values[i] = random.next() < missingShare(f) ? NaN : x;
    }
    columns[`num_${f}`] = { type: 'numeric', values };
  }
  for (let f = 0; f < 6; f++) {
    const k = [5, 10, 20, 30, 40, 50][f]!;
    const categories = Array.from(
      { length: k },
      (_, c) => `cat-${f}-${String.fromCharCode(97 + ((c * 7) % 26))}${c}`,
    );
    const codes = new Int32Array(items);
    for (let i = 0; i < items; i++)
      codes[i] = random.next() < missingShare(f) ? -1 : random.int(0, k - 1);
    columns[`str_${f}`] = { type: 'string', codes, categories };
  }
  for (let f = 0; f < 3; f++) {
    const codes = new Int32Array(items);
    for (let i = 0; i < items; i++)
      codes[i] = random.next() < missingShare(f) ? -1 : random.next() < 0.3 ? 1 : 0;
    columns[`bool_${f}`] = { type: 'boolean', codes };
  }
  const start = Date.UTC(2024, 0, 1);
  for (let f = 0; f < 3; f++) {
    const values = new Float64Array(items);
    for (let i = 0; i < items; i++) {
      values[i] =
        random.next() < missingShare(f)
          ? NaN
          : start + Math.floor(random.next() * 365 * 86_400_000);
    }
    columns[`ts_${f}`] = { type: 'timestamp', values };
  }
  const split = {
    codes: Int32Array.from({ length: items }, () => (random.next() < 0.8 ? 0 : random.int(1, 2))),
    categories: ['train', 'val', 'test'],
  };
  const createdRecord = {
    codes: Int32Array.from({ length: items }, (_, i) => Math.floor(i / 100_000)),
    categories: Array.from({ length: 10 }, (_, r) => `record-${r}`),
  };
  return { columns, split, createdRecord };
}

/** The benchmarks' three filters: num_0 ≥ −5, str_2 in 15 of its 20 categories, not bool_1. */
export function threeFilters(table: ItemTable): Filter {
  const column = table.columns.get('str_2');
  const categories = column && 'codes' in column ? column.categories : [];
  return {
    type: 'and',
    children: [
      { type: 'numeric', metadata_id: 'num_0', op: 'between', value: [-5, null] },
      { type: 'string', metadata_id: 'str_2', op: 'in', value: categories.slice(0, 15) },
      {
        type: 'not',
        child: { type: 'boolean', metadata_id: 'bool_1', op: 'bool_equals', value: true },
      },
    ],
  };
}

/** Three two-key sorts, one per kind of key pair. */
export const twoKeySorts: [string, SortEntry[]][] = [
  [
    'string asc, numeric desc',
    [
      { name: 'str_0', direction: 'ascending' },
      { name: 'num_2', direction: 'descending' },
    ],
  ],
  [
    'numeric desc, numeric asc',
    [
      { name: 'num_4', direction: 'descending' },
      { name: 'num_1', direction: 'ascending' },
    ],
  ],
  [
    'timestamp asc, string desc',
    [
      { name: 'ts_1', direction: 'ascending' },
      { name: 'str_3', direction: 'descending' },
    ],
  ],
];
