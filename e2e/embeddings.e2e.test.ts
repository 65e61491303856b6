// Journeys over the embeddings of a demo dataset: the default map's points become ready, the
// Similar items page (opened for a selection, subset id 'selection') ranks the items most like a
// few chosen ones. The Explore page journeys over the map are in embeddings-split.e2e.test.ts.
import { api } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { ApiSession } from './support/api';
import { readyPoints } from './support/embeddings';
import { screenshot } from './support/browser';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;

test('a demo dataset gets an embeddings map, and similar items of a selection are ranked', async () => {
  const { page, server } = journey;
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.license();
  const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  const shapes = datasets.find((dataset) => dataset.name === 'Demo · Shapes')!;

  const settings = await session.call(api.embeddings.settings, {
    params: { id: shapes.id },
    query: { data_level: 'image' },
  });
  expect(settings.feature_names.length).toBeGreaterThan(0);
  const points = await readyPoints(session, shapes.id);
  expect(points.status).toBe('ready');
  expect(points.points?.length).toBe(points.num_points);
  expect(points.legend?.type).toBe('categorical');
  const ids = points.points!.slice(0, 3).map((line) => line.split('|')[0]!);

  await signIn(
    page,
    ADMIN.email,
    ADMIN.password,
    `/datasets/${shapes.id}/subsets/selection/similar?sample_ids=${ids.map(encodeURIComponent).join(',')}`,
  );
  await page.getByRole('heading', { name: 'Similar items' }).waitFor();
  await page.getByText('Find Similar Settings').waitFor();
  await page.getByRole('button', { name: /Back to Explore/ }).waitFor();
  const cards = page.getByTestId('similar-card');
  await cards.first().waitFor({ timeout: 60_000 });
  const scores = (await cards.getByText(/^Similarity /).allTextContents()).map((text) =>
    Number(text.replace('Similarity ', '')),
  );
  expect(scores.length).toBeGreaterThan(0);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  // The query items themselves are not among the answers.
  const answered = await cards.evaluateAll((nodes) =>
    nodes.map((node) => node.getAttribute('data-item-id')),
  );
  expect(answered).toHaveLength(scores.length);
  for (const id of ids) expect(answered).not.toContain(id);
  expect(await page.getByTestId('similar-query-item').count()).toBe(3);
  await screenshot(page, 'similar-items');
});
