// Explorer cases against pandas and numpy: the filter step alone, filter + two-key sort, and a
// filtered numeric histogram, on bench/explore's generated 1,000,000-item table.
import {
  countRows,
  evaluateFilter,
  fromColumns,
  histogram,
  prepareSortIndexes,
  queryRows,
  type HistogramBin,
  type ItemTable,
} from '@loupe/analysis';
import {
  generateColumns,
  generateIds,
  threeFilters,
  twoKeySorts,
} from '../explore/generated-table.js';
import {
  caseFolder,
  readArray,
  report,
  runReference,
  timed,
  writeArray,
  type Times,
} from './harness.js';

const ITEMS = Number(process.env.ITEMS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 20);

interface Explore {
  table: ItemTable;
  dir: string;
  spec: Record<string, unknown>;
  dispose(): void;
}

let prepared: Explore | undefined;

/** The table, and its columns written once for reference.py (floats with NaN, codes with −1). */
function explore(): Explore {
  if (prepared) return prepared;
  const generated = generateColumns(ITEMS);
  const table = fromColumns({ ids: generateIds(ITEMS), version: 1, ...generated });
  const folder = caseFolder('explore');
  const columns: Record<string, { type: string; categories?: readonly string[] }> = {};
  for (const [name, column] of table.columns) {
    if ('codes' in column) {
      writeArray(folder.dir, `${name}.i32`, column.codes);
      columns[name] = { type: column.type, categories: column.categories };
    } else {
      writeArray(folder.dir, `${name}.f64`, column.values);
      columns[name] = { type: column.type };
    }
  }
  writeArray(folder.dir, 'split.i32', table.split!.codes);
  const filter = threeFilters(table) as unknown as {
    children: [{ value: [number] }, { value: string[] }, unknown];
  };
  const spec = {
    runs: RUNS,
    columns,
    filter: {
      numeric: 'num_0',
      min: filter.children[0].value[0],
      string: 'str_2',
      values: filter.children[1].value,
      boolean: 'bool_1',
    },
  };
  prepared = { table, dir: folder.dir, spec, dispose: folder.dispose };
  return prepared;
}

function bitsetBytes(bits: Uint32Array, length: number): Uint8Array {
  return new Uint8Array(bits.buffer, bits.byteOffset, (length + 7) >> 3);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

const label = (n: number) => n.toLocaleString('en');

export function filterCase(): void {
  const { table, dir, spec } = explore();
  const filter = threeFilters(table);
  const loupe = timed(() => evaluateFilter(table, filter), RUNS);
  const reference = runReference<
    Times & { count: number; numpy: Times & { library: string; same: boolean } }
  >('filter', 'pandas', dir, spec);
  const count = countRows(loupe.result);
  let quality = `${label(count)} rows match`;
  if (!('missing' in reference)) {
    const same = sameBytes(
      bitsetBytes(loupe.result, table.length),
      readArray(dir, 'mask.ref', Uint8Array),
    );
    quality = same
      ? `the same ${label(count)} rows`
      : `DIFFERENT rows: Loupe ${label(count)}, reference ${label(reference.count)}`;
  }
  const step = `explore: three filters on ${label(table.length)} items (numeric ≥, string in 15 of 20, not boolean)`;
  report({
    step,
    loupe,
    ...('missing' in reference ? { missing: reference.missing } : { reference }),
    quality,
  });
  if (!('missing' in reference)) {
    report({
      step: `${step}, against numpy`,
      loupe,
      reference: reference.numpy,
      quality: reference.numpy.same ? 'numpy: the same rows as pandas' : 'numpy: DIFFERENT rows',
    });
  }
}

export function queryCase(): void {
  const { table, dir, spec } = explore();
  const filter = threeFilters(table);
  prepareSortIndexes(table); // as the server does when it loads a table
  const loupe = twoKeySorts.map(([, sort]) =>
    timed(() => queryRows(table, { filter, sort, include_missing: true }), RUNS),
  );
  const reference = runReference<{ sorts: Times[] }>('query', 'pandas', dir, {
    ...spec,
    sorts: twoKeySorts.map(([, sort]) => sort),
  });
  twoKeySorts.forEach(([name], s) => {
    const rows = loupe[s]!.result;
    let quality = `${label(rows.length)} rows`;
    if (!('missing' in reference)) {
      const order = readArray(dir, `order-${s}.ref`, Uint32Array);
      const same = order.length === rows.length && order.every((r, i) => r === rows[i]);
      quality = same
        ? `the same ${label(rows.length)} rows in the same order`
        : `DIFFERENT order (first difference at ${order.findIndex((r, i) => r !== rows[i])})`;
    }
    report({
      step: `explore: three filters + sort ${name} (missing last, ties in upload order; Loupe with sort indexes)`,
      loupe: loupe[s]!,
      ...('missing' in reference
        ? { missing: reference.missing }
        : { reference: { library: reference.library, ...reference.sorts[s]! } }),
      quality,
    });
  });
}

export function histogramCase(): void {
  const { table, dir, spec } = explore();
  const rows = evaluateFilter(table, threeFilters(table));
  writeArray(dir, 'rows.u8', bitsetBytes(rows, table.length));
  const splits = table.split!.categories;
  const loupe = timed(() => histogram(table, 'num_0', { rows }), RUNS);
  const reference = runReference<Times & { counts: number[][] }>('histogram', 'numpy', dir, {
    ...spec,
    field: 'num_0',
    bins: 20,
    splits: splits.length,
  });
  const bins = loupe.result.counts_per_bin as HistogramBin[];
  let quality = `${bins.length} bins`;
  if (!('missing' in reference)) {
    let differ = 0;
    let moved = 0;
    bins.forEach((bin, b) =>
      splits.forEach((split, s) => {
        const d = Math.abs((bin.count[split] ?? 0) - reference.counts[b]![s]!);
        if (d > 0) differ++;
        moved += d;
      }),
    );
    quality =
      differ === 0
        ? `the same counts in all ${bins.length} × ${splits.length} cells`
        : `${differ} of ${bins.length * splits.length} cells differ, by ${moved} items in all (values on a bin edge)`;
  }
  report({
    step: `explore: histogram of a numeric field, ${bins.length} bins × ${splits.length} splits, over the filtered items`,
    loupe,
    ...('missing' in reference ? { missing: reference.missing } : { reference }),
    quality,
  });
}

export function disposeExplore(): void {
  prepared?.dispose();
  prepared = undefined;
}
