// The model overview as a user meets it: name, task, completeness, upload time, the dataset's
// classes, the statistics headline (computing, then ready, linking to Performance), the honest
// Suggestions sidebar, and its failure texts.
import '../../../test/setup';
import type { Dataset, PredictionSet, StatisticsResponse } from '@loupe/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer, type Handler } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';

const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const MODEL_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const overviewPath = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/overview`;
const statisticsPath = `/api/datasets/${DATASET_ID}/predictions/${MODEL_ID}/performance/statistics`;

function dataset(change: Partial<Dataset> = {}): Dataset {
  return {
    id: DATASET_ID,
    name: 'Pets',
    description: '',
    task_type: 'classification',
    issues_count: 0,
    samples_count: 40,
    views: [],
    class_names: ['cat', 'dog', 'hamster'],
    classes_count: 3,
    objects_count: 0,
    predictions_count: 1,
    updated_ts: 0,
    preview_urls: [],
    splits: ['train', 'test'],
    iou_threshold: 0.5,
    thumbnails_enabled: true,
    ...change,
  };
}

const model = (change: Partial<PredictionSet> = {}): PredictionSet => ({
  id: MODEL_ID,
  name: 'ResNet 50',
  added_at: Date.now() - 3 * 3600_000,
  num_present: 30,
  num_missing: 10,
  dataset: { id: DATASET_ID, name: 'Pets', task_type: 'classification' },
  ...change,
});

function statistics(change: Partial<StatisticsResponse> = {}): StatisticsResponse {
  const values = (all: number | null, train: number) => [
    { split_name: 'all', value: all },
    { split_name: 'train', value: train },
  ];
  return {
    status: 'ready',
    progress: 1,
    data_version: 3,
    splits: ['all', 'train', 'test'],
    num_items: 40,
    num_missing: 10,
    statistics: [
      { metric_name: 'accuracy', values: values(0.8125, 0.9) },
      { metric_name: 'macro_f1_score', values: values(null, 0.5) },
      { metric_name: 'count', values: values(40, 30) },
      { metric_name: 'macro_precision', values: values(0.7, 0.7) },
    ],
    ...change,
  };
}

function instance(routes: Record<string, Handler> = {}, data: Dataset = dataset()) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/datasets': () => ({ body: [data] }),
    [`GET /api/datasets/${DATASET_ID}`]: () => ({ body: data }),
    'GET /api/dataset/models': () => ({ body: [model()] }),
    [`GET ${statisticsPath}`]: () => ({ body: statistics() }),
    ...routes,
  });
}

const breadcrumb = () => document.querySelector('.ant-breadcrumb')?.textContent ?? '';
const headline = (metric: string) =>
  screen.getByTestId(`headline-${metric}`).querySelector('.ant-statistic-content')?.textContent;

test('the overview shows the model, its completeness, upload time and classes', async () => {
  instance();
  renderApp(overviewPath);
  expect((await screen.findByTestId('model-name')).textContent).toBe('ResNet 50');
  expect(breadcrumb()).toBe('Models/Pets/ResNet 50/Overview');
  expect(screen.getByText('Classification')).toBeTruthy();
  const completeness = screen.getByTestId('model-completeness');
  expect(within(completeness).getByText('75%')).toBeTruthy();
  expect(within(completeness).getByText('30 of 40 samples have a prediction')).toBeTruthy();
  expect(screen.getByTestId('model-uploaded').textContent).toContain('Uploaded 3 hours ago');
  expect(screen.getByText('Classes (3)')).toBeTruthy();
  const classes = screen.getByTestId('model-classes');
  expect([...classes.querySelectorAll('.ant-tag')].map((tag) => tag.textContent)).toEqual([
    'cat',
    'dog',
    'hamster',
  ]);
});

test("the headline shows the task's visible statistics over all splits and links to Performance", async () => {
  instance();
  const view = renderApp(overviewPath);
  await screen.findByTestId('headline-accuracy');
  // Classification: accuracy, macro F1 and the count are visible; macro precision is not.
  expect(headline('accuracy')).toBe('81.25%');
  expect(headline('macro_f1_score')).toBe('–');
  expect(headline('count')).toBe('40');
  // 'count' is named for what it counts in classification.
  expect(
    screen.getByTestId('headline-count').querySelector('.ant-statistic-title')?.textContent,
  ).toBe('Ground-truth annotations');
  expect(screen.queryByTestId('headline-macro_precision')).toBeNull();
  // The three cards share their row evenly.
  for (const metric of ['accuracy', 'macro_f1_score', 'count']) {
    expect(screen.getByTestId(`headline-${metric}`).closest('.ant-col')?.className).toContain(
      'ant-col-md-8',
    );
  }
  expect(
    screen.getByText(
      '10 of 40 items have no prediction from this model; they count as wrong predictions for classification and as missed objects for detection, and are left out otherwise.',
    ),
  ).toBeTruthy();
  fireEvent.click(screen.getByRole('link', { name: 'View performance' }));
  await waitFor(() =>
    expect(view.location()).toBe(
      `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/performance`,
    ),
  );
});

test('while the statistics are computing the overview says so and asks again until ready', async () => {
  let answers = 0;
  const { calls } = instance({
    [`GET ${statisticsPath}`]: () => {
      answers += 1;
      return {
        body:
          answers < 2
            ? statistics({ status: 'computing', progress: 0.4, statistics: [] })
            : statistics(),
      };
    },
  });
  renderApp(overviewPath);
  const computing = await screen.findByTestId('statistics-computing');
  expect(
    within(computing).getByText(
      'Performance is being computed. This page updates by itself when it is ready.',
    ),
  ).toBeTruthy();
  expect(within(computing).getByText('40%')).toBeTruthy();
  await screen.findByTestId('headline-accuracy', {}, { timeout: 6000 });
  expect(screen.queryByTestId('statistics-computing')).toBeNull();
  expect(calls.filter((call) => call.path === statisticsPath)).toHaveLength(2);
});

test('a failed computation and a failed load are told apart', async () => {
  instance({
    [`GET ${statisticsPath}`]: () => ({
      body: statistics({ status: 'failed', error: 'Out of memory', statistics: [] }),
    }),
  });
  const view = renderApp(overviewPath);
  await screen.findByText('Computing the performance failed.');
  expect(screen.getByText('Out of memory')).toBeTruthy();
  view.unmount();

  instance({
    [`GET ${statisticsPath}`]: () => ({
      status: 424,
      body: { description: 'The report store is unavailable.', retriable: false },
    }),
  });
  renderApp(overviewPath);
  await screen.findByText('Statistics information failed to load');
  expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
});

test('a model without predictions is not asked for statistics', async () => {
  const { calls } = instance({
    'GET /api/dataset/models': () => ({ body: [model({ num_present: 0, num_missing: 40 })] }),
  });
  renderApp(overviewPath);
  await screen.findByText('This model has no predictions yet.');
  expect(calls.some((call) => call.path === statisticsPath)).toBe(false);
});

test('the Suggestions sidebar says plainly that there are none yet', async () => {
  instance();
  renderApp(overviewPath);
  const sidebar = await screen.findByRole('complementary', { name: 'Suggestions' });
  // A sidebar on the right: it follows the main content.
  const name = screen.getByTestId('model-name');
  expect(name.compareDocumentPosition(sidebar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  for (const section of ['Improve Model', 'Improve Dataset']) {
    const region = within(sidebar).getByRole('region', { name: section });
    expect(within(region).getByText('No suggestions yet')).toBeTruthy();
  }
});

test('regression lists value names; many classes fold behind "Show all"', async () => {
  instance(
    {},
    dataset({
      task_type: 'regression',
      class_names: [],
      regression_value_names: ['age', 'height'],
    }),
  );
  const view = renderApp(overviewPath);
  await screen.findByText('Values (2)');
  view.unmount();

  const names = Array.from({ length: 45 }, (_, index) => `class-${index}`);
  instance({}, dataset({ class_names: names }));
  renderApp(overviewPath);
  const classes = await screen.findByTestId('model-classes');
  expect(classes.querySelectorAll('.ant-tag')).toHaveLength(30);
  fireEvent.click(screen.getByRole('button', { name: 'Show all 45' }));
  expect(classes.querySelectorAll('.ant-tag')).toHaveLength(45);
});

test('the model list failing says "Unable to load Model Overview"; an unknown model "Model not found"', async () => {
  instance({
    'GET /api/dataset/models': () => ({
      status: 500,
      body: { description: 'Database is locked.', retriable: false },
    }),
  });
  const view = renderApp(overviewPath);
  await screen.findByText('Unable to load Model Overview');
  view.unmount();

  instance({ 'GET /api/dataset/models': () => ({ body: [] }) });
  renderApp(overviewPath);
  await screen.findByText('Model not found');
});
