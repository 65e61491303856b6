// Curation journeys on the demo datasets (docs/curation.md): a lasso on the embeddings map goes
// into a new subset created in the pending-changes queue, and the subset exports as COCO with
// exactly those items; in the item viewer a sample is relabelled and moved to another split, the
// version history records both, the history filter finds the sample, and a deletion of it is
// restored from the history; after 'Apply changes' deletes the open item, the viewer moves on to
// the next one without closing.
import { readFileSync } from 'node:fs';
import {
  api,
  type Dataset,
  type EmbeddingPointsResponse,
  type ExploreItem,
} from '@loupe/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, expect, test } from 'vitest';
import { CurationPanel } from './pages/CurationPanel';
import { DatasetOverview } from './pages/DatasetOverview';
import { EmbeddingsMap, fitPoints, type MapPoint } from './pages/EmbeddingsMap';
import { ExplorePage } from './pages/ExplorePage';
import { ItemViewer } from './pages/ItemViewer';
import { SubsetsPage } from './pages/SubsetsPage';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { readyPoints } from './support/embeddings';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;
let session: ApiSession;
let datasets: Dataset[];
let detectionPoints: EmbeddingPointsResponse;

// The demo datasets are generated and processed first (and the detection map computed), on a
// shared machine: the journeys start once they are ready.
beforeAll(async () => {
  session = await ApiSession.signIn(journey.server, ADMIN.email, ADMIN.password);
  await session.license();
  datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  const detection = named('Demo · Shape detection');
  detectionPoints = await readyPoints(session, detection.id, undefined, null);
}, 300_000);

function named(name: string): Dataset {
  const dataset = datasets.find((candidate) => candidate.name === name);
  if (!dataset) throw new Error(`No demo dataset named ${name}`);
  return dataset;
}

async function sampleItems(datasetId: string, ids: string[]) {
  const { items } = await session.call(api.explore.items, {
    params: { id: datasetId },
    body: { data_level: 'image', item_ids: ids },
  });
  return new Map(items.map((item) => [item.id, item]));
}

/** The ids of the points inside a rectangle of the canvas (in fractions), `margin` px in. */
async function pointsInside(
  map: EmbeddingsMap,
  points: MapPoint[],
  box: { x: number; y: number; width: number; height: number },
  from: { x: number; y: number },
  to: { x: number; y: number },
  margin: number,
): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const point of points) {
    const { x, y } = await map.screenOf(point, box);
    const fx = (x - box.x - margin) / box.width;
    const fy = (y - box.y - margin) / box.height;
    const gx = (x - box.x + margin) / box.width;
    const gy = (y - box.y + margin) / box.height;
    if (fx > from.x && gx < to.x && fy > from.y && gy < to.y) ids.add(point.id);
  }
  return ids;
}

interface CocoFile {
  images: { id: number; file_name: string }[];
  annotations: { image_id: number; category_id: number; bbox: number[] }[];
  categories: { id: number; name: string }[];
}

test('a lasso on the map goes into a new subset, which exports as COCO with exactly those items', async () => {
  const { page } = journey;
  const detection = named('Demo · Shape detection');
  const points = fitPoints(detectionPoints.points!);

  await signIn(
    page,
    ADMIN.email,
    ADMIN.password,
    `/datasets/${detection.id}/explore?view=embeddings&level=image`,
  );
  const map = new EmbeddingsMap(page);
  expect(await map.drawn(90_000)).toBe(points.length);

  // A lasso over the middle of the map selects the points inside it.
  const from = { x: 0.3, y: 0.3 };
  const to = { x: 0.7, y: 0.7 };
  const box = (await map.canvas().boundingBox())!;
  await map.lasso(from, to);
  const counter = page.getByTestId('selection-counter');
  await counter.waitFor();
  const selected = Number((await counter.textContent())!.replace(/\D/g, ''));
  expect(selected).toBeGreaterThan(0);

  // Add to subset → a new subset, named in the dialog: it is created when the queue is applied.
  const strip = page.getByTestId('embeddings-selection');
  const curation = new CurationPanel(page, strip);
  const subsetName = 'Lassoed shapes';
  await curation.addToNewSubset(subsetName);
  await curation.openQueue();
  const [description] = await curation.expectQueued(['add_to_subset']);
  expect(description).toContain(`${selected} items will be added to subset "${subsetName}"`);
  await screenshot(page, 'curation-lasso-queue');
  await curation.apply();
  // Applied: the queue is empty (its button gone) and the selection cleared.
  await page.getByTestId('pending-changes').waitFor({ state: 'detached' });
  await counter.waitFor({ state: 'detached' });

  // The subset holds exactly the lassoed items: every point well inside the lasso, and none
  // outside it (points on its edge may go either way).
  const [summary] = await session.call(api.subsets.list, { params: { id: detection.id } });
  expect(summary?.name).toBe(subsetName);
  const subset = await session.call(api.subsets.get, {
    params: { id: detection.id, subsetId: summary!.id },
  });
  const members = new Set(subset.sample_ids);
  expect(members.size).toBe(selected);
  expect(subset.data_level).toBe('image');
  for (const id of await pointsInside(map, points, box, from, to, 4)) {
    expect(members, `${id} is inside the lasso`).toContain(id);
  }
  const loose = await pointsInside(map, points, box, from, to, -4);
  for (const id of members) expect(loose, `${id} is not outside the lasso`).toContain(id);

  // Subsets table → the subset's page → Export → coco.
  const subsets = new SubsetsPage(page);
  await subsets.open(detection.id, 1);
  await subsets.expectRow(subsetName, 'Sample', selected);
  expect(await subsets.openSubset(subsetName)).toBe(subset.id);
  await subsets.expectSubset(subsetName, selected);
  await screenshot(page, 'curation-subset-page');
  const download = await subsets.export('coco');
  // <dataset>-<subset>-coco.zip, with characters unsafe in a file name replaced ('·').
  expect(download.suggestedFilename()).toBe(`Demo _ Shape detection-${subsetName}-coco.zip`);
  const zip = unzipSync(readFileSync(await download.path()));

  // One annotations file per split: together, the images are exactly the subset's samples, each
  // in its split's file, with exactly its ground-truth objects.
  const files = Object.keys(zip).filter((path) => /^annotations\/.+\.json$/.test(path));
  expect(files.length).toBeGreaterThan(0);
  const truth = await sampleItems(detection.id, subset.sample_ids);
  const exported = new Map<string, { split: string; labels: string[] }>();
  for (const path of files) {
    const split = /^annotations\/(?:instances_)?(.+)\.json$/.exec(path)![1]!;
    const coco = JSON.parse(strFromU8(zip[path]!)) as CocoFile;
    expect(coco.categories.map((category) => category.name)).toEqual(
      expect.arrayContaining(detection.class_names),
    );
    const category = new Map(coco.categories.map((entry) => [entry.id, entry.name]));
    for (const image of coco.images) {
      expect(exported.has(image.file_name), `${image.file_name} exported once`).toBe(false);
      expect(Object.keys(zip)).toContain(`images/${split}/${image.file_name}`);
      const labels = coco.annotations
        .filter((annotation) => annotation.image_id === image.id)
        .map((annotation) => category.get(annotation.category_id)!);
      exported.set(image.file_name, { split, labels });
    }
    const imageIds = new Set(coco.images.map((image) => image.id));
    for (const annotation of coco.annotations) {
      expect(imageIds).toContain(annotation.image_id);
      expect(annotation.bbox).toHaveLength(4);
    }
  }
  expect([...exported.keys()].sort()).toEqual([...subset.sample_ids].sort());
  const labelsOf = (item: ExploreItem) =>
    item.objects
      .filter((object) => object.type === 'gt')
      .map((object) => object.label)
      .sort();
  for (const [id, { split, labels }] of exported) {
    const item = truth.get(id)!;
    expect(split, id).toBe(item.split);
    expect(labels.sort(), id).toEqual(labelsOf(item));
  }
  expect([...exported.values()].some(({ labels }) => labels.length > 0)).toBe(true);
});

test('a relabelled, resplit sample is in the history, found by it, deleted and restored', async () => {
  const shapes = named('Demo · Shapes');
  const total = shapes.samples_count ?? 0;
  const page = await journey.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  const explore = new ExplorePage(page);
  const overview = new DatasetOverview(page);
  const viewer = new ItemViewer(page);
  const curation = new CurationPanel(page, page.getByTestId('viewer-sidebar'));
  await explore.expectRendered(await explore.open(`/datasets/${shapes.id}/explore`), total);

  // Open an item; queue a new label and a new split; apply both.
  const itemId = await viewer.openByDoubleClick(explore.cards().first());
  const before = (await sampleItems(shapes.id, [itemId])).get(itemId)!;
  const label = shapes.class_names.find((name) => name !== before.label)!;
  const split = shapes.splits.find((name) => name !== before.split)!;
  await curation.updateLabel(label);
  await curation.updateSplit(split);
  const described = await curation.expectQueued(['update_label', 'update_split']);
  expect(described).toEqual([
    `${itemId} will be labelled "${label}"`,
    `${itemId} will be moved to split "${split}"`,
  ]);
  await screenshot(page, 'curation-viewer-queue');
  await curation.apply();
  await curation.queue().getByText('No pending changes').waitFor();
  // The item stays open (it is still in the result), changed.
  await viewer.waitForItem(itemId);
  const after = (await sampleItems(shapes.id, [itemId])).get(itemId)!;
  expect([after.label, after.split]).toEqual([label, split]);
  await viewer.closeWithEscape();

  // The overview's Version History records both changes, by whom.
  await page.locator('.ant-breadcrumb').getByText(shapes.name).click();
  await overview.expectShown(shapes.name);
  await overview.expectHistoryRecord('Changed sample label', 1, ADMIN.name);
  await overview.expectHistoryRecord('Reassigned split', 1, ADMIN.name);
  await screenshot(page, 'curation-version-history');

  // The explorer filtered by the label record: exactly that item.
  await overview.expectStatistic('Samples', total);
  await explore.afterGridRender(() => page.getByLabel(`Samples: ${total}`).click());
  const filtered = await explore.filterByHistory('changed sample label');
  await explore.expectRendered(filtered, 1);
  expect(await explore.firstCardIds(1)).toEqual([itemId]);

  // Delete it from the viewer: the result is then empty and the viewer closes.
  await viewer.openByDoubleClick(explore.cards().first());
  await curation.delete();
  expect(await curation.expectQueued(['delete'])).toEqual([`${itemId} will be deleted`]);
  await curation.apply(1);
  await viewer.body().waitFor({ state: 'detached' });
  await page.waitForURL((url) => !url.searchParams.has('item'));
  expect((await sampleItems(shapes.id, [itemId])).has(itemId)).toBe(false);

  // The history shows the deletion; Restore (confirmed) brings the item back.
  await page.locator('.ant-breadcrumb').getByText(shapes.name).click();
  await overview.expectShown(shapes.name);
  const deletion = await overview.expectHistoryRecord('Deleted samples', 1, ADMIN.name);
  await overview.expectStatistic('Samples', total - 1);
  await overview.restore(deletion, 1);
  await overview.expectHistoryRecord('Restored samples', 1, ADMIN.name);
  await deletion.getByText('Restored', { exact: true }).waitFor();
  await overview.expectStatistic('Samples', total);
  await screenshot(page, 'curation-restored');

  // Back in the grid: every sample, and the restore record finds exactly that one.
  const all = await explore.afterGridRender(() => page.getByLabel(`Samples: ${total}`).click());
  await explore.expectRendered(all, total);
  const restored = await explore.filterByHistory('restored samples');
  await explore.expectRendered(restored, 1);
  expect(await explore.firstCardIds(1)).toEqual([itemId]);
  expect((await sampleItems(shapes.id, [itemId])).get(itemId)?.label).toBe(label);

  // The records behind the history, as the API gives them: each of the four, by the admin, and
  // the deletion marked as undone by the restore.
  const history = await session.call(api.datasets.history, { params: { id: shapes.id } });
  const byType = new Map(history.map((record) => [record.operation_type, record]));
  for (const type of [
    'sample.label:edit',
    'sample.split:edit',
    'sample:delete',
    'sample:restore',
  ] as const) {
    expect(byType.get(type), type).toMatchObject({ num_items: 1, user_name: ADMIN.name });
  }
  expect(byType.get('sample:delete')).toMatchObject({
    restorable: false,
    restored_by: byType.get('sample:restore')!.id,
  });
});

test('after Apply deletes the open item, the viewer moves on to the next one without closing', async () => {
  const coverage = named('Demo · Shape coverage');
  const total = coverage.samples_count ?? 0;
  const page = await journey.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  const explore = new ExplorePage(page);
  const viewer = new ItemViewer(page);
  const curation = new CurationPanel(page, page.getByTestId('viewer-sidebar'));
  await explore.expectRendered(await explore.open(`/datasets/${coverage.id}/explore`), total);
  const [, open, next] = await explore.firstCardIds(3);

  await viewer.record();
  await explore.cards().nth(1).dblclick();
  expect(await viewer.waitForItemAt(1)).toBe(open);
  await curation.delete();
  await curation.expectQueued(['delete']);
  await viewer.watchClosing();
  await curation.apply(1);
  // The next item takes the deleted one's place, in a viewer that stayed open.
  await viewer.waitForItem(next!);
  expect(await viewer.counter().textContent()).toBe(`2/${total - 1}`);
  expect(await viewer.closedSinceWatching()).toBe(false);
  expect((await sampleItems(coverage.id, [open!])).has(open!)).toBe(false);
});
