// The features page as a signed-in user meets it: the table, the empty state, the upload
// instructions with the SDK call, and the failure message.
import '../../test/setup';
import type { FeatureInfo } from '@loupe/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, viewerDataset } from '../../test/exploreData';

const path = `/datasets/${DATASET_ID}/features`;
const api = `/api/datasets/${DATASET_ID}`;

function signedIn(routes: Record<string, Handler> = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    [`GET ${api}`]: () => ({ body: viewerDataset() }),
    ...routes,
  });
}

const feature = (change: Partial<FeatureInfo>): FeatureInfo => ({
  id: 'f1',
  name: 'clip-vit-b32',
  type: 'float32',
  group: 'uploaded',
  data_level: 'image',
  num_present: 1200,
  num_missing: 34,
  size: 512,
  associated_features: [],
  ...change,
});

test('lists name, type, group, data level, present, missing and size', async () => {
  signedIn({
    [`GET ${api}/features`]: () => ({
      body: [
        feature({}),
        feature({
          id: 'f2',
          name: 'crop-embedding',
          data_level: 'image_object',
          size: 128,
          num_missing: 0,
        }),
      ],
    }),
  });
  renderApp(path);
  const table = await screen.findByTestId('features-table', {}, { timeout: 15_000 });
  const rows = within(table)
    .getAllByRole('row')
    .map((row) =>
      within(row)
        .queryAllByRole('cell')
        .map((cell) => cell.textContent),
    );
  expect(rows.slice(1)).toEqual([
    ['clip-vit-b32', 'float32', 'uploaded', 'image', '1,200', '34', '512'],
    ['crop-embedding', 'float32', 'uploaded', 'image_object', '1,200', '0', '128'],
  ]);
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent),
  ).toEqual(['Name', 'Type', 'Group', 'Data level', 'Present', 'Missing', 'Size']);
});

test('no features: an empty state whose button shows how to upload with the Python SDK', async () => {
  signedIn({ [`GET ${api}/features`]: () => ({ body: [] }) });
  renderApp(path);
  expect(await screen.findByText('No features found')).toBeTruthy();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Upload features/ }));
  const dialog = await findDialog('Upload features');
  const snippet = within(dialog).getByTestId('upload-features-snippet').textContent ?? '';
  expect(snippet).toContain(`dataset = client.get_dataset("${DATASET_ID}")`);
  // An object detection dataset offers image and object features.
  expect(snippet).toContain(
    'dataset.upload_features("my-embedding", {"frame-1.jpg": [0.12, -0.5, 0.33]}, "image")',
  );
  expect(snippet).toContain(
    'dataset.upload_features("my-embedding", {"frame-1.jpg#0": [0.12, -0.5, 0.33]}, "image_object")',
  );
  expect(within(dialog).getByRole('button', { name: 'Copy code' })).toBeTruthy();
  // The SDK documentation opens read-only at upload_features.
  await user.click(within(dialog).getByRole('button', { name: /SDK documentation/ }));
  const docs = await screen.findByTestId('sdk-docs', {}, { timeout: 10_000 });
  expect(within(docs).getByRole('heading', { name: /^upload_features\(/ })).toBeTruthy();
});

test("a failing features call says 'Dataset features failed to load'", async () => {
  signedIn({
    [`GET ${api}/features`]: () => ({
      status: 404,
      body: { description: 'Dataset not found', retriable: false },
    }),
  });
  renderApp(path);
  expect(await screen.findByText('Dataset features failed to load')).toBeTruthy();
});
