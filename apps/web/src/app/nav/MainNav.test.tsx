// The dataset and model groups of the main navigation, against a fake API.
import '../../test/setup';
import type { Dataset, PredictionSet } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { findDialog } from '../../test/findDialog';
import { renderApp } from '../../test/renderApp';

const dataset = {
  id: 'd1',
  name: 'Street scenes',
  task_type: 'object_detection',
  predictions_count: 2,
} as Dataset;
const model = (id: string, name: string) =>
  ({
    id,
    name,
    added_at: Date.UTC(2026, 10, 1),
    num_missing: 0,
    num_present: 10,
    dataset,
  }) as PredictionSet;

function instance(models: PredictionSet[]) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/datasets': () => ({ body: [{ ...dataset, predictions_count: models.length }] }),
    'GET /api/dataset/models': () => ({ body: models }),
  });
}

const nav = () => screen.findByRole('navigation', { name: 'Main navigation' });

test('no dataset chosen: neither group is shown', async () => {
  const { calls } = instance([model('p1', 'YOLO v8')]);
  renderApp('/settings/support');
  await waitFor(() => expect(calls.some((call) => call.path === '/api/datasets')).toBe(true));
  await screen.findByText('Download support bundle');
  expect(within(await nav()).queryByText(/^Dataset:/)).toBeNull();
  expect(within(await nav()).queryByText('Performance')).toBeNull();
});

test('a chosen dataset with several models: the model links ask which model', async () => {
  instance([model('p1', 'YOLO v8'), model('p2', 'DETR')]);
  const app = renderApp('/datasets/d1/metadata');
  await within(await nav()).findByText('Dataset: Street scenes');
  const user = userEvent.setup();
  await user.click(await within(await nav()).findByText('Performance'));
  const dialog = await findDialog('Choose model');
  await user.click(within(dialog).getByText('DETR'));
  await waitFor(() =>
    expect(app.location()).toBe('/models/datasets/d1/predictions/p2/performance'),
  );
});

test('a dataset with one model: the model links go straight to it', async () => {
  instance([model('p1', 'YOLO v8')]);
  const app = renderApp('/datasets/d1/overview');
  const user = userEvent.setup();
  await user.click(await within(await nav()).findByText('Compare'));
  await waitFor(() => expect(app.location()).toBe('/models/datasets/d1/predictions/p1/compare'));
});

test('a dataset without models shows only the dataset group', async () => {
  instance([]);
  renderApp('/datasets/d1/overview');
  await within(await nav()).findByText('Dataset: Street scenes');
  expect(within(await nav()).getByText('Health Checks')).toBeTruthy();
  expect(within(await nav()).queryByText('Performance')).toBeNull();
});
