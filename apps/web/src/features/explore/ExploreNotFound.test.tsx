// The Explore page names the model it explores and maps an unknown model or subset in the URL to
// the product's not-found texts.
import '../../test/setup';
import type { PredictionSet } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { api, DATASET_ID, dataset, exploreServer, explorePath } from './testData';

const MODEL_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const modelExplorePath = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/explore`;
const model = {
  id: MODEL_ID,
  name: 'YOLO v8',
  added_at: Date.UTC(2026, 10, 1),
  num_missing: 0,
  num_present: 12,
  dataset: dataset(),
} as PredictionSet;
const breadcrumb = () => document.querySelector('.ant-breadcrumb')?.textContent ?? '';

test("a model's explore page names the dataset and the model in breadcrumbs and nav", async () => {
  exploreServer({ routes: { 'GET /api/dataset/models': () => ({ body: [model] }) } });
  renderApp(modelExplorePath);
  await waitFor(() => expect(breadcrumb()).toBe(`Models/${dataset().name}/YOLO v8/Explore`));
  const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
  await within(nav).findByText('Model: YOLO v8');
});

test('an unknown model says "Model not found", not "Dataset not found"', async () => {
  exploreServer({
    routes: {
      'GET /api/dataset/models': () => ({ body: [] }),
      [`GET ${api}/metadata_info`]: () => ({
        status: 404,
        body: { description: `No prediction set with id ${MODEL_ID}.`, retriable: false },
      }),
    },
  });
  renderApp(modelExplorePath);
  await screen.findByText('Model not found');
  expect(screen.queryByText('Dataset not found')).toBeNull();
  expect(document.body.textContent).not.toContain(MODEL_ID);
});

test('an unknown subset says "Subset not found", not that the grid failed', async () => {
  exploreServer({
    routes: {
      [`POST ${api}/item_ids`]: () => ({
        status: 404,
        body: { description: 'Subset not found', retriable: false },
      }),
    },
  });
  renderApp(`${explorePath}?subset_id=nope`);
  await screen.findByText('Subset not found');
  expect(screen.getByTestId('not-found')).toBeTruthy();
  expect(screen.queryByText('Grid failed to load')).toBeNull();
});

test('a malformed dataset id shows the not-found state without the validation message', async () => {
  exploreServer({
    routes: {
      [`GET ${api}`]: () => ({
        status: 400,
        body: { description: 'params.id: id must be a dataset id (UUID)', retriable: false },
      }),
    },
  });
  renderApp(explorePath);
  await screen.findByText('Dataset not found');
  expect(screen.getByTestId('not-found')).toBeTruthy();
  expect(document.body.textContent).not.toContain('UUID');
});
