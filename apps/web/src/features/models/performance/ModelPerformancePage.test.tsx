// The performance page as a signed-in user meets it, through the real route table and a fake API:
// banners, the split selector, Statistics and Overall Performance with their metric choosers,
// the IoU threshold of object tasks and the fine-grained chart.
import '../../../test/setup';
import type { PrimaryKey, TaskType } from '@loupe/contracts';
import { metricTitle, PERFORMANCE_METRICS } from '@loupe/metrics';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { findDialog } from '../../../test/findDialog';
import { renderApp } from '../../../test/renderApp';
import { drawnCharts } from './charts/FakeEChart';
import {
  computingStatistics,
  finegrained,
  overall,
  page,
  perf,
  performanceServer,
  statistics,
} from './testData';

vi.mock('./charts/EChart', () => import('./charts/FakeEChart'));

const section = (name: string) => screen.findByRole('region', { name });
const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);

test('while the report is computed a banner shows progress; the page fills in once it is ready', async () => {
  let calls = 0;
  performanceServer({
    routes: {
      [`GET ${perf}/statistics`]: () => {
        calls += 1;
        return { body: calls === 1 ? computingStatistics(0.25) : statistics() };
      },
    },
  });
  renderApp(page);
  expect(
    await screen.findByText(
      'Performance is being computed. This page updates by itself when it is ready.',
    ),
  ).toBeTruthy();
  expect(screen.getByLabelText('25% done')).toBeTruthy();
  // Polled again after 2 s: the statistics arrive and the banner goes.
  const table = await screen.findByTestId('statistics-table', {}, { timeout: 6000 });
  expect(within(table).getAllByRole('row')[1]!.textContent).toBe('All90.00%87.65%100');
  expect(
    screen.queryByText(
      'Performance is being computed. This page updates by itself when it is ready.',
    ),
  ).toBeNull();
  expect(calls).toBe(2);
});

test('missing predictions are announced with the counts', async () => {
  performanceServer({
    routes: {
      [`GET ${perf}/statistics`]: () => ({ body: statistics({ num_missing: 7 }) }),
    },
  });
  renderApp(page);
  expect(
    await screen.findByText(
      '7 of 100 items have no prediction from this model; they count as wrong predictions for classification and as missed objects for detection, and are left out otherwise.',
    ),
  ).toBeTruthy();
});

test('statistics: one row per split, the task default metrics, values by type', async () => {
  performanceServer();
  renderApp(page);
  const table = await screen.findByTestId('statistics-table');
  // Classification's 'count' is the number of ground-truth annotations, and says so.
  expect(headers(table)).toEqual(['Split', 'Accuracy', 'Macro F1', 'Ground-truth annotations']);
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((row) => row.textContent)).toEqual([
    'All90.00%87.65%100',
    'train95.00%90.00%70',
    'test80.00%70.00%30',
  ]);
});

test('the statistics metric chooser is kept in local storage and read back', async () => {
  performanceServer();
  const first = renderApp(page);
  const table = await screen.findByTestId('statistics-table');
  const user = userEvent.setup({ delay: null });
  await user.click(
    within(await section('Statistics')).getByRole('button', {
      name: 'Statistics: Choose the metrics to show',
    }),
  );
  const choices = await screen.findByRole('group', { name: 'Statistics Metrics' });
  await user.click(within(choices).getByLabelText('EER'));
  await user.click(within(choices).getByLabelText('Ground-truth annotations'));
  await waitFor(() => expect(headers(table)).toEqual(['Split', 'Accuracy', 'Macro F1', 'EER']));
  expect(
    JSON.parse(window.localStorage.getItem('dataset-classification-model-statistics')!),
  ).toEqual(['accuracy', 'macro_f1_score', 'equal_error_rate']);
  first.unmount();

  renderApp(page);
  const again = await screen.findByTestId('statistics-table');
  expect(headers(again)).toEqual(['Split', 'Accuracy', 'Macro F1', 'EER']);
});

test('the last chosen metric cannot be unchecked', async () => {
  window.localStorage.setItem('dataset-classification-model-overall', JSON.stringify(['count']));
  performanceServer();
  renderApp(page);
  const table = await screen.findByTestId('overall-table');
  expect(headers(table)).toEqual(['Class', 'Ground-truth annotations']);
  const user = userEvent.setup({ delay: null });
  await user.click(
    within(await section('Overall Performance')).getByRole('button', {
      name: 'Overall Performance: Choose the metrics to show',
    }),
  );
  const choices = await screen.findByRole('group', { name: 'Overall Performance Metrics' });
  expect(
    (within(choices).getByLabelText('Ground-truth annotations') as HTMLInputElement).disabled,
  ).toBe(true);
});

test('overall: rows of the chosen split; the split selector changes every section', async () => {
  performanceServer();
  renderApp(page);
  const table = await screen.findByTestId('overall-table');
  expect(headers(table)).toEqual(['Class', 'F1', 'Ground-truth annotations']);
  const cells = () =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
  expect(cells()).toEqual(['cat90.00%60', 'dog70.00%40']);
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('combobox', { name: 'Split' }));
  await user.click(await screen.findByTitle('test'));
  await waitFor(() => expect(cells()).toEqual(['cat50.00%20']));
});

test('speech recognition pages the word table by 10', async () => {
  const rows = Array.from({ length: 23 }, (_, i) => ({
    key: `word${String(i).padStart(2, '0')}`,
    values: { count: 10 + i, word_insertion: 1, word_deletion: 2, word_substitution: 3 },
  }));
  performanceServer({
    task: 'automatic_speech_recognition',
    datasetChange: { class_names: [], splits: [] },
    routes: {
      [`GET ${perf}/overall`]: () => ({
        body: overall({
          primary_key: 'word',
          metrics: ['count', 'word_insertion', 'word_deletion', 'word_substitution'],
          splits: [{ split_name: 'all', rows }],
        }),
      }),
      [`GET ${perf}/statistics`]: () => ({
        body: statistics({ splits: ['all'], statistics: [] }),
      }),
    },
  });
  renderApp(page);
  const table = await screen.findByTestId('overall-table');
  expect(headers(table)).toEqual([
    'Word',
    'Word count',
    'Word insertion',
    'Word deletion',
    'Word substitution',
  ]);
  expect(within(table).getAllByRole('row')).toHaveLength(11);
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByTitle('3'));
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
});

test('load failures name the section', async () => {
  const failure = () => ({
    status: 500,
    body: { description: 'Database is gone.', retriable: false },
  });
  performanceServer({
    routes: {
      [`GET ${perf}/statistics`]: failure,
      [`GET ${perf}/overall`]: failure,
    },
  });
  renderApp(page);
  expect(await screen.findByText('Statistics information failed to load')).toBeTruthy();
  expect(await screen.findByText('Model overall performance failed to load.')).toBeTruthy();
});

test('object tasks show the IoU threshold; changing it asks first, naming the models affected', async () => {
  const { calls } = performanceServer({
    task: 'object_detection',
    datasetChange: { class_names: ['car'], predictions_count: 3 },
    routes: {
      [`PUT /api/datasets/${'5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b'}/iou_threshold`]: () => ({
        body: { iou_threshold: 0.7 },
      }),
    },
  });
  renderApp(page);
  const input = await screen.findByRole('spinbutton', { name: 'IoU threshold' });
  await waitFor(() => expect((input as HTMLInputElement).value).toBe('0.5'));
  const user = userEvent.setup({ delay: null });
  await user.clear(input);
  await user.type(input, '0.7');
  await user.click(screen.getByRole('button', { name: 'Apply' }));
  const dialog = await findDialog('Change the IoU threshold?');
  expect(dialog.textContent).toContain('3 models');
  await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
  // The saved threshold makes the performance stale: it is asked again.
  await waitFor(() =>
    expect(calls.filter((call) => call.path === `${perf}/statistics`).length).toBeGreaterThan(1),
  );
});

test('classification has no IoU threshold', async () => {
  performanceServer();
  renderApp(page);
  await screen.findByTestId('statistics-table');
  expect(screen.queryByRole('spinbutton', { name: 'IoU threshold' })).toBeNull();
});

test('fine-grained: the chosen split is drawn, the first 5 classes visible', async () => {
  const classes = Array.from({ length: 7 }, (_, i) => `class-${i}`);
  performanceServer({
    routes: {
      [`GET ${perf}/finegrained`]: () => ({
        body: finegrained({
          split_performance: [
            {
              split_name: 'all',
              performance: classes.map((name) => ({
                name,
                values: [
                  [0, 1],
                  [1, 0.5],
                ],
                summary: { metric_name: 'precision', value: 0.5 },
              })),
              average_performance: null,
            },
          ],
        }),
      }),
    },
  });
  drawnCharts.length = 0;
  renderApp(page);
  const chart = await within(await section('Fine-grained Performance')).findByRole('img', {
    name: 'Fine-grained Performance',
  });
  expect(within(chart).getByRole('button', { name: 'class-0 0' })).toBeTruthy();
  const option = drawnCharts.at(-1)!.option;
  const legend = option.legend as { selected: Record<string, boolean> };
  expect(Object.values(legend.selected)).toEqual([true, true, true, true, true, false, false]);
});

test('fine-grained: computing shows progress', async () => {
  performanceServer({
    routes: {
      [`GET ${perf}/finegrained`]: () => ({
        body: finegrained({ status: 'computing', progress: 0.5, split_performance: [] }),
      }),
    },
  });
  renderApp(page);
  const region = await section('Fine-grained Performance');
  expect(await within(region).findByText('Computing…')).toBeTruthy();
});

test('a failed computation is told once, with its reason', async () => {
  performanceServer({
    routes: {
      [`GET ${perf}/statistics`]: () => ({
        body: statistics({ status: 'failed', error: 'Out of memory.', statistics: [] }),
      }),
      [`GET ${perf}/overall`]: () => ({
        body: overall({ status: 'failed', error: 'Out of memory.', splits: [] }),
      }),
    },
  });
  renderApp(page);
  expect(await screen.findByText('Computing the performance failed.')).toBeTruthy();
  expect(screen.getByText('Out of memory.')).toBeTruthy();
  const table = await section('Overall Performance');
  expect(within(table).getByText('No data to show')).toBeTruthy();
});

const TASKS: [TaskType, PrimaryKey][] = [
  ['classification', 'class'],
  ['audio_classification', 'class'],
  ['regression', 'value_name'],
  ['object_detection', 'class'],
  ['instance_segmentation', 'class'],
  ['semantic_segmentation', 'class'],
  ['automatic_speech_recognition', 'word'],
];

test.each(TASKS)('%s: the task default metrics head both tables', async (task, primaryKey) => {
  const { statistics: stats, overall: table } = PERFORMANCE_METRICS[task];
  const every = (ids: readonly string[]) => Object.fromEntries(ids.map((id) => [id, 0.5]));
  performanceServer({
    task,
    routes: {
      [`GET ${perf}/statistics`]: () => ({
        body: statistics({
          statistics: [...stats.visible, ...stats.hidden].map((metric_name) => ({
            metric_name,
            values: ['all', 'train', 'test'].map((split_name) => ({ split_name, value: 0.5 })),
          })),
        }),
      }),
      [`GET ${perf}/overall`]: () => ({
        body: overall({
          primary_key: primaryKey,
          metrics: [...table.visible, ...table.hidden],
          splits: [
            {
              split_name: 'all',
              rows: [{ key: 'k', values: every([...table.visible, ...table.hidden]) }],
            },
          ],
        }),
      }),
    },
  });
  renderApp(page);
  const statisticsTable = await screen.findByTestId('statistics-table');
  const title = (id: string) => metricTitle(task, id);
  expect(headers(statisticsTable)).toEqual(['Split', ...stats.visible.map(title)]);
  const overallTable = await screen.findByTestId('overall-table');
  expect(headers(overallTable)).toEqual([
    { class: 'Class', word: 'Word', value_name: 'Value name' }[primaryKey],
    ...table.visible.map(title),
  ]);
  if (task === 'object_detection' || task === 'instance_segmentation') {
    expect(await screen.findByRole('spinbutton', { name: 'IoU threshold' })).toBeTruthy();
  } else {
    expect(screen.queryByRole('spinbutton', { name: 'IoU threshold' })).toBeNull();
  }
});
