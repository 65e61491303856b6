// Metadata Performance on the performance page: the request it makes, one metric at least, the
// bar click that opens the explorer on the bin's items, object tasks' levels and IoU note, and
// the load failure.
import '../../../../test/setup';
import type { MetadataPerformanceRequest } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { renderApp } from '../../../../test/renderApp';
import { drawnCharts } from '../charts/FakeEChart';
import { base, exploreConfig, field, page, perf, performanceServer } from '../testData';

vi.mock('../charts/EChart', () => import('../charts/FakeEChart'));

const region = () => screen.findByRole('region', { name: 'Metadata Performance' });
const metadataCalls = (calls: { method: string; path: string; body: unknown }[]) =>
  calls
    .filter((call) => call.method === 'POST' && call.path === `${perf}/metadata`)
    .map((call) => call.body as MetadataPerformanceRequest);

test('asks for the first uploaded field with the task first slice metric, and draws its bins', async () => {
  const { calls } = performanceServer({
    routes: {
      [`GET ${base}/metadata_info`]: () => ({
        body: {
          metadata_config: [
            field('split', { source: 'builtin' }),
            field('label', { source: 'builtin' }),
            field('weather'),
          ],
        },
      }),
    },
  });
  drawnCharts.length = 0;
  renderApp(page);
  const section = await region();
  const chart = await within(section).findByRole('img', { name: 'Metadata Performance' });
  expect(within(chart).getByRole('button', { name: 'Accuracy sunny' })).toBeTruthy();
  expect(within(chart).getByRole('button', { name: 'Accuracy rain' })).toBeTruthy();
  expect(metadataCalls(calls)[0]).toEqual({
    data_level: 'image',
    metadata_id: 'weather',
    metrics: ['accuracy'],
  });
});

test('removing every metric says "You must select at least one metric" and asks nothing', async () => {
  const { calls } = performanceServer();
  renderApp(page);
  const section = await region();
  await within(section).findByRole('img', { name: 'Metadata Performance' });
  const before = metadataCalls(calls).length;
  const user = userEvent.setup({ delay: null });
  const metrics = within(section).getByRole('combobox', { name: 'Metrics' });
  await user.click(metrics);
  // Deselect the only chosen metric in the open list.
  const options = await screen.findAllByTitle('Accuracy');
  await user.click(options.at(-1)!);
  expect(await within(section).findByText('You must select at least one metric')).toBeTruthy();
  expect(within(section).queryByRole('img', { name: 'Metadata Performance' })).toBeNull();
  expect(metadataCalls(calls).length).toBe(before);

  // Choosing one again draws the chart with it.
  await user.click(await screen.findByTitle('Macro F1'));
  await waitFor(() => expect(metadataCalls(calls).at(-1)?.metrics).toEqual(['macro_f1_score']));
  expect(await within(section).findByRole('img', { name: 'Metadata Performance' })).toBeTruthy();
  expect(within(section).queryByText('You must select at least one metric')).toBeNull();
});

test('clicking a bar opens the model explorer on the bin items', async () => {
  performanceServer();
  const view = renderApp(page);
  const section = await region();
  const chart = await within(section).findByRole('img', { name: 'Metadata Performance' });
  const user = userEvent.setup({ delay: null });
  await user.click(within(chart).getByRole('button', { name: 'Accuracy rain' }));
  await waitFor(() => expect(view.location()).toContain('/explore?'));
  const url = new URL(view.location(), 'http://loupe.test');
  expect(url.pathname).toBe(page.replace('/performance', '/explore'));
  expect(url.searchParams.get('level')).toBe('image');
  expect(JSON.parse(url.searchParams.get('filter')!)).toEqual(exploreConfig('rain').filter);
  expect(JSON.parse(url.searchParams.get('cards')!)).toEqual([
    'similarity_score',
    'label',
    'split',
    'weather',
  ]);
});

test('object tasks choose the data level and note the IoU of 0.5', async () => {
  const { calls } = performanceServer({
    task: 'object_detection',
    datasetChange: { class_names: ['car'] },
  });
  renderApp(page);
  const section = await region();
  await within(section).findByRole('img', { name: 'Metadata Performance' });
  expect(
    within(section).getByLabelText(
      'Detection metrics of metadata bins match objects at an IoU threshold of 0.5.',
    ),
  ).toBeTruthy();
  expect(metadataCalls(calls)[0]?.metrics).toEqual(['precision']);
  const user = userEvent.setup({ delay: null });
  await user.click(within(section).getByText('Objects'));
  await waitFor(() => expect(metadataCalls(calls).at(-1)?.data_level).toBe('image_object'));
});

test('a level without fields says so', async () => {
  performanceServer({
    routes: { [`GET ${base}/metadata_info`]: () => ({ body: { metadata_config: [] } }) },
  });
  renderApp(page);
  expect(
    await within(await region()).findByText('This data level has no metadata fields yet.'),
  ).toBeTruthy();
});

test('a failed load says "Metadata performance failed to load."', async () => {
  performanceServer({
    routes: {
      [`POST ${perf}/metadata`]: () => ({
        status: 500,
        body: { description: 'Boom.', retriable: false },
      }),
    },
  });
  renderApp(page);
  expect(
    await within(await region()).findByText('Metadata performance failed to load.'),
  ).toBeTruthy();
});
