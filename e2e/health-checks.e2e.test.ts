// Health checks (issue 19, docs/health-checks.md, journey 5 of docs/product.md): a classification
// dataset is uploaded from Python with two images repeated in another split and one nearly black
// image; after the metadata pass the checks compute on their own. The list shows the groups in
// their order with the duplicate checks failed; the duplicate check's page shows the four copies
// with the later copy of each pair already in the 'Delete' group; deleting them goes through the
// pending changes, the version history records it, and the check passes once recomputed. The dark
// image is ignored from its check's page, which then passes with the item listed as ignored.
// Screenshots in a light and a dark theme.
import { api, CHECK_GROUPS, type ChecksListResponse } from '@loupe/contracts';
import { beforeAll, expect, test } from 'vitest';
import { HealthChecksList } from './pages/HealthChecksPages';
import { ApiSession } from './support/api';
import { screenshot } from './support/browser';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';
import {
  uploadWithPython,
  type DatasetSpec,
  type UploadedDataset,
} from './support/performanceData';

const journey = useSetUpInstance();
let session: ApiSession;
let uploaded: UploadedDataset;

const CLASSES = ['car', 'person', 'bicycle'];
const COLORS: [number, number, number][] = [
  [200, 40, 40],
  [40, 40, 200],
  [40, 160, 60],
];

/** Twelve distinct scenes, copies of scenes 1 and 5 in the other split, and a black frame. */
function spec(): DatasetSpec {
  const samples: DatasetSpec['samples'] = [];
  for (let i = 0; i < 12; i++)
    samples.push({
      id: `scene-${String(i).padStart(2, '0')}.png`,
      split: i % 4 === 3 ? 'test' : 'train',
      label: CLASSES[i % 3]!,
      metadata: {},
      picture: {
        width: 48,
        height: 32,
        background: [60 + 15 * i, 200 - 12 * i, 40 + 9 * i],
        rects: [{ box: [4 + 3 * i, 4 + (i % 5) * 2, 14, 12], color: COLORS[i % 3]! }],
      },
    });
  for (const [copy, of] of [
    ['copy-of-01.png', 1],
    ['copy-of-05.png', 5],
  ] as const)
    samples.push({ ...samples[of]!, id: copy, split: 'test' });
  samples.push({
    id: 'night.png',
    split: 'train',
    label: 'car',
    metadata: {},
    picture: {
      width: 48,
      height: 32,
      background: [2, 2, 3],
      rects: [{ box: [10, 10, 8, 6], color: [6, 5, 5] }],
    },
  });
  return {
    name: 'street-health',
    task_type: 'classification',
    class_names: CLASSES,
    samples,
    predictions: {},
  };
}

async function checks(): Promise<ChecksListResponse> {
  return session.call(api.healthChecks.list, {
    params: { id: uploaded.datasetId },
    query: {},
  });
}

/** The checks list once `checkId` has the status `type` (the job runs after the metadata pass). */
async function until(checkId: string, type: string): Promise<ChecksListResponse> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const list = await checks();
    if (list.checks.find((c) => c.id === checkId)?.status.type === type) return list;
    if (Date.now() > deadline)
      throw new Error(
        `${checkId} is not ${type}: ${JSON.stringify(list.checks.map((c) => [c.id, c.status.type]))}`,
      );
    await new Promise((wake) => setTimeout(wake, 500));
  }
}

beforeAll(async () => {
  session = await ApiSession.signIn(journey.server, ADMIN.email, ADMIN.password);
  await session.license();
  uploaded = await uploadWithPython(journey.server, session, spec());
  await until('duplicate.image', 'failed_check');
}, 240_000);

test('a failed duplicate check: evidence, delete the copies through the pending changes, and it passes', async () => {
  const { page } = journey;
  await signIn(page, ADMIN.email, ADMIN.password);
  const list = new HealthChecksList(page);
  await list.open(uploaded.datasetId);
  // Groups in the catalogue's order (only those with checks for an image classification dataset).
  const groups = await list.groups();
  expect(groups).toEqual(CHECK_GROUPS.filter((g) => groups.includes(g)));
  expect(groups[0]).toBe('Data Leakage & Duplicates');
  await expect.poll(() => list.row('duplicate.image').textContent()).toContain('Failed');
  expect(await list.row('duplicate_leaked.image').textContent()).toContain('Failed');
  await screenshot(page, 'health-checks-list');

  const check = await list.openCheck('duplicate.image', 'Duplicate images');
  await check.items().nth(3).waitFor();
  // Four copies in two groups; the later copy of each pair is in the 'Delete' group.
  const shown = await check.itemGroups();
  expect(Object.keys(shown).sort()).toEqual(
    ['copy-of-01.png', 'copy-of-05.png', 'scene-01.png', 'scene-05.png'].sort(),
  );
  expect(
    Object.entries(shown)
      .filter(([, group]) => group === 'delete')
      .map(([id]) => id)
      .sort(),
  ).toEqual(['copy-of-01.png', 'copy-of-05.png']);
  expect(await check.applyButton().textContent()).toBe('Delete');
  await screenshot(page, 'health-check-duplicates');

  await check.applyCard(true);
  await check.applyPending(2);
  await check.untilPassed();
  await expect.poll(() => check.passedView().textContent()).toContain('No problems found');
  expect(await check.passedView().textContent()).toContain('13 items have been checked');
  await screenshot(page, 'health-check-passed');

  // The deletion is in the version history, and the copies are gone from the dataset.
  const { items } = await session.call(api.explore.items, {
    params: { id: uploaded.datasetId },
    body: { data_level: 'image', item_ids: ['copy-of-01.png', 'scene-01.png'] },
  });
  expect(items.map((i) => i.id)).toEqual(['scene-01.png']);
  const leaked = await until('duplicate_leaked.image', 'passed_check');
  expect(leaked.summary.num_failed).toBeLessThan(
    (await checks()).checks.filter((c) => c.status.type !== 'disabled_check').length,
  );
});

test('ignore an item from a check: it passes and lists the item as ignored', async () => {
  const { page } = journey;
  await until('dark.image', 'failed_check');
  const list = new HealthChecksList(page);
  await list.open(uploaded.datasetId);
  const check = await list.openCheck('dark.image', 'Too dark images');
  await check.items().first().waitFor();
  expect(Object.keys(await check.itemGroups())).toEqual(['night.png']);
  await check.chooseGroup('Ignore');
  await check.toggleItem('night.png');
  expect(await check.applyButton().textContent()).toBe('Ignore');
  await check.applyCard(false);
  await check.untilPassed();
  await page.getByRole('switch', { name: 'Show ignored items' }).click();
  await page.getByTestId('ignored-list').locator('[data-item-id="night.png"]').waitFor();
  const after = await checks();
  const dark = after.checks.find((c) => c.id === 'dark.image')!;
  expect(dark.status.type).toBe('passed_check');
  if (dark.status.type === 'passed_check')
    expect(dark.status.checked_items_summary?.num_items_ignored).toBe(1);
});

test('the check pages in a dark theme', async () => {
  const page = await journey.newPage({ theme: 'darkBlue' });
  await signIn(page, ADMIN.email, ADMIN.password);
  const list = new HealthChecksList(page);
  await list.open(uploaded.datasetId);
  await screenshot(page, 'health-checks-list-dark');
  await list.openCheck('near_duplicate.image', 'Near-duplicate images');
  await screenshot(page, 'health-check-dark');
});
