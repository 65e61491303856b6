// The explorer in a comparison of two models, as a user meets it from a link of the comparison
// page: every request carries the comparison, the banner names both models, and the cards and
// the viewer draw model A's and model B's predictions side by side (boxes, tags, transcripts).
import '../../../test/setup';
import type {
  ComparisonContext,
  Dataset,
  ExploreItem,
  ExploreObject,
  ItemPrediction,
  MetadataFieldInfo,
  PredictionSet,
} from '@loupe/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { renderApp } from '../../../test/renderApp';
import {
  api,
  DATASET_ID,
  dataset,
  exploreModel,
  exploreServer,
  FIELDS,
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
const compareParam = (context: unknown = CONTEXT) =>
  `compare=${encodeURIComponent(JSON.stringify(context))}`;
/** Model B's explorer (the route's model is B). */
const modelBExplorePath = modelExplorePath.replace(MODEL_ID, MODEL_B_ID);

const MODELS: PredictionSet[] = [
  exploreModel(),
  { ...exploreModel(), id: MODEL_B_ID, name: 'DETR r50' } as PredictionSet,
];

const COMPARED: MetadataFieldInfo[] = [
  {
    id: 'comparison.category',
    name: 'comparison.category',
    label: 'Comparison category',
    description: '',
    group: 'Comparison',
    source: 'computed',
    state: 'available',
    type: 'string',
  },
  {
    id: 'comparison.delta',
    name: 'comparison.delta',
    label: 'Comparison delta',
    description: '',
    group: 'Comparison',
    source: 'computed',
    state: 'available',
    type: 'numeric',
  },
];

const predicted = (id: string, label: string, score: number): ExploreObject => ({
  id,
  label,
  type: 'pred',
  score,
  coords: [0.2, 0.2, 0.6, 0.6],
});
const prediction = (change: Partial<ItemPrediction>): ItemPrediction => ({
  label: null,
  score: null,
  probabilities: null,
  values: null,
  transcript: null,
  mask_src: null,
  ...change,
});

/** An item of `own`'s explorer: its predicted object is `own`'s, the compared one the other's. */
function detectionItem(row: number, own: string): ExploreItem {
  const base = item(row);
  const ownA = own === MODEL_ID;
  const a = predicted(`pred:a-${row}`, 'car', 0.9);
  const b = predicted(`pred:b-${row}`, 'person', 0.4);
  return {
    ...base,
    metadata: {
      ...base.metadata,
      'comparison.category': 'model_a_is_better',
      'comparison.delta': -0.5,
    },
    objects: [...base.objects, ownA ? a : b],
    compared_prediction: {
      predictions_id: ownA ? MODEL_B_ID : MODEL_ID,
      prediction: null,
      objects: [ownA ? b : a],
    },
  };
}

function serve({
  own = MODEL_ID,
  task = 'object_detection',
  makeItem = (row: number) => detectionItem(row, own),
}: {
  own?: string;
  task?: Dataset['task_type'];
  makeItem?: (row: number) => ExploreItem;
} = {}) {
  return exploreServer({
    count: 3,
    routes: {
      [`GET ${api}`]: () => ({ body: dataset({ task_type: task }) }),
      'GET /api/dataset/models': () => ({ body: MODELS }),
      // With the comparison's query fields, metadata info holds the comparison's fields.
      [`GET ${api}/metadata_info`]: () => ({ body: { metadata_config: [...FIELDS, ...COMPARED] } }),
      [`POST ${api}/items`]: (call) => {
        const body = call.body as { rows?: number[]; item_ids?: string[] };
        const rows = body.rows ?? (body.item_ids ?? []).map((id) => Number(/\d+/.exec(id)![0]));
        return { body: { version: 7, items: rows.map(makeItem) } };
      },
    },
  });
}

async function gridWith(count: number) {
  await waitFor(
    () =>
      expect(screen.getByTestId('explore-grid').getAttribute('data-rendered-cards')).toBe(
        String(count),
      ),
    { timeout: 15_000 },
  );
}
const cards = () => screen.getAllByTestId('item-card');

beforeEach(() => {
  // happy-dom lays nothing out: give the viewer's image stage a size, so its boxes are drawn.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'image-stage' ? 800 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'image-stage' ? 600 : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

test('every explore request carries the comparison; metadata info as its query fields', async () => {
  const { calls, fetchMock } = serve();
  renderApp(`${modelExplorePath}?${compareParam()}`);
  await gridWith(3);
  const expected = {
    predictions_id_a: MODEL_ID,
    predictions_id_b: MODEL_B_ID,
    split: 'test',
    metric: 'f1',
  };
  const bodies = (path: string) =>
    calls.filter((call) => call.path === `${api}/${path}`).map((call) => call.body);
  expect(bodies('item_rows').length).toBeGreaterThan(0);
  for (const body of [...bodies('item_rows'), ...bodies('items')]) {
    expect(body).toMatchObject({ predictions_id: MODEL_ID, comparison: expected });
  }
  const metadataUrls = fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://loupe.test'))
    .filter((url) => url.pathname === `${api}/metadata_info`);
  expect(metadataUrls.length).toBeGreaterThan(0);
  for (const url of metadataUrls) {
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      predictions_id: MODEL_ID,
      comparison_a: MODEL_ID,
      comparison_b: MODEL_B_ID,
      comparison_split: 'test',
      comparison_metric: 'f1',
    });
  }
});

test('the banner names both models and the one shown; leaving the comparison drops it', async () => {
  const { calls } = serve();
  const view = renderApp(`${modelExplorePath}?level=image&${compareParam()}`);
  const banner = await screen.findByTestId('compare-banner');
  await waitFor(() => expect(banner.textContent).toContain('YOLO v8'));
  expect(banner.textContent).toContain('DETR r50');
  expect(within(banner).getByTestId('compare-shown').textContent).toBe(
    'Showing the items of Model A (YOLO v8)',
  );
  expect(within(banner).getByTestId('compare-details').textContent).toBe(
    'Split: test · Metric: f1',
  );
  const colorA = within(banner).getByTestId('compared-legend-A').dataset.color;
  const colorB = within(banner).getByTestId('compared-legend-B').dataset.color;
  expect(colorA).toBeTruthy();
  expect(colorA).not.toBe(colorB);
  expect(
    within(banner)
      .getByRole('link', { name: /Back to comparison/ })
      .getAttribute('href'),
  ).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/compare/${MODEL_B_ID}`);

  await gridWith(3);
  const before = calls.length;
  fireEvent.click(within(banner).getByRole('button', { name: /Leave comparison/ }));
  await waitFor(() => expect(screen.queryByTestId('compare-banner')).toBeNull());
  expect(view.location()).not.toContain('compare=');
  expect(view.location()).toContain('level=image');
  await gridWith(3);
  await waitFor(() =>
    expect(calls.slice(before).some((call) => call.path === `${api}/item_rows`)).toBe(true),
  );
  for (const call of calls.slice(before).filter((c) => c.path === `${api}/item_rows`)) {
    expect(call.body).not.toHaveProperty('comparison');
  }
});

test.each([
  ['unreadable', encodeURIComponent('{"predictions_id_a":1}')],
  [
    'of two other models',
    compareParam({ ...CONTEXT, predictions_id_a: MODEL_B_ID, predictions_id_b: DATASET_ID }),
  ],
])('with a comparison %s, the explorer is as always', async (_, param) => {
  const { calls } = serve();
  renderApp(`${modelExplorePath}?compare=${param.replace(/^compare=/, '')}`);
  await gridWith(3);
  expect(screen.queryByTestId('compare-banner')).toBeNull();
  for (const call of calls.filter((c) => c.path === `${api}/item_rows`)) {
    expect(call.body).not.toHaveProperty('comparison');
  }
});

test("a card draws model A's and model B's boxes dashed in two colours, ground truth as before", async () => {
  serve();
  renderApp(`${modelExplorePath}?${compareParam()}`);
  await gridWith(3);
  const card = cards()[0]!;
  fireEvent.load(within(card).getByRole('img', { name: 'img-0' }));
  const shapes = card.querySelectorAll<SVGGElement>('g[data-object-type]');
  const byModel = (key: string) => [...shapes].filter((shape) => shape.dataset.model === key);
  expect([...shapes].filter((shape) => shape.dataset.objectType === 'gt')).toHaveLength(1);
  expect(byModel('A')).toHaveLength(1);
  expect(byModel('B')).toHaveLength(1);
  const dash = (shape: SVGGElement) =>
    shape.querySelector('rect')!.getAttribute('stroke-dasharray');
  expect(dash(byModel('A')[0]!)).toBeTruthy();
  expect(dash(byModel('B')[0]!)).toBeTruthy();
  expect(dash(byModel('A')[0]!)).not.toBe(dash(byModel('B')[0]!));
  const colorA = byModel('A')[0]!.dataset.color;
  expect(colorA).toBe(screen.getByTestId('compared-legend-A').dataset.color);
  expect(byModel('B')[0]!.dataset.color).toBe(
    screen.getByTestId('compared-legend-B').dataset.color,
  );
  expect(colorA).not.toBe(byModel('B')[0]!.dataset.color);
});

test('the comparison fields show on cards like any other field (cards=…)', async () => {
  serve();
  const cardsParam = encodeURIComponent(
    JSON.stringify(['comparison.category', 'comparison.delta']),
  );
  renderApp(`${modelExplorePath}?cards=${cardsParam}&${compareParam()}`);
  await gridWith(3);
  const card = cards()[0]!;
  expect(within(card).getByTestId('card-value-comparison.category').textContent).toBe(
    'Comparison category:model_a_is_better',
  );
  expect(within(card).getByTestId('card-value-comparison.delta').textContent).toBe(
    'Comparison delta:-0.500',
  );
});

test("the viewer draws both models' boxes with 'A:' and 'B:' chips and a legend", async () => {
  serve();
  renderApp(`${modelExplorePath}?item=img-0&${compareParam()}`);
  const legend = await screen.findByTestId('viewer-compared', undefined, { timeout: 15_000 });
  expect(within(legend).getByTestId('compared-legend-A').textContent).toContain('Model A');
  expect(within(legend).getByTestId('compared-legend-B').textContent).toContain('Model B');
  fireEvent.load(await screen.findByTestId('viewer-image'));
  await waitFor(() => expect(screen.getAllByTestId('object-box')).toHaveLength(3));
  const boxes = screen.getAllByTestId('object-box');
  const boxA = boxes.find((box) => box.dataset.model === 'A')!;
  const boxB = boxes.find((box) => box.dataset.model === 'B')!;
  expect(boxA.style.border).toContain('dashed');
  expect(boxB.style.border).toContain('dashed');
  expect(boxA.dataset.color).not.toBe(boxB.dataset.color);
  expect(boxes.find((box) => box.dataset.objectType === 'gt')!.style.border).toContain('solid');
  const chips = screen.getAllByTestId('object-label').map((chip) => chip.textContent);
  expect(chips).toEqual(expect.arrayContaining(['car', 'A: car 0.90', 'B: person 0.40']));
  const sidebar = screen.getByTestId('viewer-sidebar');
  expect(within(sidebar).getByTestId('object-group-Model A predictions')).toBeTruthy();
  expect(within(sidebar).getByTestId('object-group-Model B predictions')).toBeTruthy();
});

function classificationItem(row: number, own: string): ExploreItem {
  const a = prediction({ label: 'cat', score: 0.91 });
  const b = prediction({ label: 'dog', score: 0.55 });
  const ownA = own === MODEL_ID;
  return {
    ...item(row),
    objects: [],
    prediction: ownA ? a : b,
    compared_prediction: {
      predictions_id: ownA ? MODEL_B_ID : MODEL_ID,
      prediction: ownA ? b : a,
      objects: [],
    },
  };
}

test("in model B's explorer, cards and the viewer tag each model's label and score, A first", async () => {
  serve({
    own: MODEL_B_ID,
    task: 'classification',
    makeItem: (row) => classificationItem(row, MODEL_B_ID),
  });
  renderApp(`${modelBExplorePath}?${compareParam()}`);
  const banner = await screen.findByTestId('compare-banner');
  await waitFor(() =>
    expect(within(banner).getByTestId('compare-shown').textContent).toBe(
      'Showing the items of Model B (DETR r50)',
    ),
  );
  await gridWith(3);
  const card = cards()[0]!;
  expect(within(card).getByTestId('compared-prediction-A').textContent).toBe('A: cat 0.91');
  expect(within(card).getByTestId('compared-prediction-B').textContent).toBe('B: dog 0.55');

  fireEvent.doubleClick(card);
  const compared = await screen.findByTestId('viewer-compared', undefined, { timeout: 15_000 });
  expect(within(compared).getByTestId('compared-prediction-A').textContent).toBe('A: cat 0.91');
  expect(within(compared).getByTestId('compared-prediction-B').textContent).toBe('B: dog 0.55');
  const sidebar = screen.getByTestId('viewer-sidebar');
  expect(within(sidebar).getByTestId('sidebar-prediction-A').textContent).toBe('cat 0.91');
  expect(within(sidebar).getByTestId('sidebar-prediction-B').textContent).toBe('dog 0.55');
});

test('speech recognition: the viewer aligns both transcripts with their word errors', async () => {
  const speech = (row: number): ExploreItem => ({
    ...item(row),
    data_level: 'audio',
    media_type: 'audio',
    src: `/api/media/${row}.wav`,
    spectrogram_src: null,
    width: null,
    height: null,
    duration: 3.2,
    objects: [],
    transcript: 'the cat sat on the mat',
    prediction: prediction({ transcript: 'the cat sit on mat' }),
    compared_prediction: {
      predictions_id: MODEL_B_ID,
      prediction: prediction({ transcript: 'the cat sat on the mat' }),
      objects: [],
    },
  });
  serve({ task: 'automatic_speech_recognition', makeItem: speech });
  renderApp(`${modelExplorePath}?level=audio&item=img-0&${compareParam()}`);
  const a = await screen.findByTestId('compared-transcript-A', undefined, { timeout: 15_000 });
  const b = screen.getByTestId('compared-transcript-B');
  expect(a.textContent).toContain('YOLO v8');
  expect(b.textContent).toContain('DETR r50');
  const types = (block: HTMLElement) =>
    within(block)
      .getAllByTestId('word-error-type')
      .map((type) => type.textContent)
      .join('');
  expect(types(a)).toBe('--S-D-');
  expect(types(b)).toBe('------');
  // B's transcript sits under A's.
  expect(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});
