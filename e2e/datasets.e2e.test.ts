// Journeys over the demo datasets: the list's search and task filter, and the overview's
// settings (thumbnails off and on again, delete by typing the name).
import { expect, test } from 'vitest';
import { DatasetOverview } from './pages/DatasetOverview';
import { DatasetsList } from './pages/DatasetsList';
import { ApiSession } from './support/api';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ args: ['--demo'] });
const DEMO_DATASETS = 7;

test('the datasets list finds datasets by name and by task', async () => {
  const { page, server } = journey;
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.waitForSettledDatasets(DEMO_DATASETS);
  await signIn(page, ADMIN.email, ADMIN.password);
  const list = new DatasetsList(page);
  await list.goto();
  await list.expectCards(DEMO_DATASETS);
  const shapes = list.card('Demo · Shapes');
  await shapes.getByText('Classification').waitFor();
  await shapes.getByText(/^Updated /).waitFor();
  expect(await shapes.getByTestId('dataset-preview').count()).toBe(3);

  await list.search('shape');
  await list.expectCards(5);
  await list.filterTask('Object Detection');
  await list.expectCards(1);
  await list.card('Demo · Shape detection').waitFor();
  await list.search('chords');
  await page.getByText('No Object Detection datasets matching "chords" found').waitFor();
  await list.filterTask('All tasks');
  await list.expectCards(1);
  await list.card('Demo · Chords').waitFor();
  await list.search('');
  await list.filterTask('Audio Classification');
  await list.expectCards(1);

  await list.card('Demo · Chords').click();
  await new DatasetOverview(page).expectShown('Demo · Chords');
  // Only detection and instance segmentation have an IoU threshold; audio has thumbnails too
  // (spectrograms).
  await page.getByRole('switch', { name: 'Thumbnails' }).waitFor();
  expect(await page.getByRole('spinbutton', { name: 'IoU threshold' }).count()).toBe(0);
});

test('thumbnails can be turned off and on again, and a dataset deleted by typing its name', async () => {
  const { page, server } = journey;
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.license();
  const datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  const detection = datasets.find((dataset) => dataset.name === 'Demo · Shape detection')!;
  await page.goto(`/datasets/${detection.id}`);
  await page.waitForURL(`**/datasets/${detection.id}/overview`);
  const overview = new DatasetOverview(page);
  await overview.expectShown('Demo · Shape detection');
  await overview.expectStatistic('Ground-truth objects', detection.objects_count);
  await overview.expectStatistic('Predictions', 2);
  await overview.expectPreviews(3);
  await page.getByRole('spinbutton', { name: 'IoU threshold' }).waitFor();

  await overview.disableThumbnails();
  await overview.expectPreviews(0);
  await page.goto('/datasets');
  await new DatasetsList(page).card('Demo · Shape detection').getByText('No preview').waitFor();

  await page.goBack();
  await overview.expectShown('Demo · Shape detection');
  await overview.enableThumbnails();
  await overview.expectPreviews(3);

  await overview.deleteDataset('Demo · Shape detection');
  await page.getByText('Dataset "Demo · Shape detection" deleted successfully!').waitFor();
  await page.waitForURL('**/datasets');
  const list = new DatasetsList(page);
  await list.expectCards(DEMO_DATASETS - 1);
  expect(await list.card('Demo · Shape detection').count()).toBe(0);
});
