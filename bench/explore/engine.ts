// Explorer query engine benchmark (issue 6): a generated 1,000,000-item table with 20 metadata
// fields; build time and memory, three filters + two-key sort, one histogram, result encoding.
// Prints figures and ratios to the targets; never fails on time. Against pandas: bench/compare.
// Run: npx tsx --conditions=loupe-src bench/explore/engine.ts (ITEMS=… to change the size)
import os from 'node:os';
import { decodeIndices, encodeIndices } from '@loupe/contracts';
import {
  countRows,
  evaluateFilter,
  fromColumns,
  histogram,
  ItemTableBuilder,
  prepareSortIndexes,
  queryRows,
  type ItemQuery,
  type ItemRow,
  type MetadataValue,
} from '@loupe/analysis';
import { generateColumns, generateIds, threeFilters, twoKeySorts } from './generated-table.js';

const ITEMS = Number(process.env.ITEMS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 20);

function p50(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Wall-clock and CPU (user + system, all threads) milliseconds of one call. */
function time<T>(fn: () => T): { result: T; ms: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpu: (used.user + used.system) / 1000 };
}

interface Repeated<T> {
  result: T;
  times: number[];
  cpu: number[];
}

function repeat<T>(fn: () => T): Repeated<T> {
  let result = fn(); // warm-up
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = time(fn);
    result = t.result;
    times.push(t.ms);
    cpu.push(t.cpu);
  }
  return { result, times, cpu };
}

function line(name: string, value: string): void {
  console.log(`${name.padEnd(50)} ${value.padStart(12)}`);
}

/** p50 wall and CPU time of repeated runs, with ratios to a target when there is one. */
function timed(name: string, runs: Repeated<unknown>, target?: number): void {
  const wall = p50(runs.times);
  const cpu = p50(runs.cpu);
  const ratio =
    target === undefined
      ? ''
      : `   target ${target} ms: ${((wall / target) * 100).toFixed(0)}% (wall), ${((cpu / target) * 100).toFixed(0)}% (CPU)`;
  console.log(
    `${name.padEnd(50)} ${`${wall.toFixed(1)} ms`.padStart(12)}  CPU ${`${cpu.toFixed(1)} ms`.padStart(9)}${ratio}`,
  );
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

// --- generate raw columns (not timed: this stands in for the database read) ---------------
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
gc();
const beforeIds = process.memoryUsage();
const ids = generateIds(ITEMS);
gc();
const afterIds = process.memoryUsage();
const { columns, split, createdRecord } = generateColumns(ITEMS);
const splitNames = split.categories;

// --- build ----------------------------------------------------------------------------------
gc();
const before = process.memoryUsage();
const built = time(() => fromColumns({ ids, version: 1, columns, split, createdRecord }));
const table = built.result;
gc();
const after = process.memoryUsage();
let columnBytes = 0;
for (const column of table.columns.values()) {
  columnBytes += 'codes' in column ? column.codes.byteLength : column.values.byteLength;
}
columnBytes += table.split!.codes.byteLength + table.createdRecord!.codes.byteLength;

console.log(
  `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores. ` +
    `Explore query engine: ${ITEMS.toLocaleString('en')} items × ${table.columns.size} metadata fields, p50 of ${RUNS} runs` +
    (process.env.BENCH_NOTE ? ` (${process.env.BENCH_NOTE})` : ''),
);
line('build from columns (remaps 6 unsorted dictionaries)', `${built.ms.toFixed(1)} ms`);
line('typed columns incl. split and created record', mb(columnBytes));
line('ids (1M strings, heap delta)', mb(afterIds.heapUsed - beforeIds.heapUsed));
line(
  'build: array-buffer delta (copies made by build)',
  mb(after.arrayBuffers - before.arrayBuffers),
);
line('process: heap used + array buffers', mb(after.heapUsed + after.arrayBuffers));
if (!(globalThis as { gc?: unknown }).gc)
  console.log('  (run node with --expose-gc for exact memory deltas)');

// Incremental append: an upload batch of 10,000 rows onto the builder.
const builder = new ItemTableBuilder(
  [...table.columns.entries()].map(([id, column]) => ({ id, type: column.type })),
);
const batchRows: ItemRow[] = Array.from({ length: 10_000 }, (_, i) => {
  const metadata: Record<string, MetadataValue> = {};
  for (const [id, column] of table.columns) {
    metadata[id] =
      'codes' in column
        ? column.type === 'boolean'
          ? column.codes[i] === 1
          : (column.categories[column.codes[i]!] ?? null)
        : Number.isNaN(column.values[i]!)
          ? null
          : column.values[i]!;
  }
  return { id: ids[i]!, split: splitNames[split.codes[i]!]!, created_record: 'record-0', metadata };
});
const appendTimes: number[] = [];
for (let b = 0; b < 20; b++) appendTimes.push(time(() => builder.append(batchRows)).ms);
const snapshot = time(() => builder.build());
line('builder: append 10,000 rows × 20 fields (p50)', `${p50(appendTimes).toFixed(1)} ms`);
line(
  `builder: snapshot of ${builder.length.toLocaleString('en')} rows`,
  `${snapshot.ms.toFixed(1)} ms`,
);

// --- query: three filters + two-key sort ----------------------------------------------------
const filter = threeFilters(table);
const sorts = twoKeySorts;
const filterOnly = repeat(() => evaluateFilter(table, filter));
timed(`three filters (${countRows(filterOnly.result).toLocaleString('en')} match)`, filterOnly);
let result: Uint32Array = new Uint32Array(0);
function sortFigures(label: string): void {
  console.log(`${label}:`);
  for (const [name, sort] of sorts) {
    const query: ItemQuery = { filter, sort, include_missing: true };
    const q = repeat(() => queryRows(table, query));
    result = q.result;
    timed(`  three filters + sort ${name}`, q, 100);
  }
  const all = repeat(() => queryRows(table, { sort: sorts[1]![1], include_missing: true }));
  timed(`  all 1M items, sort ${sorts[1]![0]}`, all, 100);
}
sortFigures('without sort indexes (integer keys as one word, other doubles by their IEEE bits)');
const indexing = time(() => prepareSortIndexes(table));
line('prepareSortIndexes: 11 numeric + timestamp columns', `${indexing.ms.toFixed(0)} ms`);
line('  memory of the indexes', mb(11 * 4 * ITEMS));
sortFigures('numeric keys sorted by dense ranks (after prepareSortIndexes)');

// --- histograms -----------------------------------------------------------------------------
const rows = filterOnly.result;
timed(
  'histogram numeric, 20 bins × 3 splits, filtered',
  repeat(() => histogram(table, 'num_0', { rows })),
  30,
);
timed(
  'histogram numeric, 20 bins × 3 splits, all items',
  repeat(() => histogram(table, 'num_0')),
  30,
);
timed(
  'histogram timestamp, filtered',
  repeat(() => histogram(table, 'ts_0', { rows })),
  30,
);
timed(
  'histogram string (50 categories), filtered',
  repeat(() => histogram(table, 'str_5', { rows })),
  30,
);

// --- encoding -------------------------------------------------------------------------------
const enc = repeat(() => encodeIndices(result, { version: table.version }));
timed(`encode sorted result (${result.length.toLocaleString('en')} rows, bit-packed)`, enc);
line('  size', `${(enc.result.byteLength / 1e6).toFixed(2)} MB`);
line(
  '  vs u32 / JSON array of ids',
  `${((result.length * 4) / 1e6).toFixed(2)} / ${(JSON.stringify(Array.from(result, (r) => ids[r])).length / 1e6).toFixed(1)} MB`,
);
timed(
  'decode',
  repeat(() => decodeIndices(enc.result)),
);
const ascending = queryRows(table, { filter });
const encAsc = repeat(() => encodeIndices(ascending, { version: table.version }));
timed('encode unsorted (ascending) result, delta-varint', encAsc);
line('  size', `${(encAsc.result.byteLength / 1e6).toFixed(2)} MB`);
