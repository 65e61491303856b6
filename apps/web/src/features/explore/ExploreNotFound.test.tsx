// The Explore page names the model it explores and maps an unknown model or subset in the URL to
// the product's not-found texts.
import '../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp } from '../../test/renderApp';
import {
  api,
  dataset,
  exploreModel,
  exploreServer,
  explorePath,
  MODEL_ID,
  modelExplorePath,
} from './testData';

const model = exploreModel();
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
      [`POST ${api}/item_rows`]: () => ({
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

test("while a model's items load the page says 'Loading model', not 'Loading dataset'", async () => {
  exploreServer({
    routes: { 'GET /api/dataset/models': () => new Promise(() => undefined) },
  });
  renderApp(modelExplorePath);
  await screen.findByText('Loading model');
  expect(screen.queryByText('Loading dataset')).toBeNull();
});
