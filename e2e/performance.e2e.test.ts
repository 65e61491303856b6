// Model performance (docs/product.md journey 6, docs/model-performance.md): a detection dataset
// with two models is uploaded from Python; the Performance page's statistics are the COCO mAP that
// @loupe/metrics computes here on the same boxes; a bar of Metadata Performance over the uploaded
// `weather` opens the model's explorer on exactly that bin's items, whose performance sidebar
// shows the matching counts of the filter and then of a selection; the model overview headlines
// the same statistics.
import { api, type Dataset } from '@loupe/contracts';
import { formatByType, getMetric, matchObjects, precisionRecallF1 } from '@loupe/metrics';
import { beforeAll, expect, test } from 'vitest';
import { ExplorePage } from './pages/ExplorePage';
import { PerformancePage } from './pages/PerformancePage';
import { SelectionPerformance } from './pages/SelectionPerformance';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { cocoMap, samplesOf } from './support/expectedMetrics';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';
import {
  streetDetection,
  uploadWithPython,
  type DatasetSpec,
  type UploadedDataset,
} from './support/performanceData';

const journey = useSetUpInstance();
const STREET = streetDetection();
let session: ApiSession;
let street: UploadedDataset;
let dataset: Dataset;

beforeAll(async () => {
  session = await ApiSession.signIn(journey.server, ADMIN.email, ADMIN.password);
  await session.license();
  street = await uploadWithPython(journey.server, session, STREET);
  dataset = await session.call(api.datasets.get, { params: { id: street.datasetId } });
}, 180_000);

const title = (metric: string) => getMetric(metric)?.title ?? metric;

/** TP/FP/FN and precision/recall/F1 of a model over some images, matched at `iouThreshold`. */
function objectCounts(spec: DatasetSpec, model: string, ids: readonly string[], iou: number) {
  const totals = { tp: 0, fp: 0, fn: 0 };
  for (const sample of samplesOf(spec, ids)) {
    const prediction = spec.predictions[model]!.find((entry) => entry.id === sample.id);
    const matching = matchObjects(
      (sample.objects ?? []).map((object) => ({ label: object.label, box: object.bbox })),
      (prediction?.objects ?? []).map((object) => ({
        label: object.label,
        box: object.bbox,
        score: object.score,
      })),
      { iouThreshold: iou },
    );
    totals.tp += matching.tp;
    totals.fp += matching.fp;
    totals.fn += matching.fn;
  }
  return { ...totals, ...precisionRecallF1(totals) };
}

/** What the sidebar shows for those counts, metric id → text. */
function shownCounts(counts: ReturnType<typeof objectCounts>): Record<string, string> {
  return {
    precision: formatByType('precision', counts.precision),
    recall: formatByType('recall', counts.recall),
    f1_score: formatByType('f1_score', counts.f1),
    tp: String(counts.tp),
    fp: String(counts.fp),
    fn: String(counts.fn),
  };
}

test('statistics are the COCO numbers of the data, and a metadata bar opens exactly its items', async () => {
  const { page } = journey;
  const modelId = street.models['detector-a']!;
  await signIn(page, ADMIN.email, ADMIN.password);
  const performance = new PerformancePage(page);
  await performance.open(street.datasetId, modelId, 'detector-a');

  // Statistics: mAP of every image and of the test split, as computed here on the same boxes.
  await performance.waitForStatistics();
  const testIds = STREET.samples.filter((s) => s.split === 'test').map((s) => s.id);
  const mapAll = cocoMap(STREET, 'detector-a');
  const mapTest = cocoMap(STREET, 'detector-a', testIds);
  expect(mapAll).toBeGreaterThan(0.2);
  expect(mapAll).toBeLessThan(0.95);
  const statistics = await session.call(api.performance.statistics, {
    params: { id: street.datasetId, predictionSetId: modelId },
  });
  const served = (split: string) =>
    statistics.statistics
      .find((statistic) => statistic.metric_name === 'mAP_COCO')
      ?.values.find((value) => value.split_name === split)?.value;
  expect(served('all')).toBeCloseTo(mapAll, 9);
  expect(served('test')).toBeCloseTo(mapTest, 9);
  expect(await performance.statistic('All', title('mAP_COCO'))).toBe(
    formatByType('mAP_COCO', mapAll),
  );
  expect(await performance.statistic('test', title('mAP_COCO'))).toBe(
    formatByType('mAP_COCO', mapTest),
  );
  const objects = STREET.samples.reduce((sum, sample) => sum + (sample.objects?.length ?? 0), 0);
  expect(await performance.statistic('All', title('ground_truth_objects'))).toBe(String(objects));
  await screenshot(page, 'performance-detection-statistics');

  // Metadata Performance by the uploaded weather; the rain bar opens the model's explorer.
  await performance.chooseMetadataField('weather');
  await performance.metadataSection().scrollIntoViewIfNeeded();
  await screenshot(page, 'performance-detection-metadata');
  const rain = STREET.samples.filter((s) => s.metadata.weather === 'rain').map((s) => s.id);
  const explore = new ExplorePage(page);
  const render = await explore.afterGridRender(() => performance.clickMetadataBar('rain'));
  await page.waitForURL(
    (url) => url.pathname === `/models/datasets/${street.datasetId}/predictions/${modelId}/explore`,
  );
  await explore.expectRendered(render, rain.length);
  const shown = await explore
    .cards()
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-item-id') ?? ''));
  expect(shown.sort()).toEqual([...rain].sort());

  // The link selects every item of its result (the map highlights them): the sidebar counts
  // that selection; clearing it leaves the filter's counts at the dataset's IoU
  // threshold; then a selection of two.
  const sidebar = new SelectionPerformance(page);
  const rainCounts = shownCounts(objectCounts(STREET, 'detector-a', rain, dataset.iou_threshold));
  const linked = await sidebar.expectScope(`${rain.length} selected items`, rain.length);
  expect(linked.metrics).toMatchObject(rainCounts);
  const counter = page.getByTestId('selection-counter');
  await counter.getByRole('button').click();
  await counter.waitFor({ state: 'detached' });
  const filtered = await sidebar.expectScope('Items matching the filter', rain.length);
  expect(filtered.itemsUsed).toBe(rain.length);
  expect(filtered.metrics).toMatchObject(rainCounts);
  const [first, second] = await explore.firstCardIds(2);
  await explore.cards().nth(0).click();
  await explore
    .cards()
    .nth(1)
    .click({ modifiers: ['Shift'] });
  await page.getByTestId('selection-counter').filter({ hasText: '2 selected' }).waitFor();
  const selected = await sidebar.expectScope('2 selected items', 2);
  expect(selected.itemsUsed).toBe(2);
  expect(selected.metrics).toMatchObject(
    shownCounts(objectCounts(STREET, 'detector-a', [first!, second!], dataset.iou_threshold)),
  );
  await screenshot(page, 'performance-detection-explore-bin');
});

test("each model's overview headlines its statistics over all splits", async () => {
  const page = await journey.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  const objects = STREET.samples.reduce((sum, sample) => sum + (sample.objects?.length ?? 0), 0);
  for (const model of ['detector-a', 'detector-b']) {
    const modelId = street.models[model]!;
    await page.goto(`/models/datasets/${street.datasetId}/predictions/${modelId}/overview`);
    await page.getByTestId('model-name').filter({ hasText: model }).waitFor();
    const headline = (metric: string) =>
      page.getByTestId(`headline-${metric}`).locator('.ant-statistic-content');
    await headline('mAP_COCO').waitFor({ timeout: 120_000 });
    expect(await headline('mAP_COCO').textContent()).toBe(
      formatByType('mAP_COCO', cocoMap(STREET, model)),
    );
    expect(await headline('ground_truth_objects').textContent()).toBe(String(objects));
    const all = STREET.samples.map((sample) => sample.id);
    const counts = objectCounts(STREET, model, all, dataset.iou_threshold);
    expect(await headline('recall').textContent()).toBe(formatByType('recall', counts.recall));
  }
});
