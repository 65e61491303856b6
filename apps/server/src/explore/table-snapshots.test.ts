import {
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  builtSortIndex,
  fromColumns,
  prepareSortIndexes,
  queryRows,
  type ItemQuery,
  type NumericColumn,
} from '@loupe/analysis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldDef } from './field-catalogue.js';
import type { ImageObjects } from './image-matching.js';
import { exploreTableBytes, type ExploreTable } from './item-table-loader.js';
import { TableSnapshots } from './table-snapshots.js';

const field = (id: string, type: FieldDef['type']): FieldDef => ({
  id,
  name: id,
  label: id,
  description: '',
  group: 'Metadata',
  source: 'uploaded',
  type,
});

/** Four images, ids with characters beyond Latin-1 in one. */
function sampleTable(version: number): ExploreTable {
  const ids = ['a', 'b', 'ç', 'イメージ-4'];
  const table = fromColumns({
    ids,
    version,
    columns: {
      weight: { type: 'numeric', values: [4, null, 12.5, -1] },
      born: { type: 'timestamp', values: [Date.parse('2020-01-01'), null, 0, 1e12] },
      color: { type: 'string', values: ['black', null, 'brown', 'black'] },
      indoor: { type: 'boolean', values: [true, false, null, true] },
    },
    split: ['train', 'val', null, 'train'],
    createdRecord: ['r1', 'r1', 'r2', null],
  });
  return {
    table,
    fields: [field('weight', 'numeric'), field('color', 'string')],
    dataVersion: version,
    bytes: exploreTableBytes(table, undefined),
    stats: new Map(),
    fingerprint: 'f1',
  };
}

/** Two images with one ground truth and one prediction each; at object level, the table's ids. */
function objectTable(version: number): ExploreTable {
  const objects: ImageObjects = {
    ids: ['o1', 'pred:p1', 'o2', 'pred:p2'],
    starts: Uint32Array.from([0, 1, 2, 3, 4]),
    image: Int32Array.from([0, 0, 1, 1]),
    isPred: Uint8Array.from([0, 1, 0, 1]),
    box: Float64Array.from([0, 0, 10, 10, 1, 1, 9, 9, 5, 5, 2, 2, NaN, NaN, NaN, NaN]),
    label: Int32Array.from([0, 0, 1, -1]),
    labels: ['car', 'person'],
    score: Float64Array.from([NaN, 0.9, NaN, 0.4]),
    iouThreshold: 0.5,
  };
  const table = fromColumns({
    ids: objects.ids,
    version,
    columns: {
      'object.label': { type: 'string', codes: objects.label, categories: objects.labels },
      'prediction.score': { type: 'numeric', values: objects.score },
    },
    split: { codes: Int32Array.from([0, 0, 1, 1]), categories: ['train', 'val'] },
  });
  return {
    table,
    fields: [field('object.label', 'string')],
    dataVersion: version,
    bytes: exploreTableBytes(table, objects),
    stats: new Map(),
    objects,
    fingerprint: 'f2',
  };
}

let dir: string;
let snapshots: TableSnapshots;
const logged: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-snapshots-'));
  logged.length = 0;
  snapshots = new TableSnapshots(dir, (message) => logged.push(message));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function files(): string[] {
  return readdirSync(join(dir, 'd1')).sort();
}

describe('TableSnapshots', () => {
  it('reads back a sample table as written: ids, every column type, split and records', async () => {
    const written = sampleTable(7);
    await snapshots.write('d1', 'image', null, written, 'f1');
    const read = await snapshots.read('d1', 'image', null, 7, 'f1');
    expect(read).not.toBeNull();
    expect(read!.table.ids).toEqual(written.table.ids);
    expect(read!.table.length).toBe(4);
    expect(read!.table.version).toBe(7);
    expect(read!.dataVersion).toBe(7);
    expect(read!.fields).toEqual(written.fields);
    expect(read!.table.split).toEqual(written.table.split);
    expect(read!.table.createdRecord).toEqual(written.table.createdRecord);
    expect([...read!.table.columns.keys()]).toEqual([...written.table.columns.keys()]);
    for (const [id, column] of written.table.columns)
      expect(read!.table.columns.get(id)).toEqual(column);
    expect(read!.objects).toBeUndefined();
    // The engine answers the same on both tables.
    const request: ItemQuery = {
      filter: { type: 'string', metadata_id: 'color', op: 'in', value: ['black'] },
      sort: [{ name: 'weight', direction: 'descending' }],
    };
    expect([...queryRows(read!.table, request)]).toEqual([...queryRows(written.table, request)]);
    expect(snapshots.reads).toBe(1);
    expect(snapshots.writes).toBe(1);
  });

  it('writes built sort indexes and restores them with the table', async () => {
    const written = sampleTable(2);
    prepareSortIndexes(written.table);
    await snapshots.write('d1', 'image', null, written, 'f1');
    const read = await snapshots.read('d1', 'image', null, 2, 'f1');
    for (const id of ['weight', 'born']) {
      const before = written.table.columns.get(id) as NumericColumn;
      const after = read!.table.columns.get(id) as NumericColumn;
      expect(builtSortIndex(after)).toEqual(builtSortIndex(before));
    }
    // A table written before its indexes were built is read without them.
    await snapshots.write('d1', 'image', null, sampleTable(3), 'f1');
    const bare = await snapshots.read('d1', 'image', null, 3, 'f1');
    expect(builtSortIndex(bare!.table.columns.get('weight') as NumericColumn)).toBeUndefined();
  });

  it('reads back more ids than one block of strings, in either encoding', async () => {
    for (const suffix of ['', 'é', '→']) {
      const ids = Array.from(
        { length: 150_000 },
        (_, i) => `item-${i}${i % 7 === 0 ? suffix : ''}`,
      );
      const table = fromColumns({
        ids,
        columns: { n: { type: 'numeric', values: ids.map((_, i) => i % 10) } },
      });
      const explore: ExploreTable = {
        table,
        fields: [],
        dataVersion: 1,
        bytes: 0,
        stats: new Map(),
      };
      await snapshots.write('d1', 'image', null, explore, 'f');
      const read = await snapshots.read('d1', 'image', null, 1, 'f');
      expect(read!.table.ids).toEqual(ids);
    }
  });

  it('gives every array its own buffer', async () => {
    await snapshots.write('d1', 'image', null, sampleTable(1), 'f1');
    const read = await snapshots.read('d1', 'image', null, 1, 'f1');
    const weight = read!.table.columns.get('weight')!;
    expect('values' in weight && weight.values.byteOffset).toBe(0);
    expect('values' in weight && weight.values.buffer.byteLength).toBe(4 * 8);
  });

  it('reads back the objects of an object table, sharing what the table shares', async () => {
    const written = objectTable(3);
    await snapshots.write('d1', 'image_object', 'p1', written, 'f2');
    const read = await snapshots.read('d1', 'image_object', 'p1', 3, 'f2');
    expect(read!.objects).toEqual(written.objects);
    // The table's ids are the objects' ids, one array as when built.
    expect(read!.objects!.ids).toBe(read!.table.ids);
    const score = read!.table.columns.get('prediction.score')!;
    expect('values' in score && score.values).toBe(read!.objects!.score);
  });

  it('answers null for another version, fingerprint, level or prediction set', async () => {
    await snapshots.write('d1', 'image', null, sampleTable(5), 'f1');
    expect(await snapshots.read('d1', 'image', null, 6, 'f1')).toBeNull();
    expect(await snapshots.read('d1', 'image', null, 5, 'other')).toBeNull();
    expect(await snapshots.read('d1', 'image_object', null, 5, 'f1')).toBeNull();
    expect(await snapshots.read('d1', 'image', 'p1', 5, 'f1')).toBeNull();
    expect(await snapshots.read('d2', 'image', null, 5, 'f1')).toBeNull();
    expect(await snapshots.read('d1', 'image', null, 5, 'f1')).not.toBeNull();
  });

  it('keeps only the newest version of a table, and other tables alone', async () => {
    await snapshots.write('d1', 'image', null, sampleTable(1), 'f1');
    await snapshots.write('d1', 'image', 'p1', sampleTable(1), 'f1');
    await snapshots.write('d1', 'image', null, sampleTable(2), 'f1');
    expect(files()).toEqual(['image.-.2.table', 'image.p1.1.table']);
    expect(await snapshots.read('d1', 'image', null, 1, 'f1')).toBeNull();
  });

  it('removes the temporary file of a write that never ended, once it is an hour old', async () => {
    await snapshots.write('d1', 'image', null, sampleTable(1), 'f1');
    const old = join(dir, 'd1', 'image.-.2.table.x.partial');
    const recent = join(dir, 'd1', 'image.-.3.table.y.partial');
    writeFileSync(old, 'half');
    writeFileSync(recent, 'half');
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(old, hoursAgo, hoursAgo);
    await snapshots.write('d1', 'image', null, sampleTable(2), 'f1');
    expect(files()).toEqual(['image.-.2.table', 'image.-.3.table.y.partial']);
  });

  it('removes a damaged file and answers null, so the table is built again', async () => {
    await snapshots.write('d1', 'image', null, sampleTable(4), 'f1');
    const path = join(dir, 'd1', 'image.-.4.table');
    truncateSync(path, statSync(path).size - 9);
    expect(await snapshots.read('d1', 'image', null, 4, 'f1')).toBeNull();
    expect(files()).toEqual([]);
    expect(logged).toHaveLength(1);

    writeFileSync(path, 'not a table at all');
    expect(await snapshots.read('d1', 'image', null, 4, 'f1')).toBeNull();
  });

  it('refuses codes out of their categories', async () => {
    const explore = sampleTable(9);
    const color = explore.table.columns.get('color')!;
    if ('codes' in color) color.codes[0] = 5;
    await snapshots.write('d1', 'image', null, explore, 'f1');
    expect(await snapshots.read('d1', 'image', null, 9, 'f1')).toBeNull();
    expect(logged[0]).toMatch(/unreadable/);
  });

  it('forgets a dataset', async () => {
    await snapshots.write('d1', 'image', null, sampleTable(1), 'f1');
    await snapshots.forget('d1');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes nothing half: a failed write leaves no file and does not throw', async () => {
    writeFileSync(join(dir, 'd1'), 'a file where the directory should be');
    await snapshots.write('d1', 'image', null, sampleTable(1), 'f1');
    expect(logged).toEqual(['could not write an explorer table snapshot']);
    expect(snapshots.writes).toBe(0);
  });
});
