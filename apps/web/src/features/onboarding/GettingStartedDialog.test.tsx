// Getting started leads to the SDK dialog, the Add Dataset modal and the Add Model modal.
import '../../test/setup';
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

function signedIn() {
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'lic-key', expiration_ts: 2e9 },
    }),
    'GET /api/settings/tokens': () => ({
      body: { sdk_index_url: 'http://localhost:8080/sdk/python/simple/' },
    }),
    'GET /api/settings/key': () => ({ body: { name: 'Development', api_key: 'lp_key' } }),
  });
}

async function choose(card: string) {
  const dialog = await findDialog('Getting started');
  await userEvent.setup().click(within(dialog).getByText(card, { exact: true }));
}

test('Set up SDK opens the SDK dialog with both steps', async () => {
  signedIn();
  renderApp('/datasets');
  await choose('Set up SDK');
  const sdk = await findDialog('Set up SDK');
  expect((await within(sdk).findByTestId('sdk-install-command')).textContent).toBe(
    'pip install --index-url http://localhost:8080/sdk/python/simple/ loupe',
  );
  expect(within(sdk).getByTestId('sdk-configure-command').textContent).toBe(
    `loupe configure --url ${window.location.origin} --api-key lp_key --license-key lic-key`,
  );
});

test('Add dataset opens the Add Dataset modal on the datasets page', async () => {
  signedIn();
  const view = renderApp('/settings/users');
  await choose('Add dataset');
  await findDialog('Add Dataset');
  expect(view.location()).toBe('/datasets?instructions=1');
});

test('Add model opens the Add Model modal with an upload snippet', async () => {
  signedIn();
  const view = renderApp('/datasets');
  await choose('Add model');
  const dialog = await findDialog('Add Model');
  await waitFor(() => expect(view.location()).toBe('/models?instructions=1'));
  expect((await within(dialog).findByTestId('add-model-snippet')).textContent).toContain(
    `loupe.Client("${window.location.origin}", "lp_key")`,
  );
  expect(within(dialog).getByText('Upload predictions')).toBeTruthy();
});
