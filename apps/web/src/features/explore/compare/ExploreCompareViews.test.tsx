// The explorer's sidebar and map in a comparison of two models: the selection-performance sidebar
// and the embeddings map send the comparison with their filter (whose per-item comparison
// fields only the comparison's table has); a selection of ids needs none, and outside a
// comparison nothing is sent.
import '../../../test/setup';
import type {
  ComparisonContext,
  EmbeddingPointsRequest,
  Filter,
  ItemsSummaryRequest,
  ItemsSummaryResponse,
  PredictionSet,
} from '@loupe/contracts';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, expect, test } from 'vitest';
import { readyPoints, scatters, settings } from '../../embeddings/testing';
import { renderApp } from '../../../test/renderApp';
import { planSummary } from '../performance/selectionPerformanceRules';
import {
  api,
  DATASET_ID,
  exploreModel,
  exploreServer,
  item,
  MODEL_ID,
  modelExplorePath,
} from '../testData';

const MODEL_B_ID = '1b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8';
const CONTEXT: ComparisonContext = {
  predictions_id_a: MODEL_ID,
  predictions_id_b: MODEL_B_ID,
  split: 'test',
  metric: 'f1',
  regression_value_name: null,
};
const EXPECTED = {
  predictions_id_a: MODEL_ID,
  predictions_id_b: MODEL_B_ID,
  split: 'test',
  metric: 'f1',
};
const FILTER: Filter = {
  type: 'string',
  metadata_id: 'comparison.category',
  op: 'in',
  value: ['model_a_is_better'],
};
const MODELS: PredictionSet[] = [
  exploreModel(),
  { ...exploreModel(), id: MODEL_B_ID, name: 'DETR r50' } as PredictionSet,
];
const summaryPath = `/api/datasets/${DATASET_ID}/predictions/${MODEL_ID}/performance/items_summary`;
const SUMMARY: ItemsSummaryResponse = {
  num_items: 3,
  num_items_used: 3,
  iou_threshold: 0.5,
  metrics: [{ metric_name: 'precision', value: 0.5 }],
};

beforeEach(() => {
  scatters.length = 0;
});

function serve() {
  return exploreServer({
    count: 3,
    routes: {
      'GET /api/dataset/models': () => ({ body: MODELS }),
      [`POST ${summaryPath}`]: () => ({ body: SUMMARY }),
      [`GET ${api}/embeddings/settings`]: () => ({ body: settings() }),
      [`POST ${api}/embeddings/points`]: () => ({
        body: readyPoints(
          [0, 1, 2].map((row) => item(row).id),
          {},
          7,
        ),
      }),
    },
  });
}

const url = (params: Record<string, string>) =>
  `${modelExplorePath}?${new URLSearchParams({ view: 'split', ...params }).toString()}`;

test(
  'in a comparison, the sidebar and the map send the comparison with the filter',
  { timeout: 120_000 },
  async () => {
    const { calls } = serve();
    renderApp(url({ filter: JSON.stringify(FILTER), compare: JSON.stringify(CONTEXT) }));
    const canvas = await screen.findByTestId('embeddings-canvas', {}, { timeout: 30_000 });
    await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).toBe('3'));
    await screen.findByTestId('selection-metric-precision', {}, { timeout: 15_000 });
    const bodies = <T,>(path: string) =>
      calls.filter((call) => call.path === path).map((call) => call.body as T);
    const summaries = bodies<ItemsSummaryRequest>(summaryPath);
    expect(summaries.length).toBeGreaterThan(0);
    for (const body of summaries)
      expect(body).toMatchObject({ data_level: 'image', filter: FILTER, comparison: EXPECTED });
    const points = bodies<EmbeddingPointsRequest>(`${api}/embeddings/points`);
    expect(points.length).toBeGreaterThan(0);
    for (const body of points)
      expect(body).toMatchObject({
        predictions_id: MODEL_ID,
        filter: FILTER,
        comparison: EXPECTED,
      });
  },
);

test('outside a comparison, neither sends one', { timeout: 120_000 }, async () => {
  const { calls } = serve();
  renderApp(url({}));
  const canvas = await screen.findByTestId('embeddings-canvas', {}, { timeout: 30_000 });
  await waitFor(() => expect(canvas.getAttribute('data-drawn-points')).toBe('3'));
  await screen.findByTestId('selection-metric-precision', {}, { timeout: 15_000 });
  const sent = calls.filter(
    (call) => call.path === summaryPath || call.path === `${api}/embeddings/points`,
  );
  expect(sent.length).toBeGreaterThan(1);
  for (const call of sent) expect(call.body).not.toHaveProperty('comparison');
});

test("the sidebar's request carries the comparison with a filter or subset, not with a selection", () => {
  const common = { dataLevel: 'image' as const, comparison: EXPECTED, subsetId: null };
  const ofFilter = planSummary({ ...common, filter: FILTER, selectedCount: 0, selectedIds: null });
  expect(ofFilter).toMatchObject({
    kind: 'ask',
    scope: 'filter',
    request: { body: { filter: FILTER, comparison: EXPECTED } },
  });
  // The comparison is part of the query's identity: another comparison asks again.
  if (ofFilter.kind !== 'ask') throw new Error('asked');
  expect(ofFilter.request.identity).toMatchObject({ comparison: EXPECTED });
  const ofSelection = planSummary({
    ...common,
    filter: FILTER,
    selectedCount: 2,
    selectedIds: ['a', 'b'],
  });
  if (ofSelection.kind !== 'ask') throw new Error('asked');
  expect(ofSelection.request.body).toEqual({ data_level: 'image', item_ids: ['a', 'b'] });
});
