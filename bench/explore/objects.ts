// Object-level explorer query on the engine alone (issue 21, item 6): a generated table of
// OBJECTS objects (default 3,000,000) shaped like bench/explore/server.ts's (20 labels, area =
// w × h of boxes 10–209 px wide and high), its sort indexes built as the server builds them
// after a load, then the server's object query — `object.area ≥ 1000` sorted by label
// ascending, area descending — with the answer's encoding, its base64 (item_ids' JSON answer)
// and the client's decoding (item_rows, the web app's path). No database, so sizes the
// server benchmark cannot generate in reasonable time (10M objects) can be measured. Prints p50
// wall and CPU of RUNS runs; never fails on time.
//   npx tsx --conditions=loupe-src bench/explore/objects.ts   (OBJECTS=…, RUNS=…)
import os from 'node:os';
import { decodeIndices, encodeIndices } from '@loupe/contracts';
import {
  createRandom,
  evaluateFilter,
  fromColumns,
  prepareSortIndexes,
  queryRows,
  type Filter,
  type SortEntry,
} from '@loupe/analysis';

const OBJECTS = Number(process.env.OBJECTS ?? 3_000_000);
const RUNS = Number(process.env.RUNS ?? 15);
const LABELS = Array.from({ length: 20 }, (_, c) => `class_${c}`);

function p50(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** p50 wall and CPU (user + system) milliseconds of RUNS calls after a warm-up. */
function timed(name: string, fn: () => unknown): void {
  fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const used = process.cpuUsage();
    const start = performance.now();
    fn();
    wall.push(performance.now() - start);
    const { user, system } = process.cpuUsage(used);
    cpu.push((user + system) / 1000);
  }
  console.log(
    `${name.padEnd(44)} p50 ${p50(wall).toFixed(1).padStart(7)} ms wall / ${p50(cpu).toFixed(1).padStart(7)} ms CPU`,
  );
}

const random = createRandom(42);
const label = new Int32Array(OBJECTS);
const area = new Float64Array(OBJECTS);
for (let i = 0; i < OBJECTS; i++) {
  label[i] = random.int(0, LABELS.length - 1);
  area[i] = (10 + random.int(0, 199)) * (10 + random.int(0, 199));
}
const table = fromColumns({
  ids: Array.from({ length: OBJECTS }, (_, i) => `sample-${Math.floor(i / 3)}#${i % 3}`),
  columns: {
    'object.label': { type: 'string', codes: label, categories: LABELS },
    'object.area': { type: 'numeric', values: area },
  },
});
const indexStart = performance.now();
prepareSortIndexes(table);
const indexMs = performance.now() - indexStart;

const filter: Filter = {
  type: 'numeric',
  metadata_id: 'object.area',
  op: 'between',
  value: [1000, null],
};
const sort: SortEntry[] = [
  { name: 'object.label', direction: 'ascending' },
  { name: 'object.area', direction: 'descending' },
];
const rows = queryRows(table, { filter, sort });
const bytes = encodeIndices(rows, { version: 1 });
console.log(
  `Object-level query — ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )}, node ${process.version}; ${OBJECTS.toLocaleString()} objects, ${rows.length.toLocaleString()} match, ${(bytes.length / 1024 / 1024).toFixed(1)} MB encoded; sort index of area built in ${indexMs.toFixed(0)} ms`,
);
timed('filter: area ≥ 1000', () => evaluateFilter(table, filter));
timed('item_ids rows: filter + sort by label, area', () => queryRows(table, { filter, sort }));
timed('encode the rows', () => encodeIndices(rows, { version: 1 }));
timed("base64 of the encoded rows (item_ids' JSON answer only)", () =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
);
timed('decode the rows (the client)', () => decodeIndices(bytes));
// The web app's path: item_rows sends the encoding as it is, the client decodes it.
timed('item_rows: filter + sort, encoding, decoding', () => {
  const result = queryRows(table, { filter, sort });
  return decodeIndices(encodeIndices(result, { version: 1 }));
});
