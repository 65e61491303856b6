// Embeddings and similarity on a real server and database: settings, the points lifecycle
// (computing → ready, reuse, recompute on upload, failure), filter and colour, the selection
// aggregate and similar items, with expected answers worked out by hand.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  api,
  BOOLEAN_COLORS,
  decodeIndices,
  EMBEDDINGS_FAILED,
  fieldValueColor,
  type MetadataFieldInfo,
  FEATURE_NOT_AVAILABLE,
  NO_FEATURES_FOR_EMBEDDINGS,
  SUBSET_MESSAGES,
  type DimensionalityReductionSetting,
  type EmbeddingPointsRequest,
  type EmbeddingsLegend,
  type UpdateEmbeddingsSettingsRequest,
} from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrator, openDatabase } from '../db/database.js';
import {
  addUser,
  Client,
  freshDatabaseConfig,
  refused,
  setUpInstance,
  startLicensedApp,
  startTestApp,
  type TestApp,
} from '../testing/test-app.js';
import { testImage } from '../testing/media.js';
import { systemActor } from '../users/actor.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

/**
 * Eight samples s0..s7, class cat (even) / dog (odd):
 *   weight: 1, 2, …, 7 for s0..s6, missing for s7; indoor: true for s0..s3, false after.
 * Feature 'line' (3-D) for s0..s6 only: v_i = (i, o_i, 0) with o = 0.1·[1, −1, 0, 0, 0, −1, 1]
 * and s7 has no vector. o sums to zero and Σ i·o_i = 0 (uncorrelated with i), so PCA's first
 * component is the x axis: x_i = ±(i − 3), y_i = ±o_i.
 */
const OFFSETS = [0.1, -0.1, 0, 0, 0, -0.1, 0.1];

async function fixture(): Promise<string> {
  const { id } = await admin.call(api.datasets.create, {
    body: { name: 'Shapes', task_type: 'classification', class_names: ['cat', 'dog'] },
  });
  const samples = Array.from({ length: 8 }, (_, i) => ({
    id: `s${i}`,
    split: i < 4 ? 'train' : 'val',
    label: i % 2 === 0 ? 'cat' : 'dog',
    metadata: { ...(i < 7 ? { weight: i + 1 } : {}), indoor: i < 4 },
  }));
  await admin.call(api.samples.upload, { params: { id }, body: { samples } });
  return id;
}

async function uploadFeature(id: string, name: string, vectors: Record<string, number[]>) {
  // Each upload is a new version of the feature's vectors.
  t.clock.advance(1000);
  await admin.call(api.features.upload, {
    params: { id },
    body: { name, data_level: 'image', vectors },
  });
}

const lineVectors = (scale = 1) =>
  Object.fromEntries(OFFSETS.map((o, i) => [`s${i}`, [i * scale, o, 0]]));

const PCA = { method: 'PCA' } as const;

/** Points as the map asks for them: PCA of 'line' unless the body says otherwise. */
const points = (id: string, body: Partial<EmbeddingPointsRequest> = {}) =>
  pointsOf(id, { dimensionality_reduction_setting: PCA, feature_name: 'line', ...body });

const pointsOf = (id: string, body: Partial<EmbeddingPointsRequest> = {}) =>
  admin.call(api.embeddings.points, { params: { id }, body: { data_level: 'image', ...body } });

const settings = (id: string, client = admin) =>
  client.call(api.embeddings.settings, { params: { id }, query: { data_level: 'image' } });

const similar = (
  id: string,
  body: { item_ids: string[]; k?: number; exclude_ids?: string[]; feature_name?: string },
) =>
  admin.call(api.embeddings.similarItems, {
    params: { id },
    body: { data_level: 'image', ...body },
  });

/** The categories of a categorical legend. */
function categoriesOf(legend: EmbeddingsLegend | null) {
  if (legend?.type !== 'categorical') throw new Error(`not categorical: ${JSON.stringify(legend)}`);
  return legend.categories;
}

function parse(strings: string[] | undefined) {
  if (!strings) throw new Error('no points in the answer');
  return new Map(
    strings.map((s) => {
      const [id, x, y, key] = s.split('|');
      return [id!, { x: Number(x), y: Number(y), key: key! }];
    }),
  );
}

async function embeddingJobs() {
  const activities = await admin.call(api.activities.list, { query: { scope: 'all' } });
  return activities.filter((a) => a.job_type === 'EmbeddingsComputation');
}

describe('embeddings settings', () => {
  it('defaults to UMAP with 15 neighbours and the first feature, and stores an update', async () => {
    const id = await fixture();
    expect(await settings(id)).toEqual({
      feature_names: [],
      predictions_feature_names: [],
      feature_name: null,
      dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    });
    await uploadFeature(id, 'line', lineVectors());
    await uploadFeature(id, 'other', { s0: [1, 2] });
    expect(await settings(id)).toMatchObject({
      feature_names: ['line', 'other'],
      feature_name: 'line',
    });
    await admin.call(api.embeddings.updateSettings, {
      params: { id },
      body: {
        data_level: 'image',
        feature_name: 'other',
        dimensionality_reduction_setting: { method: 'TSNE', perplexity: 12.5 },
      },
    });
    expect(await settings(id)).toEqual({
      feature_names: ['line', 'other'],
      predictions_feature_names: [],
      feature_name: 'other',
      dimensionality_reduction_setting: { method: 'TSNE', perplexity: 12.5 },
    });
  });

  it('refuses out-of-range parameters, unknown features and levels with messages naming them', async () => {
    const id = await fixture();
    const put = (
      body: Omit<UpdateEmbeddingsSettingsRequest, 'data_level' | 'feature_name'> & {
        feature_name?: string;
      },
    ) =>
      admin.call(api.embeddings.updateSettings, {
        params: { id },
        body: { data_level: 'image', feature_name: 'line', ...body },
      });
    const noFeature = await refused(put({ dimensionality_reduction_setting: PCA }));
    expect(noFeature.status).toBe(424);
    expect(noFeature.body).toEqual({
      description: NO_FEATURES_FOR_EMBEDDINGS,
      retriable: true,
    });
    await uploadFeature(id, 'line', lineVectors());
    const cases: [DimensionalityReductionSetting, string][] = [
      [{ method: 'UMAP', num_neighbors: 1 }, 'num_neighbors must be at least 2'],
      [{ method: 'UMAP', num_neighbors: 101 }, 'num_neighbors must be at most 100'],
      [{ method: 'UMAP', num_neighbors: 2.5 }, 'num_neighbors must be a whole number'],
      [{ method: 'TSNE', perplexity: 0.05 }, 'perplexity must be at least 0.1'],
      [{ method: 'TSNE', perplexity: 100.5 }, 'perplexity must be at most 100'],
    ];
    for (const [setting, message] of cases) {
      const error = await refused(put({ dimensionality_reduction_setting: setting }));
      expect(error.status).toBe(400);
      expect(error.description).toContain('dimensionality_reduction_setting');
      expect(error.description).toContain(message);
    }
    for (const ok of [
      { method: 'UMAP', num_neighbors: 2 },
      { method: 'UMAP', num_neighbors: 100 },
      { method: 'TSNE', perplexity: 0.1 },
      { method: 'TSNE', perplexity: 100 },
    ] as const)
      expect(
        (await put({ dimensionality_reduction_setting: ok })).dimensionality_reduction_setting,
      ).toEqual(ok);
    const unknown = await refused(
      put({ feature_name: 'nope', dimensionality_reduction_setting: PCA }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.description).toBe(FEATURE_NOT_AVAILABLE);
    const level = await refused(
      admin.call(api.embeddings.settings, { params: { id }, query: { data_level: 'audio' } }),
    );
    expect(level.status).toBe(400);
    expect(level.description).toContain('data_level');
  });
});

describe('embedding points', () => {
  it('computes on a job, then answers the stored layout until the vectors change', async () => {
    const id = await fixture();
    const none = await refused(pointsOf(id));
    expect(none.status).toBe(424);
    expect(none.description).toBe(NO_FEATURES_FOR_EMBEDDINGS);

    await uploadFeature(id, 'line', lineVectors());
    const first = await points(id);
    expect(first).toMatchObject({ status: 'computing', progress: 0, feature_name: 'line' });
    expect(await embeddingJobs()).toMatchObject([{ status: 'PENDING' }]);
    // Polling while the job waits starts nothing new.
    expect((await points(id)).status).toBe('computing');
    // The layout, and the health checks the feature upload enqueued.
    expect(await t.runner.drain()).toBe(2);
    expect(await embeddingJobs()).toMatchObject([{ status: 'SUCCESS' }]);

    const ready = await points(id);
    expect(ready).toMatchObject({
      status: 'ready',
      progress: 1,
      num_points: 7,
      num_missing: 1, // s7 has no vector
      legend: null,
      dimensionality_reduction_setting: PCA,
    });
    const byId = parse(ready.points);
    expect([...byId.keys()].sort()).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
    const sx = Math.sign(byId.get('s6')!.x);
    const sy = Math.sign(byId.get('s0')!.y);
    OFFSETS.forEach((o, i) => {
      const p = byId.get(`s${i}`)!;
      expect(p.x * sx).toBeCloseTo(i - 3, 3);
      expect(p.y * sy).toBeCloseTo(o, 3);
      expect(p.key).toBe('');
    });

    // A second request reuses the stored layout: no new job.
    expect((await points(id)).status).toBe('ready');
    expect(await t.runner.drain()).toBe(0);
    expect(await embeddingJobs()).toHaveLength(1);

    // New vectors (twice as spread out): computing again, then the new layout.
    await uploadFeature(id, 'line', lineVectors(2));
    expect((await points(id)).status).toBe('computing');
    expect(await t.runner.drain()).toBe(2);
    const again = parse((await points(id)).points);
    OFFSETS.forEach((_, i) =>
      expect(Math.abs(again.get(`s${i}`)!.x)).toBeCloseTo(Math.abs(2 * (i - 3)), 3),
    );
  });

  it('uses the stored settings when the request names no method or feature', async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    await admin.call(api.embeddings.updateSettings, {
      params: { id },
      body: { data_level: 'image', feature_name: 'line', dimensionality_reduction_setting: PCA },
    });
    expect(await pointsOf(id)).toMatchObject({
      status: 'computing',
      feature_name: 'line',
      dimensionality_reduction_setting: PCA,
    });
    const unknown = await refused(pointsOf(id, { feature_name: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.description).toBe(FEATURE_NOT_AVAILABLE);
  });

  it('filters and colours the points, with a legend, in strings and in binary', async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    await points(id);
    await t.runner.drain();
    const colorMap = (await admin.call(api.explore.colorMap, { params: { id } })).color_map;

    const byLabel = await points(id, { color_by: 'label' });
    const categories = categoriesOf(byLabel.legend);
    expect(categories.map((c) => [c.label, c.color])).toEqual([
      ['cat', colorMap.cat],
      ['dog', colorMap.dog],
    ]);
    const labelOfKey = new Map(categories.map((c) => [c.key, c.label]));
    for (const [pointId, p] of parse(byLabel.points))
      expect(labelOfKey.get(p.key)).toBe(Number(pointId.slice(1)) % 2 === 0 ? 'cat' : 'dog');

    // Weight 3..6 keeps s2..s5; s7 (no vector) is outside the filter, so nothing is missing.
    // The legend keeps the field's whole range (1..7), so a filter never recolours a value.
    const filtered = await points(id, {
      color_by: 'weight',
      filter: { type: 'numeric', metadata_id: 'weight', op: 'between', value: [3, 6] },
    });
    expect(filtered).toMatchObject({
      num_points: 4,
      num_missing: 0,
      legend: { type: 'continuous', min: 1, max: 7 },
    });
    expect([...parse(filtered.points)].map(([pointId, p]) => [pointId, p.key]).sort()).toEqual([
      ['s2', '3'],
      ['s3', '4'],
      ['s4', '5'],
      ['s5', '6'],
    ]);

    // indoor = false keeps s4..s7; s7 has no vector: 3 points, 1 missing.
    const outdoor = await points(id, {
      filter: { type: 'boolean', metadata_id: 'indoor', op: 'bool_equals', value: false },
      color_by: 'indoor',
    });
    expect(outdoor).toMatchObject({ num_points: 3, num_missing: 1 });
    expect(categoriesOf(outdoor.legend).map((c) => c.label)).toEqual(['false']);

    // Binary: the same points as row indices, float32 coordinates and uint16 colour codes.
    const strings = parse(byLabel.points);
    const binary = await points(id, { color_by: 'label', format: 'binary' });
    expect(binary.points).toBeUndefined();
    const encoded = binary.binary!;
    const rows = decodeIndices(new Uint8Array(Buffer.from(encoded.rows, 'base64')));
    expect(rows.version).toBe(binary.version);
    const xy = new Float32Array(new Uint8Array(Buffer.from(encoded.xy, 'base64')).buffer);
    const codes = new Uint16Array(new Uint8Array(Buffer.from(encoded.colors!, 'base64')).buffer);
    expect(rows.indices.length).toBe(7);
    // Rows are upload order: row r is s{r}.
    Array.from(rows.indices).forEach((row, i) => {
      const expected = strings.get(`s${row}`)!;
      expect(xy[i * 2]).toBeCloseTo(expected.x, 3);
      expect(xy[i * 2 + 1]).toBeCloseTo(expected.y, 3);
      expect(String(codes[i])).toBe(expected.key);
    });

    const unknown = await refused(points(id, { color_by: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.description).toContain('color_by');
  });

  it('gives each value the colour the grid gives it, whatever the filter leaves', async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    await points(id);
    await t.runner.drain();
    // What the grid colours with: the metadata info and the dataset's colour map.
    const colorMap = (await admin.get(`/api/datasets/${id}/color_map`)).json().color_map;
    const info = (await admin.get(`/api/datasets/${id}/metadata_info?data_level=image`)).json()
      .metadata_config as MetadataFieldInfo[];
    const fieldOf = (fieldId: string) => info.find((field) => field.id === fieldId)!;
    const filters = [
      null,
      { type: 'boolean', metadata_id: 'indoor', op: 'bool_equals', value: false },
      { type: 'boolean', metadata_id: 'indoor', op: 'bool_equals', value: true },
      { type: 'string', metadata_id: 'label', op: 'in', value: ['dog'] },
      { type: 'string', metadata_id: 'split', op: 'in', value: ['val'] },
    ];
    const seen = new Map<string, string>();
    for (const colorBy of ['indoor', 'label', 'split']) {
      for (const filter of filters) {
        const { legend } = await points(id, {
          color_by: colorBy,
          filter: filter as EmbeddingPointsRequest['filter'],
        });
        if (legend?.type !== 'categorical') throw new Error(`${colorBy}: no categorical legend`);
        for (const { label, color } of legend.categories) {
          expect(color, `${colorBy}=${label}`).toBe(
            fieldValueColor(fieldOf(colorBy), label, { color_map: colorMap }),
          );
          const key = `${colorBy}=${label}`;
          expect(seen.get(key) ?? color, `${key} under ${JSON.stringify(filter)}`).toBe(color);
          seen.set(key, color);
        }
      }
    }
    // Every value was met; false is warm and true cool, class labels take the colour map's.
    expect(seen.get('indoor=false')).toBe(BOOLEAN_COLORS.false);
    expect(seen.get('indoor=true')).toBe(BOOLEAN_COLORS.true);
    expect(seen.get('label=dog')).toBe(colorMap.dog);
    expect(seen.get('label=cat')).toBe(colorMap.cat);
    expect(seen.has('split=train') && seen.has('split=val')).toBe(true);
  });

  it('leaves out points whose colour value is missing when asked to', async () => {
    const id = await fixture();
    // s6 and s7 have vectors; s7 has no weight.
    await uploadFeature(id, 'line', { ...lineVectors(), s7: [7, 0, 1] });
    await points(id);
    await t.runner.drain();
    const all = await points(id, { color_by: 'weight' });
    expect(all.num_points).toBe(8);
    expect(parse(all.points).get('s7')!.key).toBe('');
    const without = await points(id, { color_by: 'weight', include_missing: false });
    expect(without.num_points).toBe(7);
    expect(parse(without.points).has('s7')).toBe(false);
    expect(without.legend).toEqual({ type: 'continuous', min: 1, max: 7 });
  });

  it("keeps the points to a subset's items, with the filter, and refuses other subsets", async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    // s7 is in the subset but has no vector.
    const subset = await admin.call(api.subsets.create, {
      params: { id },
      body: { name: 'Some', data_level: 'image', item_ids: ['s1', 's2', 's5', 's7'] },
    });
    const subset_id = subset.id;
    // A wrong subset is refused while the layout is computing, and once it is ready.
    const early = await refused(points(id, { subset_id: 'nope' }));
    expect([early.status, early.description]).toEqual([404, SUBSET_MESSAGES.notFound]);
    expect((await points(id, { subset_id })).status).toBe('computing');
    await t.runner.drain();

    const inside = await points(id, { subset_id });
    expect(inside).toMatchObject({ status: 'ready', num_points: 3, num_missing: 1 });
    expect([...parse(inside.points).keys()].sort()).toEqual(['s1', 's2', 's5']);
    // Weight 3..6 keeps s2..s5: with the subset, s2 and s5 (and none missing).
    const filtered = await points(id, {
      subset_id,
      filter: { type: 'numeric', metadata_id: 'weight', op: 'between', value: [3, 6] },
    });
    expect(filtered).toMatchObject({ num_points: 2, num_missing: 0 });
    expect([...parse(filtered.points).keys()].sort()).toEqual(['s2', 's5']);
    // The filter left the subset's own rows as they were; binary rows are the same points.
    const binary = await points(id, { subset_id, format: 'binary' });
    const rows = decodeIndices(new Uint8Array(Buffer.from(binary.binary!.rows, 'base64')));
    expect(Array.from(rows.indices).sort()).toEqual([1, 2, 5]);
    // A change to the subset shows at once; without subset_id every point is there.
    await admin.call(api.subsets.update, {
      params: { id, subsetId: subset_id },
      body: { added_item_ids: ['s3'], removed_item_ids: ['s1'] },
    });
    expect([...parse((await points(id, { subset_id })).points).keys()].sort()).toEqual([
      's2',
      's3',
      's5',
    ]);
    expect((await points(id)).num_points).toBe(7);

    const unknown = await refused(points(id, { subset_id: 'nope' }));
    expect([unknown.status, unknown.description]).toEqual([404, SUBSET_MESSAGES.notFound]);
    // Another dataset's subset is not found here.
    const { id: other } = await admin.call(api.datasets.create, {
      body: { name: 'Other', task_type: 'classification', class_names: ['cat'] },
    });
    await admin.call(api.samples.upload, {
      params: { id: other },
      body: { samples: [{ id: 's1' }] },
    });
    const foreign = await admin.call(api.subsets.create, {
      params: { id: other },
      body: { name: 'Theirs', data_level: 'image', item_ids: ['s1'] },
    });
    const elsewhere = await refused(points(id, { subset_id: foreign.id }));
    expect([elsewhere.status, elsewhere.description]).toEqual([404, SUBSET_MESSAGES.notFound]);
  });

  it('refuses a subset of another data level, computing or ready', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Boxes', task_type: 'object_detection' },
    });
    const { key } = await admin.call(api.media.upload, {
      params: { id },
      body: (await testImage(1, 'png', 100, 50)).bytes,
      contentType: 'image/png',
    });
    await admin.call(api.samples.upload, {
      params: { id },
      body: {
        samples: [0, 1, 2].map((i) => ({
          id: `s${i}`,
          image: key,
          objects: [{ id: `o${i}`, label: 'cat', bbox: [10, 10, 20, 20] }],
        })),
      },
    });
    await uploadFeature(id, 'line', { s0: [0, 1, 0], s1: [1, 0, 0], s2: [2, 1, 0] });
    const objects = await admin.call(api.subsets.create, {
      params: { id },
      body: { name: 'Objects', data_level: 'image_object', item_ids: ['s0#o0'] },
    });
    const levelFixed = [400, SUBSET_MESSAGES.levelFixed];
    const computing = await refused(points(id, { subset_id: objects.id }));
    expect([computing.status, computing.description]).toEqual(levelFixed);
    expect((await points(id)).status).toBe('computing');
    await t.runner.drain();
    expect((await points(id)).num_points).toBe(3);
    const ready = await refused(points(id, { subset_id: objects.id }));
    expect([ready.status, ready.description]).toEqual(levelFixed);
  });

  it('reports a failed computation with the product’s message and as a failed activity', async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    // Perplexity 50 needs more than 50 points; the feature has 7.
    const tsne = { method: 'TSNE', perplexity: 50 } as const;
    expect((await points(id, { dimensionality_reduction_setting: tsne })).status).toBe('computing');
    await t.runner.drain();
    const failed = await points(id, { dimensionality_reduction_setting: tsne });
    expect(failed).toMatchObject({ status: 'failed', num_points: 0 });
    expect(failed.description).toBe(EMBEDDINGS_FAILED);
    expect(failed.description?.startsWith('Failed to compute embeddings')).toBe(true);
    const jobs = await embeddingJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'FAILURE' });
    expect(jobs[0]!.error).toContain('perplexity 50');
    // Asking again does not start the same failing work again; another method works.
    expect((await points(id, { dimensionality_reduction_setting: tsne })).status).toBe('failed');
    expect(await t.runner.drain()).toBe(0);
    expect((await points(id)).status).toBe('computing');
  });
});

describe("a model's own features", () => {
  it("are offered under the model beside the dataset's, and lay out the model's vectors", async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    await uploadFeature(id, 'other', { s0: [1, 2] });
    const model = await admin.call(api.predictionSets.create, {
      params: { id },
      body: { name: 'resnet' },
    });
    const predictions_id = model.id;
    // The model's 'line' is its own vectors, three times as spread out as the dataset's.
    const uploads: [string, Record<string, number[]>][] = [
      ['line', lineVectors(3)],
      ['penultimate', { s0: [1], s1: [2] }],
    ];
    for (const [name, vectors] of uploads) {
      t.clock.advance(1000);
      await admin.call(api.features.uploadForPredictionSet, {
        params: { id, predictionSetId: predictions_id },
        body: { name, data_level: 'image', vectors },
      });
    }
    const modelSettings = () =>
      admin.call(api.embeddings.settings, {
        params: { id },
        query: { data_level: 'image', predictions_id },
      });
    // A name both have means the model's under the model.
    expect(await modelSettings()).toEqual({
      feature_names: ['other', 'line', 'penultimate'],
      predictions_feature_names: ['line', 'penultimate'],
      feature_name: 'other',
      dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    });
    expect(await settings(id)).toMatchObject({
      feature_names: ['line', 'other'],
      predictions_feature_names: [],
    });
    const put = (feature_name: string, withModel: boolean) =>
      admin.call(api.embeddings.updateSettings, {
        params: { id },
        body: {
          data_level: 'image',
          feature_name,
          dimensionality_reduction_setting: PCA,
          ...(withModel ? { predictions_id } : {}),
        },
      });
    expect((await put('penultimate', true)).feature_name).toBe('penultimate');
    expect((await modelSettings()).feature_name).toBe('penultimate');
    const notTheDatasets = await refused(put('penultimate', false));
    expect([notTheDatasets.status, notTheDatasets.description]).toEqual([
      400,
      FEATURE_NOT_AVAILABLE,
    ]);

    // The model's 'line' and the dataset's are two layouts, each of its own vectors.
    expect((await points(id, { predictions_id })).status).toBe('computing');
    expect((await points(id)).status).toBe('computing');
    await t.runner.drain();
    const jobs = await embeddingJobs();
    expect(jobs.map((job) => job.status)).toEqual(['SUCCESS', 'SUCCESS']);
    for (const [body, scale] of [
      [{ predictions_id }, 3],
      [{}, 1],
    ] as const) {
      const ready = await points(id, body);
      expect(ready).toMatchObject({ status: 'ready', feature_name: 'line', num_points: 7 });
      const byId = parse(ready.points);
      OFFSETS.forEach((_, i) =>
        expect(Math.abs(byId.get(`s${i}`)!.x)).toBeCloseTo(scale * Math.abs(i - 3), 3),
      );
    }
    // The stored settings name the model's feature: points without a feature lay it out.
    expect(await pointsOf(id, { predictions_id })).toMatchObject({
      status: 'computing',
      feature_name: 'penultimate',
      dimensionality_reduction_setting: PCA,
    });
  });
});

describe('the model embeddings migration', () => {
  it("keeps the layouts stored before it as the dataset's, and back down", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'loupe-migrate-'));
    const { database: config, drop } = await freshDatabaseConfig(dataDir);
    const database = openDatabase(config);
    const before = '20261129090000_health_checks';
    try {
      expect((await migrator(database).migrateTo(before)).error).toBeUndefined();
      const db = database.db.withTables<{ embeddings: Record<string, unknown> }>();
      await db
        .insertInto('datasets')
        .values({
          id: 'd1',
          name: 'Old',
          description: '',
          task_type: 'classification',
          class_names: '[]',
          value_names: '[]',
          iou_threshold: 0.5,
          thumbnails_enabled: 0,
          created_at: 1,
          updated_at: 1,
        } as never)
        .execute();
      const layout = {
        dataset_id: 'd1',
        data_level: 'image',
        feature_name: 'clip',
        method_key: 'PCA',
        status: 'ready',
        source_version: 7,
        job_key: null,
        error: null,
        input_hash: 'h',
        num_points: 1,
        item_ids: Buffer.from('["a"]'),
        coords: Buffer.from(new Float32Array([1, 2]).buffer),
        updated_at: 9,
      };
      await db.insertInto('embeddings').values(layout).execute();

      await migrateToLatest(database);
      const rows = await database.db.selectFrom('embeddings').selectAll().execute();
      expect(
        rows.map((r) => [r.prediction_set_id, r.feature_name, Number(r.source_version)]),
      ).toEqual([['', 'clip', 7]]);
      expect([...new Float32Array(new Uint8Array(rows[0]!.coords!).buffer)]).toEqual([1, 2]);
      // A model's feature of the same name has a layout of its own now.
      await database.db
        .insertInto('embeddings')
        .values({ ...layout, status: 'ready', prediction_set_id: 'p1' })
        .execute();

      expect((await migrator(database).migrateTo(before)).error).toBeUndefined();
      const back = await db.selectFrom('embeddings').select('feature_name').execute();
      expect(back).toEqual([{ feature_name: 'clip' }]);
    } finally {
      await database.destroy();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('embeddings of the default feature', () => {
  it('lays out uploaded images by their computed descriptor with the default UMAP', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Pictures', task_type: 'classification' },
    });
    const samples = [];
    for (let i = 0; i < 6; i++) {
      const image = await testImage(i + 1);
      const media = await admin.call(api.media.upload, {
        params: { id },
        body: image.bytes,
        contentType: 'image/png',
      });
      samples.push({ id: `p${i}`, image: media.key });
    }
    await admin.call(api.samples.upload, { params: { id }, body: { samples } });
    // Metadata and the default feature, then the health checks the pass enqueues.
    expect(await t.runner.drain()).toBe(2);
    expect(await settings(id)).toEqual({
      feature_names: ['loupe.image_descriptor'],
      predictions_feature_names: [],
      feature_name: 'loupe.image_descriptor',
      dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    });
    expect((await pointsOf(id)).status).toBe('computing');
    expect(await t.runner.drain()).toBe(1);
    const ready = await pointsOf(id);
    expect(ready).toMatchObject({ status: 'ready', num_points: 6, num_missing: 0 });
    for (const point of parse(ready.points).values()) {
      expect(Number.isFinite(point.x)).toBe(true);
      expect(Number.isFinite(point.y)).toBe(true);
    }
  });
});

describe('selection aggregate', () => {
  it('summarises numeric, boolean and string fields over the selected items', async () => {
    const id = await fixture();
    // s1, s2, s6, s7: weight 2, 3, 7, missing; indoor true, true, false, false;
    // label dog, cat, cat, dog; an unknown id is not counted.
    const aggregate = (ids: string[], props: string[]) =>
      admin.call(api.embeddings.selectionAggregate, {
        params: { id },
        body: { ids, props, data_level: 'image' },
      });
    const { weight, indoor, label } = (
      await aggregate(['s1', 's2', 's6', 's7', 'nope', 's1'], ['weight', 'indoor', 'label'])
    ).aggregated_metrics;
    if (weight?.type !== 'numeric') throw new Error('weight is numeric');
    expect(weight).toMatchObject({
      type: 'numeric',
      num_items: 4,
      num_missing: 1,
      min: 2,
      max: 7,
      median: 3,
    });
    expect(weight.mean).toBeCloseTo(4, 10);
    // Ten bins of width 0.5 from 2 to 7: 2 → bin 0, 3 → bin 2, 7 → the last bin.
    expect(weight.bins.map((b) => b.count)).toEqual([1, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(indoor).toEqual({
      type: 'bool',
      num_items: 4,
      num_missing: 0,
      num_true: 2,
      num_false: 2,
    });
    expect(label).toEqual({
      type: 'string',
      num_items: 4,
      num_missing: 0,
      values: [
        { value: 'cat', count: 2 },
        { value: 'dog', count: 2 },
      ],
      num_other: 0,
    });
    const unknown = await refused(aggregate(['s1'], ['weight', 'nope']));
    expect(unknown.status).toBe(400);
    expect(unknown.description).toContain('props[1]');
  });
});

describe('similar items', () => {
  /** 40 items with random 8-D vectors; q2 is a near-duplicate of q0 planted far from the rest. */
  async function similarFixture() {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: 'Similar', task_type: 'classification' },
    });
    const samples = Array.from({ length: 40 }, (_, i) => ({ id: `q${i}` }));
    await admin.call(api.samples.upload, { params: { id }, body: { samples } });
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const vectors: Record<string, number[]> = {};
    for (let i = 0; i < 39; i++) vectors[`q${i}`] = Array.from({ length: 8 }, random);
    vectors.q2 = vectors.q0!.map((v, j) => v * 3 + (j === 0 ? 0.01 : 0)); // q39: no vector
    await uploadFeature(id, 'emb', vectors);
    return { id, vectors };
  }

  const cosine = (a: number[], b: number[]) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    a.forEach((v, j) => {
      dot += v * b[j]!;
      na += v * v;
      nb += b[j]! * b[j]!;
    });
    return dot / Math.sqrt(na * nb);
  };

  it('ranks a planted near-duplicate first, excludes the query, and counts ignored items', async () => {
    const { id, vectors } = await similarFixture();
    const body = await similar(id, { item_ids: ['q0', 'q39'], k: 5 });
    expect(body).toMatchObject({ feature_name: 'emb', ignored: 1, approximate: false });
    expect(body.items).toHaveLength(5);
    expect(body.items[0]!.id).toBe('q2');
    expect(body.items[0]!.similarity).toBeCloseTo(cosine(vectors.q0!, vectors.q2!), 5);
    // The ranking is the brute-force one, computed here independently.
    const expected = Object.keys(vectors)
      .filter((k) => k !== 'q0')
      .map((k) => ({ id: k, similarity: cosine(vectors.q0!, vectors[k]!) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 5);
    expect(body.items.map((i) => i.id)).toEqual(expected.map((e) => e.id));
    body.items.forEach((item, i) =>
      expect(item.similarity).toBeCloseTo(expected[i]!.similarity, 5),
    );

    const excluded = await similar(id, { item_ids: ['q0'], k: 3, exclude_ids: ['q2'] });
    expect(excluded.items.map((i) => i.id)).toEqual(expected.slice(1, 4).map((e) => e.id));

    expect(await similar(id, { item_ids: ['q39'] })).toMatchObject({ items: [], ignored: 1 });

    const unknown = await refused(similar(id, { item_ids: ['q0'], feature_name: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.description).toBe(FEATURE_NOT_AVAILABLE);
  });

  it('answers exactly while the approximate index builds, then from the index, kept in the blob store', async () => {
    const { id, vectors } = await similarFixture();
    // Lower the threshold on this instance's search so 39 vectors count as "large".
    const search = (
      t.services.embeddings as unknown as {
        similarity: { annMinVectors: number; settled(): Promise<void> };
      }
    ).similarity;
    search.annMinVectors = 10;
    const ask = () => similar(id, { item_ids: ['q0'], k: 3 });
    const first = await ask();
    expect(first.approximate).toBe(false);
    expect(first.items[0]!.id).toBe('q2');
    await search.settled();
    const body = await ask();
    expect(body.approximate).toBe(true);
    expect(body.items.map((i) => i.id)).toEqual(first.items.map((i) => i.id));
    expect(body.items[0]!.similarity).toBeCloseTo(cosine(vectors.q0!, vectors.q2!), 4);
    const feature = await t.database.db
      .selectFrom('features')
      .select('updated_at')
      .where('dataset_id', '=', id)
      .executeTakeFirstOrThrow();
    const folder = `datasets/${id}/similarity/image/${createHash('sha1').update('emb').digest('hex')}`;
    expect(await t.services.blobs.head(`${folder}/${feature.updated_at}.index`)).toBeDefined();
  });
});

describe('access', () => {
  it('needs a session, a known dataset, and a license to find similar items', async () => {
    const id = await fixture();
    await uploadFeature(id, 'line', lineVectors());
    const anonymous = new Client(t.app);
    const calls = (client: Client, datasetId: string) => [
      () => settings(datasetId, client),
      () =>
        client.call(api.embeddings.points, {
          params: { id: datasetId },
          body: { data_level: 'image' },
        }),
      () =>
        client.call(api.embeddings.selectionAggregate, {
          params: { id: datasetId },
          body: { ids: ['a'], props: ['label'], data_level: 'image' },
        }),
      () =>
        client.call(api.embeddings.similarItems, {
          params: { id: datasetId },
          body: { item_ids: ['s0'], data_level: 'image' },
        }),
    ];
    for (const call of calls(anonymous, id)) expect((await refused(call())).status).toBe(401);

    const missing = '00000000-0000-4000-8000-000000000000';
    for (const call of calls(admin, missing)) expect((await refused(call())).status).toBe(404);

    // A member sees embeddings like an admin.
    const { client: member } = await addUser(t.app, admin, { email: 'ben@example.com' });
    expect((await settings(id, member)).feature_name).toBe('line');
  });

  it('refuses to find similar items without a license (403), but shows embeddings', async () => {
    const unlicensed = await startTestApp();
    try {
      const client = await setUpInstance(unlicensed.app);
      const { dataset } = await unlicensed.services.datasets.create(systemActor('test'), {
        name: 'Free',
        task_type: 'classification',
        description: '',
        class_names: [],
        value_names: [],
      } as never);
      const error = await refused(
        client.call(api.embeddings.similarItems, {
          params: { id: dataset.id },
          body: { item_ids: ['a'], data_level: 'image' },
        }),
      );
      expect(error.status).toBe(403);
      expect((await settings(dataset.id, client)).feature_names).toEqual([]);
    } finally {
      await unlicensed.close();
    }
  });
});
