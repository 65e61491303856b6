// The explorer's other reads inside a comparison of two models (docs/model-comparison.md, "The
// explorer in a comparison") on a real server and database: the selection-performance sidebar
// (itemsSummary) and the embeddings map (points) filter and colour by the comparison's per-item
// fields when their request carries the comparison, and refuse a model that is neither A nor B.
import {
  api,
  type DataLevel,
  type EmbeddingPointsRequest,
  type ExploreComparison,
  type Filter,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addModel, createComparedPets } from '../testing/datasets.js';
import { refused, startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

/** The hand-worked pets of testing/datasets.ts, and a third model in neither side. */
async function pets() {
  const { id, a, b } = await createComparedPets(admin);
  const other = await addModel(admin, id, 'model c', [{ id: 'c1', label: 'cat', score: 0.5 }]);
  await t.runner.drain();
  return { id, a, b, other };
}

const categoryIn = (value: string[]): Filter => ({
  type: 'string',
  metadata_id: 'comparison.category',
  op: 'in',
  value,
});

/** 'A right' in the comparison: c1 (only A right) and c3 (both right). */
const A_RIGHT = categoryIn(['model_a_is_better', 'both_are_neutral']);

const accuracy = (metrics: { metric_name: string; value: unknown }[]) =>
  metrics.find((m) => m.metric_name === 'accuracy')!.value;

describe('selection performance in a comparison', () => {
  it("measures exactly the comparison filter's items, for either model", async () => {
    const { id, a, b } = await pets();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    const body = { data_level: 'image' as DataLevel, filter: A_RIGHT, comparison };
    // A is right on c1 and c3; B is wrong on c1 and right on c3.
    const ofA = await admin.call(api.performance.itemsSummary, {
      params: { id, predictionSetId: a },
      body,
    });
    expect(ofA).toMatchObject({ num_items: 2, num_items_used: 2 });
    expect(accuracy(ofA.metrics)).toBe(1);
    const ofB = await admin.call(api.performance.itemsSummary, {
      params: { id, predictionSetId: b },
      body,
    });
    expect(ofB).toMatchObject({ num_items: 2, num_items_used: 2 });
    expect(accuracy(ofB.metrics)).toBe(0.5);
    // A selection inside the filter keeps only the selected items the filter keeps (c3).
    const selected = await admin.call(api.performance.itemsSummary, {
      params: { id, predictionSetId: b },
      body: { ...body, item_ids: ['c2', 'c3'] },
    });
    expect(selected).toMatchObject({ num_items: 1, num_items_used: 1 });
    expect(accuracy(selected.metrics)).toBe(1);
  });

  it('refuses a comparison field without the comparison, and a model outside it', async () => {
    const { id, a, b, other } = await pets();
    const without = await refused(
      admin.call(api.performance.itemsSummary, {
        params: { id, predictionSetId: a },
        body: { data_level: 'image', filter: A_RIGHT },
      }),
    );
    expect(without).toMatchObject({ status: 400 });
    expect(without.description).toContain('body.filter');
    const outside = await refused(
      admin.call(api.performance.itemsSummary, {
        params: { id, predictionSetId: other },
        body: {
          data_level: 'image',
          filter: A_RIGHT,
          comparison: { predictions_id_a: a, predictions_id_b: b },
        },
      }),
    );
    expect(outside).toMatchObject({ status: 400 });
    expect(outside.description).toContain('body.comparison');
  });
});

describe('the embeddings map in a comparison', () => {
  /** Points of a 3-D feature on the four pets (PCA), as the map asks for them. */
  async function withLayout(id: string, predictions_id: string) {
    await admin.call(api.features.upload, {
      params: { id },
      body: {
        name: 'line',
        data_level: 'image',
        vectors: { c1: [0, 0.1, 0], c2: [1, -0.1, 0], c3: [2, -0.1, 0], c4: [3, 0.1, 0] },
      },
    });
    const points = (body: Partial<EmbeddingPointsRequest>) =>
      admin.call(api.embeddings.points, {
        params: { id },
        body: {
          data_level: 'image',
          predictions_id,
          feature_name: 'line',
          dimensionality_reduction_setting: { method: 'PCA' },
          ...body,
        },
      });
    await points({});
    await t.runner.drain();
    return points;
  }

  const idsOf = (strings: string[] | undefined) =>
    (strings ?? []).map((s) => s.split('|')[0]).sort();

  it("plots exactly the comparison filter's items and colours by a comparison field", async () => {
    const { id, a, b } = await pets();
    const comparison: ExploreComparison = { predictions_id_a: a, predictions_id_b: b };
    for (const predictions_id of [a, b]) {
      const points = await withLayout(id, predictions_id);
      const filtered = await points({ filter: A_RIGHT, comparison });
      expect(filtered).toMatchObject({ status: 'ready', num_points: 2, num_missing: 0 });
      expect(idsOf(filtered.points)).toEqual(['c1', 'c3']);
      const coloured = await points({ color_by: 'comparison.category', comparison });
      expect(coloured.num_points).toBe(4);
      const legend = coloured.legend;
      if (legend?.type !== 'categorical') throw new Error('a categorical legend');
      const labelOf = new Map(legend.categories.map((c) => [c.key, c.label]));
      const byId = Object.fromEntries(
        (coloured.points ?? []).map((s) => {
          const [pointId, , , key] = s.split('|');
          return [pointId, labelOf.get(key!)];
        }),
      );
      expect(byId).toEqual({
        c1: 'model_a_is_better',
        c2: 'model_b_is_better',
        c3: 'both_are_neutral',
        c4: 'both_are_problematic',
      });
    }
  });

  it('refuses a comparison field without the comparison, and a model outside it', async () => {
    const { id, a, b, other } = await pets();
    const points = await withLayout(id, other);
    const without = await refused(points({ filter: A_RIGHT }));
    expect(without).toMatchObject({ status: 400 });
    expect(without.description).toContain('body.filter');
    const outside = await refused(
      points({ filter: A_RIGHT, comparison: { predictions_id_a: a, predictions_id_b: b } }),
    );
    expect(outside).toMatchObject({ status: 400 });
    expect(outside.description).toContain('body.comparison');
  });
});
