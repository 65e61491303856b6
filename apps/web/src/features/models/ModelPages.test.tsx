// Model pages name the dataset and the model (breadcrumbs and the nav's Model heading), and say
// 'Dataset not found' or 'Model not found' instead of the server's description.
import '../../test/setup';
import type { Dataset, PredictionSet } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const MODEL_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const dataset = {
  id: DATASET_ID,
  name: 'Street scenes',
  task_type: 'object_detection',
  predictions_count: 1,
} as Dataset;
const model = {
  id: MODEL_ID,
  name: 'YOLO v8',
  added_at: Date.UTC(2026, 10, 1),
  num_missing: 0,
  num_present: 10,
  dataset,
} as PredictionSet;

function instance(routes: Record<string, Handler> = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/datasets': () => ({ body: [dataset] }),
    [`GET /api/datasets/${DATASET_ID}`]: () => ({ body: dataset }),
    'GET /api/dataset/models': () => ({ body: [model] }),
    ...routes,
  });
}

const breadcrumb = () => document.querySelector('.ant-breadcrumb')?.textContent ?? '';
const nav = () => screen.findByRole('navigation', { name: 'Main navigation' });

test('a model page names the dataset and the model in the breadcrumbs and the nav, never ids', async () => {
  instance();
  // A page without its own content yet, so no section answers from the fake API.
  renderApp(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/workflows`);
  await waitFor(() => expect(breadcrumb()).toBe('Models/Street scenes/YOLO v8/Workflows'));
  await within(await nav()).findByText('Model: YOLO v8');
  expect(within(await nav()).getByText('Dataset: Street scenes')).toBeTruthy();
  expect(document.body.textContent).not.toContain(MODEL_ID);
  expect(document.body.textContent).not.toContain(DATASET_ID);
});

test('an unknown model says "Model not found"', async () => {
  instance({ 'GET /api/dataset/models': () => ({ body: [] }) });
  renderApp(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/overview`);
  await screen.findByText('Model not found');
  expect(screen.queryByText('Dataset not found')).toBeNull();
  expect(screen.getByRole('button', { name: /Go to home/ })).toBeTruthy();
});

test('a malformed id in the URL shows the not-found state, not the validation message', async () => {
  const invalid = {
    status: 400,
    body: { description: 'params.id: id must be a dataset id (UUID)', retriable: false },
  };
  instance({
    'GET /api/datasets/not-a-uuid': () => invalid,
    'GET /api/dataset/models': () => invalid,
  });
  const view = renderApp(`/models/datasets/not-a-uuid/predictions/${MODEL_ID}/overview`);
  await screen.findByText('Dataset not found');
  expect(document.body.textContent).not.toContain('UUID');
  expect(breadcrumb()).not.toContain('not-a-uuid');
  view.unmount();

  renderApp('/datasets/not-a-uuid/overview');
  await screen.findByText('Dataset not found');
  expect(screen.getByTestId('not-found')).toBeTruthy();
  expect(document.body.textContent).not.toContain('UUID');
});
