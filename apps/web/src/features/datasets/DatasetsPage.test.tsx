// The datasets list as a signed-in user meets it: cards, search, task filter, empty texts.
import '../../test/setup';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { dataset } from './testData';

function signedIn(routes = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'UNLICENSED', key: '', expiration_ts: 0 },
    }),
    'GET /api/settings/tokens': () => ({
      body: { sdk_index_url: 'http://loupe.acme.internal/sdk/python/simple/' },
    }),
    'GET /api/settings/key': () => ({ body: { name: 'Development', api_key: 'lp_secret' } }),
    ...routes,
  });
}

const list = [
  dataset(),
  dataset({
    id: 'b',
    name: 'pets',
    task_type: 'classification',
    description: 'cats and dogs',
    objects_count: 0,
    predictions_count: 0,
    preview_urls: [],
  }),
  dataset({ id: 'c', name: 'speech', task_type: 'automatic_speech_recognition', classes_count: 0 }),
];

test('each dataset is a card with its task, up to 3 previews, when it changed and its counts', async () => {
  signedIn({ 'GET /api/datasets': () => ({ body: list }) });
  renderApp('/datasets');
  const card = await screen.findByRole('link', { name: 'street-scenes' });
  expect(within(card).getByText('Object Detection')).toBeTruthy();
  expect(within(card).getAllByTestId('dataset-preview')).toHaveLength(3);
  expect(within(card).getByText('Updated 1 hour ago')).toBeTruthy();
  expect(within(card).getByText('120 samples')).toBeTruthy();
  expect(within(card).getByText('340 objects')).toBeTruthy();
  expect(within(card).getByText('2 prediction sets')).toBeTruthy();
  const pets = screen.getByRole('link', { name: 'pets' });
  expect(within(pets).queryByText(/objects|prediction/)).toBeNull();
  expect(pets.getAttribute('href')).toBe('/datasets/b/overview');
});

test('search and the task filter narrow the cards, with a text when nothing matches', async () => {
  signedIn({ 'GET /api/datasets': () => ({ body: list }) });
  renderApp('/datasets');
  await screen.findByRole('link', { name: 'pets' });
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: 'Search datasets' }), 'DOGS');
  expect(screen.getAllByTestId('dataset-card')).toHaveLength(1);
  expect(screen.getByRole('link', { name: 'pets' })).toBeTruthy();

  await user.clear(screen.getByRole('textbox', { name: 'Search datasets' }));
  await user.click(screen.getByRole('combobox', { name: 'Task type' }));
  await user.click(await screen.findByTitle('Regression'));
  await screen.findByText('No Regression datasets found');
  await user.type(screen.getByRole('textbox', { name: 'Search datasets' }), 'cars');
  await screen.findByText('No Regression datasets matching "cars" found');
});

test('an empty instance says so; a failure says the datasets failed to load', async () => {
  signedIn();
  const view = renderApp('/datasets');
  await screen.findByText('No datasets available');
  view.unmount();
  signedIn({
    'GET /api/datasets': () => ({ status: 400, body: { description: 'Bad', retriable: false } }),
  });
  renderApp('/datasets');
  await screen.findByText('Datasets failed to load.');
});

test('four placeholder cards stand in while the list loads', async () => {
  signedIn({ 'GET /api/datasets': () => new Promise(() => undefined) });
  renderApp('/datasets');
  expect(await screen.findAllByTestId('dataset-card-placeholder')).toHaveLength(4);
});

test('Add Dataset opens on V7 without S3, asks for a license, and the SDK tab has a snippet with the real key', async () => {
  signedIn();
  renderApp('/datasets?instructions=1');
  const dialog = await findDialog('Add Dataset');
  expect(within(dialog).getByRole('tab', { name: 'V7 Labs', selected: true })).toBeTruthy();
  await within(dialog).findByText('Please set up your license key in Settings to add datasets.');
  const user = userEvent.setup();
  await user.click(within(dialog).getByRole('tab', { name: 'SDK' }));
  const snippet = await within(dialog).findByTestId('add-dataset-snippet');
  expect(snippet.textContent).toContain(
    `client = loupe.Client("${window.location.origin}", "lp_secret")`,
  );
  await user.click(within(dialog).getByRole('button', { name: /Show SDK setup$/ }));
  const sdk = await findDialog('Set up SDK');
  expect((await within(sdk).findByTestId('sdk-install-command')).textContent).toBe(
    'pip install --index-url http://loupe.acme.internal/sdk/python/simple/ --trusted-host loupe.acme.internal loupe',
  );
  expect(within(sdk).getByTestId('sdk-configure-command').textContent).toBe(
    `loupe configure --url ${window.location.origin} --api-key lp_secret`,
  );
});
