// The explorer inside a comparison of two models (docs/model-comparison.md, "The explorer in a
// comparison") on a real server and database: the comparison's per-item fields filter, sort and
// count like any other field, items carry the other model's prediction, and a predictions_id
// that is neither model is refused. Expected categories are worked out in the comments.
import {
  api,
  decodeIndices,
  type DataLevel,
  type ExploreComparison,
  type Filter,
  type ItemIdsRequest,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addModel, createComparedPets, uploadMedia } from '../testing/datasets.js';
import { testImage } from '../testing/media.js';
import { refused, startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

const model = (id: string, name: string, predictions: unknown[]) =>
  addModel(admin, id, name, predictions as never);

const ids = async (id: string, body: ItemIdsRequest) =>
  (
    await admin.call(api.explore.itemIds, {
      params: { id },
      body: { format: 'ids', ...body },
    })
  ).item_ids;

const stringIn = (metadata_id: string, value: string[]): Filter => ({
  type: 'string',
  metadata_id,
  op: 'in',
  value,
});

/** The hand-worked pets of testing/datasets.ts (the categories are in its comment). */
async function pets() {
  const pair = await createComparedPets(admin);
  await t.runner.drain();
  return pair;
}

describe('the explorer in a comparison of two classification models', () => {
  it('filters and sorts by the comparison fields, in either model’s explorer', async () => {
    const { id, a, b } = await pets();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    for (const predictions_id of [a, b]) {
      const level = { data_level: 'image' as DataLevel, predictions_id, comparison };
      expect(
        await ids(id, {
          ...level,
          filter: stringIn('comparison.category', ['model_a_is_better', 'both_are_problematic']),
        }),
      ).toEqual(['c1', 'c4']);
      expect(
        await ids(id, { ...level, filter: stringIn('comparison.category', ['model_b_is_better']) }),
      ).toEqual(['c2']);
      // B − A of the confidence in the true class: c1 (A right, B wrong) lowest, c2 highest.
      const byDelta = await ids(id, {
        ...level,
        sort: [{ name: 'comparison.delta', direction: 'ascending' }],
      });
      expect(byDelta!.at(0)).toBe('c1');
      expect(byDelta!.at(-1)).toBe('c2');
    }
    // Rows of a comparison's answer page its items; the table is built once per model.
    const builds = t.services.explore.tableBuilds;
    const level = { data_level: 'image' as DataLevel, predictions_id: a, comparison };
    const answer = await admin.call(api.explore.itemIds, {
      params: { id },
      body: { ...level, sort: [{ name: 'comparison.category', direction: 'descending' }] },
    });
    const rows = [...decodeIndices(Buffer.from(answer.rows!, 'base64')).indices];
    const paged = await admin.call(api.explore.items, {
      params: { id },
      body: { ...level, rows, version: answer.version },
    });
    // Categories descending: model_b, model_a, both_are_problematic, both_are_neutral.
    expect(paged.items.map((item) => item.id)).toEqual(['c2', 'c1', 'c4', 'c3']);
    expect(t.services.explore.tableBuilds).toBe(builds);
    // A split of the comparison: the other split's samples have no comparison values.
    const train = { ...comparison, split: 'train' };
    expect(
      await ids(id, {
        data_level: 'image',
        predictions_id: a,
        comparison: train,
        filter: stringIn('comparison.category', [
          'model_a_is_better',
          'model_b_is_better',
          'both_are_neutral',
          'both_are_problematic',
        ]),
      }),
    ).toEqual(['c1', 'c2']);
  });

  it('selects a distribution bin’s items, and counts the fields in histograms', async () => {
    const { id, a, b } = await pets();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    const level = { data_level: 'image' as DataLevel, predictions_id: a, comparison };
    const { items } = await admin.call(api.explore.items, {
      params: { id },
      body: { ...level, item_ids: ['c1', 'c2', 'c3', 'c4'] },
    });
    const binOf = new Map(items.map((item) => [item.id, item.metadata['comparison.bin']]));
    for (const bin of new Set(binOf.values())) {
      expect(typeof bin).toBe('number');
      const expected = [...binOf].filter(([, b]) => b === bin).map(([item]) => item);
      expect(
        await ids(id, {
          ...level,
          filter: {
            type: 'numeric',
            metadata_id: 'comparison.bin',
            op: 'between',
            value: [bin as number, bin as number],
          },
        }),
      ).toEqual(expected);
    }
    const histogram = await admin.call(api.explore.histogram, {
      params: { id },
      body: { ...level, metadata_id: 'comparison.category' },
    });
    expect(histogram.metadata_type).toBe('string');
    expect(
      Object.fromEntries(
        histogram.counts_per_bin.map((bin) => [
          String((bin as { category: string }).category),
          bin.count.all,
        ]),
      ),
    ).toEqual({
      model_a_is_better: 1,
      model_b_is_better: 1,
      both_are_neutral: 1,
      both_are_problematic: 1,
    });
  });

  it('gives each item the other model’s prediction', async () => {
    const { id, a, b } = await pets();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    const { items } = await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image', predictions_id: b, comparison, item_ids: ['c1'] },
    });
    expect(items[0]).toMatchObject({
      id: 'c1',
      prediction: { label: 'dog', score: 0.8 },
      compared_prediction: {
        predictions_id: a,
        prediction: { label: 'cat', score: 0.9 },
        objects: [],
      },
      metadata: { 'comparison.category': 'model_a_is_better' },
    });
    // Without a comparison, items have none.
    const plain = await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image', predictions_id: b, item_ids: ['c1'] },
    });
    expect(plain.items[0]!.compared_prediction).toBeUndefined();
    expect(plain.items[0]!.metadata['comparison.category']).toBeUndefined();
  });

  it('lists the comparison fields in metadata info', async () => {
    const { id, a, b } = await pets();
    const { metadata_config } = await admin.call(api.explore.metadataInfo, {
      params: { id },
      query: { data_level: 'image', predictions_id: a, comparison_a: a, comparison_b: b },
    });
    const fields = metadata_config.filter((f) => f.group === 'Comparison');
    expect(fields.map((f) => [f.id, f.type, f.source, f.state])).toEqual([
      ['comparison.category', 'string', 'computed', 'available'],
      ['comparison.delta', 'numeric', 'computed', 'available'],
      ['comparison.bin', 'numeric', 'computed', 'available'],
    ]);
    expect(fields[0]!.options?.allowed_values).toEqual([
      'both_are_neutral',
      'both_are_problematic',
      'model_a_is_better',
      'model_b_is_better',
    ]);
    expect(fields[1]!.options?.min).toBeLessThan(0);
    expect(fields[1]!.options?.max).toBeGreaterThan(0);
    const plain = await admin.call(api.explore.metadataInfo, {
      params: { id },
      query: { data_level: 'image', predictions_id: a },
    });
    expect(plain.metadata_config.some((f) => f.group === 'Comparison')).toBe(false);
  });

  it('refuses a predictions_id that is neither model, and a comparison without one', async () => {
    const { id, a, b } = await pets();
    const c = await model(id, 'model c', [{ id: 'c1', label: 'cat', score: 0.5 }]);
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    for (const predictions_id of [c, undefined]) {
      const other = await refused(
        ids(id, {
          data_level: 'image',
          ...(predictions_id ? { predictions_id } : {}),
          comparison,
        }),
      );
      expect(other.status).toBe(400);
      expect(other.description).toContain('body.comparison');
    }
    const info = await refused(
      admin.call(api.explore.metadataInfo, {
        params: { id },
        query: { data_level: 'image', predictions_id: c, comparison_a: a, comparison_b: b },
      }),
    );
    expect(info.status).toBe(400);
    expect(info.description).toContain('query.comparison_a');
    const half = await refused(
      admin.call(api.explore.metadataInfo, {
        params: { id },
        query: { data_level: 'image', predictions_id: a, comparison_a: a },
      }),
    );
    expect(half.status).toBe(400);
    expect(half.description).toContain('query.comparison_b');
  });
});

/**
 * One 100×50 image d1 with ground truths g1 cat [10, 10, 20, 20] and g2 dog [50, 0, 40, 50]:
 *   A: pa1 cat 0.9 on g1 (TP), pa2 dog 0.8 [0, 30, 10, 10] (FP)
 *   B: pb1 dog 0.7 on g2 (TP), pb2 dog 0.6 [0, 30, 10, 10] (FP)
 * Ground truths: g1 tp_a_fn_b (A better), g2 fn_a_tp_b (B better). Predictions: pa2 and pb2 pair
 * (same class, IoU 1): fp_a_fp_b; pa1 and pb1 stay alone: tp_a_unmatched_b, unmatched_a_tp_b.
 */
async function boxes() {
  const { id } = await admin.call(api.datasets.create, {
    body: { name: 'Boxes', task_type: 'object_detection', class_names: ['cat', 'dog'] },
  });
  const image = await uploadMedia(
    admin,
    id,
    (await testImage(1, 'png', 100, 50)).bytes,
    'image/png',
  );
  await admin.call(api.samples.upload, {
    params: { id },
    body: {
      samples: [
        {
          id: 'd1',
          image,
          objects: [
            { id: 'g1', label: 'cat', bbox: [10, 10, 20, 20] },
            { id: 'g2', label: 'dog', bbox: [50, 0, 40, 50] },
          ],
        },
      ],
    },
  });
  const a = await model(id, 'model a', [
    {
      id: 'd1',
      objects: [
        { id: 'pa1', label: 'cat', score: 0.9, bbox: [10, 10, 20, 20] },
        { id: 'pa2', label: 'dog', score: 0.8, bbox: [0, 30, 10, 10] },
      ],
    },
  ]);
  const b = await model(id, 'model b', [
    {
      id: 'd1',
      objects: [
        { id: 'pb1', label: 'dog', score: 0.7, bbox: [50, 0, 40, 50] },
        { id: 'pb2', label: 'dog', score: 0.6, bbox: [0, 30, 10, 10] },
      ],
    },
  ]);
  await t.runner.drain();
  return { id, a, b };
}

describe('the explorer in a comparison of two detection models', () => {
  it('gives ground truths and the explorer’s own predicted objects their subcategories', async () => {
    const { id, a, b } = await boxes();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    const inA = { data_level: 'image_object' as DataLevel, predictions_id: a, comparison };
    const inB = { ...inA, predictions_id: b };
    expect(
      await ids(id, { ...inA, filter: stringIn('comparison.subcategory', ['tp_a_fn_b']) }),
    ).toEqual(['d1#g1']);
    expect(
      await ids(id, { ...inA, filter: stringIn('comparison.subcategory', ['fp_a_fp_b']) }),
    ).toEqual(['pred:d1#pa2']);
    expect(
      await ids(id, { ...inB, filter: stringIn('comparison.subcategory', ['fp_a_fp_b']) }),
    ).toEqual(['pred:d1#pb2']);
    // Predicted objects of the explorer's own model only, with the link's filter.
    expect(
      await ids(id, {
        ...inA,
        filter: {
          type: 'and',
          children: [
            stringIn('object.type', ['pred']),
            stringIn('comparison.category', ['model_a_is_better']),
          ],
        },
      }),
    ).toEqual(['pred:d1#pa1']);
    expect(
      await ids(id, { ...inB, filter: stringIn('comparison.category', ['model_b_is_better']) }),
    ).toEqual(['d1#g2', 'pred:d1#pb1']);
    // The image level has no comparison fields, but takes the context.
    const images = await refused(
      ids(id, {
        data_level: 'image',
        predictions_id: a,
        comparison,
        filter: stringIn('comparison.category', ['model_a_is_better']),
      }),
    );
    expect(images.status).toBe(400);
    expect(images.description).toContain("unknown metadata field 'comparison.category'");
  });

  it('draws the other model’s boxes with each object', async () => {
    const { id, a, b } = await boxes();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    const { items } = await admin.call(api.explore.items, {
      params: { id },
      body: { data_level: 'image_object', predictions_id: a, comparison, item_ids: ['d1#g1'] },
    });
    const [object] = items;
    expect(object!.objects.filter((o) => o.type === 'pred').map((o) => o.id)).toEqual([
      'pred:d1#pa1',
      'pred:d1#pa2',
    ]);
    expect(object!.compared_prediction).toEqual({
      predictions_id: b,
      prediction: null,
      objects: [
        // [y1, x1, y2, x2] as fractions of the 100×50 image.
        { id: 'pred:d1#pb1', label: 'dog', type: 'pred', score: 0.7, coords: [0, 0.5, 1, 0.9] },
        { id: 'pred:d1#pb2', label: 'dog', type: 'pred', score: 0.6, coords: [0.6, 0, 0.8, 0.1] },
      ],
    });
    expect(object!.metadata).toMatchObject({
      'comparison.category': 'model_a_is_better',
      'comparison.subcategory': 'tp_a_fn_b',
    });
    const info = await admin.call(api.explore.metadataInfo, {
      params: { id },
      query: { data_level: 'image_object', predictions_id: b, comparison_a: a, comparison_b: b },
    });
    expect(info.metadata_config.filter((f) => f.group === 'Comparison').map((f) => f.id)).toEqual([
      'comparison.category',
      'comparison.subcategory',
      'comparison.delta',
      'comparison.bin',
    ]);
  });
});
