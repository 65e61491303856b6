// The explorer's routes on a real server and database, with small hand-made datasets whose
// expected answers are worked out by hand in the comments.
import {
  api,
  decodeIndices,
  readItemRows,
  type CreateDatasetRequest,
  type Filter,
  type HistogramRequest,
  type ItemIdsRequest,
  type SortEntry,
  type UploadMetadataTypes,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, refused, startLicensedApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function createDataset(body: CreateDatasetRequest): Promise<string> {
  return (await admin.call(api.datasets.create, { body })).id;
}

async function upload(id: string, samples: unknown[], metadata_types: UploadMetadataTypes = {}) {
  await admin.call(api.samples.upload, { params: { id }, body: { samples, metadata_types } });
}

const T = (iso: string) => Date.parse(iso);

/**
 * Pets, upload order a..f:
 *   id split label  weight  indoor  color  born
 *   a  train cat    4       true    black  2020-01-01
 *   b  train dog    30      false   brown  2021-06-01
 *   c  val   cat    –       true    white  2022-01-01
 *   d  val   dog    12      –       black  –
 *   e  test  cat    4       false   –      2020-01-01
 *   f  –     dog    7       true    brown  2023-03-03
 */
async function pets(): Promise<string> {
  const id = await createDataset({
    name: 'Pets',
    task_type: 'classification',
    class_names: ['cat', 'dog'],
  });
  await upload(
    id,
    [
      {
        id: 'a',
        split: 'train',
        label: 'cat',
        metadata: { weight: 4, indoor: true, color: 'black', born: '2020-01-01T00:00:00Z' },
      },
      {
        id: 'b',
        split: 'train',
        label: 'dog',
        metadata: { weight: 30, indoor: false, color: 'brown', born: '2021-06-01T00:00:00Z' },
      },
      {
        id: 'c',
        split: 'val',
        label: 'cat',
        metadata: { indoor: true, color: 'white', born: '2022-01-01T00:00:00Z' },
      },
      { id: 'd', split: 'val', label: 'dog', metadata: { weight: 12, color: 'black' } },
      {
        id: 'e',
        split: 'test',
        label: 'cat',
        metadata: { weight: 4, indoor: false, born: '2020-01-01T00:00:00Z' },
      },
      {
        id: 'f',
        label: 'dog',
        metadata: { weight: 7, indoor: true, color: 'brown', born: '2023-03-03T00:00:00Z' },
      },
    ],
    { born: 'timestamp' },
  );
  return id;
}

async function ids(datasetId: string, body: Partial<ItemIdsRequest>): Promise<string[]> {
  const answer = await admin.call(api.explore.itemIds, {
    params: { id: datasetId },
    body: { data_level: 'image', format: 'ids', ...body },
  });
  return answer.item_ids!;
}

describe('item ids', () => {
  it('filters by every kind of predicate', async () => {
    const id = await pets();
    const numeric = (value: [number | null, number | null]): Filter => ({
      type: 'numeric',
      metadata_id: 'weight',
      op: 'between',
      value,
    });
    expect(await ids(id, {})).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(await ids(id, { filter: numeric([5, 12]) })).toEqual(['d', 'f']);
    expect(await ids(id, { filter: numeric([null, 7]) })).toEqual(['a', 'e', 'f']);
    expect(await ids(id, { filter: numeric([12, null]) })).toEqual(['b', 'd']);
    expect(await ids(id, { filter: numeric([null, null]) })).toEqual(['a', 'b', 'd', 'e', 'f']);
    expect(
      await ids(id, {
        filter: { type: 'boolean', metadata_id: 'indoor', op: 'bool_equals', value: false },
      }),
    ).toEqual(['b', 'e']);
    expect(
      await ids(id, {
        filter: { type: 'string', metadata_id: 'color', op: 'in', value: ['black', 'white'] },
      }),
    ).toEqual(['a', 'c', 'd']);
    expect(
      await ids(id, {
        filter: { type: 'string', metadata_id: 'split', op: 'in', value: ['val'] },
      }),
    ).toEqual(['c', 'd']);
    expect(
      await ids(id, {
        filter: {
          type: 'timestamp',
          metadata_id: 'born',
          op: 'ts_between',
          value: ['2021-01-01T00:00:00Z', T('2022-01-01T00:00:00Z')],
        },
      }),
    ).toEqual(['b', 'c']);
    expect(
      await ids(id, {
        filter: {
          type: 'timestamp',
          metadata_id: 'born',
          op: 'ts_between',
          value: ['2022-01-01T00:00:00Z', null],
        },
      }),
    ).toEqual(['c', 'f']);
    expect(
      await ids(id, {
        filter: {
          type: 'timestamp',
          metadata_id: 'born',
          op: 'ts_equals',
          value: '2020-01-01T00:00:00Z',
        },
      }),
    ).toEqual(['a', 'e']);
    // (label = cat and indoor) or not (weight ≤ 10): a, c | b, d (c has no weight: not → in)
    expect(
      await ids(id, {
        filter: {
          type: 'or',
          children: [
            {
              type: 'and',
              children: [
                { type: 'string', metadata_id: 'label', op: 'in', value: ['cat'] },
                { type: 'boolean', metadata_id: 'indoor', op: 'bool_equals', value: true },
              ],
            },
            { type: 'not', child: numeric([null, 10]) },
          ],
        },
      }),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('filters by the history record that created items', async () => {
    const id = await pets();
    t.clock.advance(60 * 60_000); // a later upload starts a new record
    await upload(id, [{ id: 'g', label: 'cat' }]);
    const history = await admin.call(api.datasets.history, { params: { id } });
    const latest = history.find((r) => r.num_items === 1)!;
    const first = history.find((r) => r.num_items === 6)!;
    expect(await ids(id, { filter: { type: 'history', record_id: latest.id } })).toEqual(['g']);
    expect(
      await ids(id, { filter: { type: 'not', child: { type: 'history', record_id: first.id } } }),
    ).toEqual(['g']);
    const unknown = await refused(ids(id, { filter: { type: 'history', record_id: 'nope' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.description).toContain("unknown history record 'nope'");
  });

  it('sorts by several keys, missing values last or left out', async () => {
    const id = await pets();
    // weight ascending, ties by born descending; c has no weight, d no born.
    const sort: SortEntry[] = [
      { name: 'weight', direction: 'ascending' },
      { name: 'born', direction: 'descending' },
    ];
    // Without include_missing, items missing any sort key are left out (c and d).
    expect(await ids(id, { sort })).toEqual(['a', 'e', 'f', 'b']);
    // a and e tie on weight 4 and born 2020: upload order.
    expect(await ids(id, { sort, include_missing: true })).toEqual(['a', 'e', 'f', 'd', 'b', 'c']);
    expect(
      await ids(id, { sort: [{ name: 'weight', direction: 'descending' }], include_missing: true }),
    ).toEqual(['b', 'd', 'f', 'a', 'e', 'c']);
    expect(
      await ids(id, {
        sort: [
          { name: 'label', direction: 'descending' },
          { name: 'card_index', direction: 'descending' },
        ],
      }),
    ).toEqual(['f', 'd', 'b', 'e', 'c', 'a']);
  });

  it('answers the same rows as bytes from item_rows, with the item count in a header', async () => {
    const id = await pets();
    const query = {
      data_level: 'image' as const,
      sort: [{ name: 'weight', direction: 'descending' as const }],
      filter: {
        type: 'string' as const,
        metadata_id: 'color',
        op: 'in' as const,
        value: ['brown', 'black'],
      },
    };
    const json = await admin.call(api.explore.itemIds, { params: { id }, body: query });
    const response = await admin.call(api.explore.itemRows, { params: { id }, body: query });
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.clone().arrayBuffer()).toString('base64')).toBe(json.rows);
    // b(30, brown) d(12, black) f(7, brown) a(4, black) → rows 1, 3, 5, 0
    expect(await readItemRows(response)).toEqual({
      rows: Uint32Array.from([1, 3, 5, 0]),
      total: 4,
      num_items: 6,
      version: json.version,
    });
    const bad = await refused(
      admin.call(api.explore.itemRows, {
        params: { id },
        body: { data_level: 'image', sort: [{ name: 'nope', direction: 'ascending' }] },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.description).toContain("body.sort[0].name: unknown metadata field 'nope'");
    const missing = await refused(
      admin.call(api.explore.itemRows, {
        params: { id: '00000000-0000-4000-8000-000000000000' },
        body: { data_level: 'image' },
      }),
    );
    expect(missing.status).toBe(404);
  });

  it('answers compact rows that decode to the same order, and pages items by them', async () => {
    const id = await pets();
    const body = await admin.call(api.explore.itemIds, {
      params: { id },
      body: { data_level: 'image', sort: [{ name: 'weight', direction: 'descending' }] },
    });
    expect(body).toMatchObject({ total: 5, num_items: 6 });
    const decoded = decodeIndices(Buffer.from(body.rows!, 'base64'));
    expect(decoded.version).toBe(body.version);
    // b(30) d(12) f(7) a(4) e(4) → rows 1, 3, 5, 0, 4
    expect([...decoded.indices]).toEqual([1, 3, 5, 0, 4]);
    const { items } = await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image', rows: [...decoded.indices].slice(0, 3), version: body.version },
    });
    expect(items.map((i) => i.id)).toEqual(['b', 'd', 'f']);
    expect(items[0]).toMatchObject({
      id: 'b',
      row: 1,
      sample_id: 'b',
      type: 'gt',
      split: 'train',
      label: 'dog',
      prediction: null,
      objects: [],
      metadata: { weight: 30, indoor: false, color: 'brown', split: 'train', label: 'dog' },
    });
    expect(items[0]!.metadata.born).toBe(T('2021-06-01T00:00:00Z'));

    // A new upload changes the table: the old rows are refused, retriably.
    await upload(id, [{ id: 'g', label: 'cat', metadata: { weight: 99 } }]);
    const stale = await refused(
      admin.call(api.explore.items, {
        params: { id },
        body: { data_level: 'image', rows: [0], version: body.version },
      }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ description: expect.any(String), retriable: true });
    // … and the next query sees the new item.
    expect(await ids(id, { sort: [{ name: 'weight', direction: 'descending' }] })).toEqual([
      'g',
      'b',
      'd',
      'f',
      'a',
      'e',
    ]);
  });

  it('builds a table once for concurrent requests and again only after a change', async () => {
    const id = await pets();
    const before = t.services.explore.tableBuilds;
    await Promise.all([ids(id, {}), ids(id, {}), ids(id, { sort: [] })]);
    expect(t.services.explore.tableBuilds - before).toBe(1);
    await ids(id, {});
    expect(t.services.explore.tableBuilds - before).toBe(1);
    await upload(id, [{ id: 'h', label: 'dog' }]);
    expect(await ids(id, {})).toContain('h');
    expect(t.services.explore.tableBuilds - before).toBe(2);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const id = await pets();
    const cases: [Record<string, unknown>, string][] = [
      [{ data_level: 'image_object' }, 'body.data_level'],
      [{ data_level: 'pixels' }, 'body.data_level'],
      [
        { sort: [{ name: 'nope', direction: 'ascending' }] },
        "body.sort[0].name: unknown metadata field 'nope'",
      ],
      [
        { filter: { type: 'numeric', metadata_id: 'ghost', op: 'between', value: [1, 2] } },
        "body.filter: unknown metadata field 'ghost'",
      ],
      [
        { filter: { type: 'numeric', metadata_id: 'color', op: 'between', value: [1, 2] } },
        "'color'",
      ],
      [
        {
          filter: { type: 'timestamp', metadata_id: 'born', op: 'ts_equals', value: 'yesterday' },
        },
        'body.filter: Invalid timestamp "yesterday" in the timestamp filter on \'born\'',
      ],
      [{ predictions_id: 'x' }, 'predictions_id'],
    ];
    // Raw: wrong values on purpose, some of which the typed client would not send.
    for (const [body, description] of cases) {
      const response = await admin.post(`/api/datasets/${id}/item_ids`, {
        data_level: 'image',
        ...body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().description).toContain(description);
    }
    await expect(ids(id, { subset_id: 's1' })).rejects.toMatchObject({
      status: 404,
      description: 'Subset not found',
    });
    await expect(
      ids(id, { predictions_id: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ status: 404 });
    const items = (rows: number[], version?: number) =>
      refused(
        admin.call(api.explore.items, {
          params: { id },
          body: { data_level: 'image', rows, version },
        }),
      );
    const noVersion = await items([0]);
    expect(noVersion.status).toBe(400);
    expect(noVersion.description).toContain('body.version');
    const { version } = await admin.call(api.explore.itemIds, {
      params: { id },
      body: { data_level: 'image' },
    });
    const outside = await items([6], version);
    expect(outside.status).toBe(400);
    expect(outside.description).toContain('body.rows: row 6 is outside');
  });

  it('answers 401 to anonymous callers', async () => {
    const id = await pets();
    const anonymous = new Client(t.app);
    const params = { id };
    for (const call of [
      () => anonymous.call(api.explore.itemIds, { params, body: { data_level: 'image' } }),
      () => anonymous.call(api.explore.itemRows, { params, body: { data_level: 'image' } }),
      () =>
        anonymous.call(api.explore.items, {
          params,
          body: { data_level: 'image', item_ids: ['a'] },
        }),
      () => anonymous.call(api.explore.metadataInfo, { params, query: { data_level: 'image' } }),
      () =>
        anonymous.call(api.explore.histogram, {
          params,
          body: { data_level: 'image', metadata_id: 'weight' },
        }),
      () => anonymous.call(api.explore.colorMap, { params }),
      () =>
        anonymous.call(api.explore.itemFeatures, {
          params,
          body: { data_level: 'image', item_ids: ['a'] },
        }),
    ]) {
      const error = await refused(call());
      expect(error.status, error.url).toBe(401);
    }
  });
});

describe('metadata info, histogram, colour map, item features', () => {
  it('lists every field with counts and options', async () => {
    const id = await pets();
    const fields = (
      await admin.call(api.explore.metadataInfo, { params: { id }, query: { data_level: 'image' } })
    ).metadata_config;
    const byId = new Map(fields.map((f) => [f.id, f]));
    expect(fields.map((f) => f.id).slice(0, 3)).toEqual(['card_index', 'split', 'label']);
    expect(byId.get('card_index')).toMatchObject({
      label: 'Index',
      type: 'numeric',
      source: 'builtin',
      state: 'available',
      num_missing: 0,
      num_total: 6,
      options: { min: 0, max: 5 },
    });
    expect(byId.get('weight')).toMatchObject({
      type: 'numeric',
      source: 'uploaded',
      num_missing: 1,
      num_total: 6,
      options: { min: 4, max: 30 },
    });
    expect(byId.get('color')).toMatchObject({
      type: 'string',
      num_missing: 1,
      options: { allowed_values: ['black', 'brown', 'white'] },
    });
    expect(byId.get('split')).toMatchObject({
      num_missing: 1,
      options: { allowed_values: ['test', 'train', 'val'] },
    });
    expect(byId.get('born')).toMatchObject({
      type: 'timestamp',
      num_missing: 1,
      options: { min: T('2020-01-01T00:00:00Z'), max: T('2023-03-03T00:00:00Z') },
    });
    expect(byId.get('indoor')).toMatchObject({ type: 'boolean', num_missing: 1 });
  });

  it('counts a histogram per split, honouring a filter', async () => {
    const id = await pets();
    const histogram = (body: Omit<HistogramRequest, 'data_level'>) =>
      admin.call(api.explore.histogram, { params: { id }, body: { data_level: 'image', ...body } });
    const labels = await histogram({
      metadata_id: 'label',
      filter: { type: 'boolean', metadata_id: 'indoor', op: 'bool_equals', value: true },
    });
    // indoor: a (train cat), c (val cat), f (no split, dog)
    expect(labels).toEqual({
      metadata_type: 'string',
      counts_per_bin: [
        { category: 'cat', count: { all: 2, train: 1, val: 1, test: 0 } },
        { category: 'dog', count: { all: 1, train: 0, val: 0, test: 0 } },
      ],
    });
    const numeric = await histogram({ metadata_id: 'weight', max_num_bins: 2 });
    // weights 4, 30, 12, 4, 7 over [4, 30]: bins [4, 17) and [17, 30]
    expect(numeric).toEqual({
      metadata_type: 'numeric',
      counts_per_bin: [
        { bin_start: 4, bin_end: 17, count: { all: 4, train: 1, val: 1, test: 1 } },
        { bin_start: 17, bin_end: 30, count: { all: 1, train: 1, val: 0, test: 0 } },
      ],
    });
    const unknown = await refused(histogram({ metadata_id: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.description).toContain("body.metadata_id: unknown metadata field 'nope'");
  });

  it('gives each class a distinct colour', async () => {
    const id = await pets();
    const map = (await admin.call(api.explore.colorMap, { params: { id } })).color_map;
    expect(Object.keys(map)).toEqual(['cat', 'dog']);
    expect(map.cat).toMatch(/^#[0-9a-f]{6}$/);
    expect(map.cat).not.toBe(map.dog);
  });

  it('counts items without a vector per feature', async () => {
    const id = await pets();
    await admin.call(api.features.upload, {
      params: { id },
      body: { name: 'clip', data_level: 'image', vectors: { a: [1, 0], b: [0, 1] } },
    });
    const answer = await admin.call(api.explore.itemFeatures, {
      params: { id },
      body: { data_level: 'image', item_ids: ['a', 'c', 'd', 'a'] },
    });
    expect(answer).toEqual({ features: [{ feature_name: 'clip', num_missing: 2 }] });
  });
});
