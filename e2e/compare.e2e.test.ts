// Compare two models (issue 18, docs/model-comparison.md): two detection models of one dataset
// are uploaded from Python; from model A's Performance page the Compare link and the Compare with
// menu open the comparison with model B; Overall names the better model with both scores, which
// are the API's and the COCO mAP @loupe/metrics computes here on the same boxes; a class where B
// is better opens B's explorer in the comparison on exactly the items of the class's explore link,
// with both models' boxes dashed on the cards and both models' predictions in the viewer; a
// subcategory of the ground-truth objects opens exactly its items. Screenshots in a light and a
// dark theme.
import {
  api,
  OBJECT_SUBCATEGORIES,
  OBJECT_SUBCATEGORY_CATEGORY,
  OBJECT_SUBCATEGORY_EXPLORE,
  type ComparisonExploreConfig,
  type ComparisonRequest,
  type ComparisonResponse,
} from '@loupe/contracts';
import { getMetric } from '@loupe/metrics';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { ComparisonPage, type ModelSide } from './pages/ComparisonPage';
import { ExplorePage, type GridRender } from './pages/ExplorePage';
import { ItemViewer } from './pages/ItemViewer';
import { PerformancePage } from './pages/PerformancePage';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { cocoMap } from './support/expectedMetrics';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';
import { streetDetection, uploadWithPython, type UploadedDataset } from './support/performanceData';

const journey = useSetUpInstance();
const STREET = streetDetection('street-compare');
const MODEL_A = 'detector-a';
const MODEL_B = 'detector-b';
let session: ApiSession;
let street: UploadedDataset;

beforeAll(async () => {
  session = await ApiSession.signIn(journey.server, ADMIN.email, ADMIN.password);
  await session.license();
  street = await uploadWithPython(journey.server, session, STREET);
}, 180_000);

const idOf = (model: string) => street.models[model]!;

/** A score as the page's gauges show a percentage metric: times 100, two decimals, '%'. */
function gaugeText(metric: string, value: number): string {
  expect(getMetric(metric)?.type).toBe('percentage');
  return `${(value * 100).toFixed(2)}%`;
}

/** The comparison as the API answers it once computed (the page has already waited for it). */
async function comparison(body: ComparisonRequest): Promise<ComparisonResponse> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await session.call(api.comparison.compare, {
      params: { id: street.datasetId },
      body,
    });
    if (answer.status !== 'computing') return answer;
    if (Date.now() > deadline) throw new Error('The comparison did not finish');
    await new Promise((wake) => setTimeout(wake, 250));
  }
}

/** The ids of an explore link's items, asked as the explorer asks (comparison context and all). */
async function linkItemIds(config: ComparisonExploreConfig, side: ModelSide): Promise<string[]> {
  const answer = await session.call(api.explore.itemIds, {
    params: { id: street.datasetId },
    body: {
      data_level: config.data_level,
      filter: config.filter,
      sort: config.sort_by ? [{ name: config.sort_by, direction: 'ascending' }] : [],
      include_missing: true,
      predictions_id:
        side === 'model_a' ? config.context.predictions_id_a : config.context.predictions_id_b,
      comparison: config.context,
      format: 'ids',
    },
  });
  return answer.item_ids ?? [];
}

/**
 * Clicks an explore link and checks the explorer it opens: the model's route with the link's
 * level and comparison context, exactly the link's items (the total, and the drawn cards in the
 * result's order), and the compare banner naming the model shown. Answers the item ids.
 */
async function openExploreLink(
  page: Page,
  click: () => Promise<unknown>,
  config: ComparisonExploreConfig,
  side: ModelSide,
): Promise<string[]> {
  const explore = new ExplorePage(page);
  const modelId =
    side === 'model_a' ? config.context.predictions_id_a : config.context.predictions_id_b;
  const render: GridRender = await explore.afterGridRender(click);
  await page.waitForURL(
    (url) => url.pathname === `/models/datasets/${street.datasetId}/predictions/${modelId}/explore`,
  );
  const url = new URL(page.url());
  expect(url.searchParams.get('level')).toBe(config.data_level);
  expect(JSON.parse(url.searchParams.get('compare') ?? 'null')).toEqual(config.context);
  expect(JSON.parse(url.searchParams.get('filter') ?? 'null')).toEqual(config.filter);

  const expected = await linkItemIds(config, side);
  expect(expected.length).toBeGreaterThan(0);
  await explore.expectRendered(render, expected.length);
  const shown = await explore
    .cards()
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-item-id') ?? ''));
  expect(shown).toHaveLength(render.cards);
  // The grid draws the first rows of the result (and more as it scrolls), in the result's order.
  expect(shown).toEqual(expected.slice(0, shown.length));

  const banner = page.getByTestId('compare-banner');
  await banner.waitFor();
  expect(await banner.getAttribute('data-shown-model')).toBe(side === 'model_a' ? 'A' : 'B');
  expect(await page.getByTestId('compare-shown').textContent()).toBe(
    `Showing the items of Model ${side === 'model_a' ? 'A' : 'B'} (${side === 'model_a' ? MODEL_A : MODEL_B})`,
  );
  return expected;
}

/**
 * Waits until every drawn card shows both models' predicted boxes (the shapes wait for the
 * picture), dashed, in the colours of the banner's legend; answers the colours.
 */
async function expectBothModelsDrawn(page: Page): Promise<{ A: string; B: string }> {
  const colorOf = async (key: 'A' | 'B') =>
    (await page
      .getByTestId('compare-banner')
      .getByTestId(`compared-legend-${key}`)
      .getAttribute('data-color')) ?? '';
  const colors = { A: await colorOf('A'), B: await colorOf('B') };
  expect(colors.A).not.toBe('');
  expect(colors.B).not.toBe('');
  expect(colors.A).not.toBe(colors.B);
  await page.waitForFunction(
    () => {
      const cards = Array.from(document.querySelectorAll('[data-testid="item-card"]'));
      return (
        cards.length > 0 &&
        cards.every(
          (card) =>
            card.querySelector('g[data-model="A"] rect[data-testid="card-box"]') &&
            card.querySelector('g[data-model="B"] rect[data-testid="card-box"]'),
        )
      );
    },
    undefined,
    { timeout: 30_000 },
  );
  const marks = await page.getByTestId('item-card').evaluateAll((cards) =>
    cards.flatMap((card) =>
      Array.from(card.querySelectorAll('g[data-model]')).map((group) => ({
        model: group.getAttribute('data-model'),
        color: group.getAttribute('data-color'),
        dash: group.querySelector('rect')?.getAttribute('stroke-dasharray') ?? null,
      })),
    ),
  );
  for (const mark of marks) {
    expect(mark.color).toBe(colors[mark.model as 'A' | 'B']);
    expect(mark.dash).not.toBeNull();
  }
  return colors;
}

test('Overall names the better model with the COCO scores, and a class where B is better opens exactly its items with both models drawn', async () => {
  const { page } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);
  const performance = new PerformancePage(page);
  await performance.open(street.datasetId, idOf(MODEL_A), MODEL_A);

  // Compare from the model's navigation, then model B from the Compare with menu.
  await shell.nav.getByText('Compare', { exact: true }).click();
  await page.waitForURL(
    (url) =>
      url.pathname === `/models/datasets/${street.datasetId}/predictions/${idOf(MODEL_A)}/compare`,
  );
  const compare = new ComparisonPage(page);
  await compare.expectPicker();
  await compare.chooseModelB(MODEL_B);
  await page.waitForURL(
    (url) =>
      url.pathname ===
      `/models/datasets/${street.datasetId}/predictions/${idOf(MODEL_A)}/compare/${idOf(MODEL_B)}`,
  );
  await compare.waitForComparison();

  // Overall: the API's numbers, which are the COCO mAP of each model on the same boxes.
  const served = await comparison({
    predictions_id_a: idOf(MODEL_A),
    predictions_id_b: idOf(MODEL_B),
    split: 'all',
    metric: 'mAP_COCO',
  });
  expect(served.status).toBe('ready');
  const overall = served.overall.mAP_COCO!;
  const mapA = cocoMap(STREET, MODEL_A);
  const mapB = cocoMap(STREET, MODEL_B);
  expect(mapA).not.toBeCloseTo(mapB, 3);
  expect(overall.model_a).toBeCloseTo(mapA, 9);
  expect(overall.model_b).toBeCloseTo(mapB, 9);
  const better = mapA > mapB ? 'Model A' : 'Model B';
  expect(overall.better).toBe(mapA > mapB ? 'model_a_is_better' : 'model_b_is_better');
  expect(await compare.headline()).toBe(`${better} is better`);
  expect(await compare.score('model_a')).toBe(gaugeText('mAP_COCO', overall.model_a!));
  expect(await compare.score('model_b')).toBe(gaugeText('mAP_COCO', overall.model_b!));
  expect(await compare.score('model_a')).toBe(gaugeText('mAP_COCO', mapA));
  expect(await compare.score('model_b')).toBe(gaugeText('mAP_COCO', mapB));
  await screenshot(page, 'compare-detection-top-lightBlue');

  // detector-b finds every car exactly: 'car' is in model B's list of the per-class breakdown.
  const perClass = served.per_class!;
  const car = perClass.model_b_is_better.find((entry) => entry.entity === 'car');
  expect(car?.explore_config).toBeTruthy();
  await compare.section('Ground-truth objects').scrollIntoViewIfNeeded();
  await screenshot(page, 'compare-detection-objects-lightBlue');
  await compare.section('Predicted objects').scrollIntoViewIfNeeded();
  await screenshot(page, 'compare-detection-predicted-lightBlue');
  const popover = await compare.openClassPopover('model_b_is_better', 'car');
  await screenshot(page, 'compare-detection-per-class-lightBlue');
  const carIds = await openExploreLink(
    page,
    () => compare.exploreLink(popover, 'model_b').click(),
    car!.explore_config!,
    'model_b',
  );
  // The class's items: the ground-truth cars and model B's predicted cars (one per car).
  const cars = STREET.samples.flatMap((sample) =>
    (sample.objects ?? []).filter((object) => object.label === 'car'),
  );
  expect(carIds).toHaveLength(2 * cars.length);
  await expectBothModelsDrawn(page);
  await screenshot(page, 'compare-detection-explore-lightBlue');

  // The viewer lists both models' predictions of the item's frame.
  const viewer = new ItemViewer(page);
  const explore = new ExplorePage(page);
  const itemId = await viewer.openByDoubleClick(explore.cards().first());
  const [item] = (
    await session.call(api.explore.items, {
      params: { id: street.datasetId },
      body: {
        data_level: 'image_object',
        item_ids: [itemId],
        predictions_id: idOf(MODEL_B),
        comparison: car!.explore_config!.context,
      },
    })
  ).items;
  const frame = STREET.samples.find((sample) => sample.id === item!.sample_id);
  expect(frame).toBeDefined();
  const predictionsOf = (model: string) =>
    STREET.predictions[model]!.find((entry) => entry.id === frame!.id)?.objects ?? [];
  for (const [key, model] of [
    ['A', MODEL_A],
    ['B', MODEL_B],
  ] as const) {
    // Listed in the sidebar under the model's group, and drawn as the model's boxes.
    const count = predictionsOf(model).length;
    expect(count).toBeGreaterThan(0);
    const group = viewer.dialog().getByTestId(`object-group-Model ${key} predictions`);
    await group.waitFor();
    expect(await group.locator('strong').first().textContent()).toBe(
      `Model ${key} predictions (${count})`,
    );
    expect(await group.getByTestId('object-row').count()).toBe(count);
    expect(
      await viewer.dialog().locator(`[data-testid="object-box"][data-model="${key}"]`).count(),
    ).toBe(count);
  }
  // An object has no sample-level prediction of either model: no 'A: …' / 'B: …' tags.
  expect(await viewer.dialog().getByTestId('compared-predictions').count()).toBe(0);
  await screenshot(page, 'compare-detection-viewer-lightBlue');
});

test('a subcategory of the ground-truth objects opens exactly its items', async () => {
  const page = await journey.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  const served = await comparison({
    predictions_id_a: idOf(MODEL_A),
    predictions_id_b: idOf(MODEL_B),
    split: 'all',
    metric: 'mAP_COCO',
  });
  const section = served.per_object_gt!;
  // The first subcategory with items, in the order the page lists them.
  const subcategory = OBJECT_SUBCATEGORIES.find(
    (id) => (section.subcategories[id]?.num_items ?? 0) > 0,
  )!;
  const result = section.subcategories[subcategory]!;
  expect(result.explore_config).toBeTruthy();
  const side: ModelSide =
    OBJECT_SUBCATEGORY_EXPLORE[subcategory] === 'model_b' ? 'model_b' : 'model_a';

  await page.goto(
    `/models/datasets/${street.datasetId}/predictions/${idOf(MODEL_A)}/compare/${idOf(MODEL_B)}`,
  );
  const compare = new ComparisonPage(page);
  await compare.waitForComparison();
  const card = await compare.subcategoryCard(
    'Ground-truth objects',
    OBJECT_SUBCATEGORY_CATEGORY[subcategory],
    subcategory,
  );
  const ids = await openExploreLink(
    page,
    () => compare.exploreLink(card, side).click(),
    result.explore_config!,
    side,
  );
  // Every item is a ground-truth object, as many as the subcategory counts.
  expect(ids).toHaveLength(result.num_items);
  expect(ids.every((id) => !id.startsWith('pred:'))).toBe(true);
});

test('the comparison page and the explorer in a comparison, in a dark theme', async () => {
  const page = await journey.newPage({ theme: 'darkBlue', colorScheme: 'dark' });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(
    `/models/datasets/${street.datasetId}/predictions/${idOf(MODEL_A)}/compare/${idOf(MODEL_B)}`,
  );
  const compare = new ComparisonPage(page);
  await compare.waitForComparison();
  await screenshot(page, 'compare-detection-top-darkBlue');
  await compare.section('Ground-truth objects').scrollIntoViewIfNeeded();
  await screenshot(page, 'compare-detection-objects-darkBlue');
  const popover = await compare.openClassPopover('model_b_is_better', 'car');
  await screenshot(page, 'compare-detection-per-class-darkBlue');
  const explore = new ExplorePage(page);
  await explore.afterGridRender(() => compare.exploreLink(popover, 'model_b').click());
  await page.getByTestId('compare-banner').waitFor();
  await expectBothModelsDrawn(page);
  await screenshot(page, 'compare-detection-explore-darkBlue');
  await new ItemViewer(page).openByDoubleClick(explore.cards().first());
  await page.getByTestId('object-group-Model B predictions').waitFor();
  await screenshot(page, 'compare-detection-viewer-darkBlue');
});
