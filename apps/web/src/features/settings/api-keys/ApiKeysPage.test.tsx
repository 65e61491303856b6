// Settings → API Keys: the Development key, the named keys, create, rotate and revoke, against a
// fake API.
import '../../../test/setup';
import type { ApiKey, CreatedApiKey } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer, type Handler } from '../../../test/fakeServer';
import { findDialog } from '../../../test/findDialog';
import { renderApp } from '../../../test/renderApp';

const HOUR = 3600 * 1000;

const development: ApiKey = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  name: 'Development',
  created_at: Date.now() - 30 * 24 * HOUR,
  last_used_at: Date.now() - 2 * HOUR,
  hint: 'lp_…dev1',
  default: true,
};

const ci: ApiKey = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  name: 'ci-runner',
  created_at: Date.now() - 3 * 24 * HOUR,
  last_used_at: null,
  hint: 'lp_…3f9a',
  default: false,
};

function signedIn(keys: ApiKey[], routes: Record<string, Handler> = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'UNLICENSED', key: '', expiration_ts: 0 },
    }),
    'GET /api/settings/key': () => ({ body: { name: 'Development', api_key: 'lp_dev_secret' } }),
    'GET /api/api_keys': () => ({ body: { api_keys: keys } }),
    ...routes,
  });
}

test('the named keys are listed with their hint and times; the Development key stays on top', async () => {
  signedIn([development, ci]);
  renderApp('/settings/api_keys');
  const row = (await screen.findByText('ci-runner')).closest('tr') as HTMLElement;
  expect(within(row).getByText('lp_…3f9a')).toBeTruthy();
  expect(within(row).getByText('3 days ago')).toBeTruthy();
  expect(within(row).getByText('Never')).toBeTruthy();
  expect(within(row).getByRole('button', { name: 'Rotate ci-runner' })).toBeTruthy();
  expect(within(row).getByRole('button', { name: 'Revoke ci-runner' })).toBeTruthy();
  // The Development key is the card with copy, not a row.
  expect((screen.getByLabelText('Development API key') as HTMLInputElement).value).toBe(
    'lp_dev_secret',
  );
  expect(screen.queryByText('lp_…dev1')).toBeNull();
  expect(screen.getAllByRole('row')).toHaveLength(2);
});

test('without named keys the table says so; a failed list offers a retry', async () => {
  let fail = true;
  signedIn([development], {
    'GET /api/api_keys': () =>
      fail
        ? { status: 500, body: { description: 'Database unavailable', retriable: false } }
        : { body: { api_keys: [development] } },
  });
  renderApp('/settings/api_keys');
  await screen.findByText('Unable to fetch API keys');
  expect(screen.getByText('Database unavailable')).toBeTruthy();
  fail = false;
  await userEvent.setup().click(screen.getByRole('button', { name: /Retry/ }));
  await screen.findByText('No named API keys yet');
});

test('creating a key checks the name, shows a taken name on the field and the secret once', async () => {
  const keys = [development, ci];
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const { calls } = signedIn(keys, {
    'POST /api/api_keys': async ({ body }) => {
      const { name } = body as { name: string };
      if (name === 'notebook') await answered;
      if (keys.some((key) => key.name === name)) {
        return {
          status: 409,
          body: { description: 'An API key with that name already exists.', retriable: false },
        };
      }
      const created: CreatedApiKey = {
        ...ci,
        id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
        name,
        created_at: Date.now(),
        hint: 'lp_…9z9z',
        api_key: 'lp_new_secret_9z9z',
      };
      keys.push(created);
      return { status: 201, body: created };
    },
  });
  renderApp('/settings/api_keys');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /Create API key/ }));
  const dialog = await findDialog('Create API key');
  await user.click(within(dialog).getByRole('button', { name: 'Create' }));
  await within(dialog).findByText('Name is required.');
  await user.type(within(dialog).getByLabelText('Name'), 'x'.repeat(65));
  await within(dialog).findByText('API key name must be at most 64 characters long.');
  expect(calls.some((call) => call.method === 'POST')).toBe(false);

  await user.clear(within(dialog).getByLabelText('Name'));
  await user.type(within(dialog).getByLabelText('Name'), 'ci-runner{Enter}');
  await within(dialog).findByText('An API key with that name already exists.');

  // A second Enter before the answer must not create a second key nor lose the first secret.
  await user.clear(within(dialog).getByLabelText('Name'));
  await user.type(within(dialog).getByLabelText('Name'), '  notebook  {Enter}{Enter}');
  answer();
  const secret = await findDialog('Copy your new API key');
  expect((within(secret).getByTestId('new-api-key') as HTMLInputElement).value).toBe(
    'lp_new_secret_9z9z',
  );
  within(secret).getByText('Copy it now: it will not be shown again.');
  expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
    { name: 'ci-runner' },
    { name: 'notebook' },
  ]);

  await user.click(within(secret).getByRole('button', { name: 'Done' }));
  // happy-dom never ends antd's leave animation: the dialog is seen leaving, not gone.
  await waitFor(() => expect(secret.className).toContain('ant-zoom-leave'));
  const row = (await screen.findByText('notebook')).closest('tr') as HTMLElement;
  expect(within(row).getByText('lp_…9z9z')).toBeTruthy();
  expect(within(row).getByText('just now')).toBeTruthy();
});

test('revoke names the key, warns that scripts stop at once, and deletes only when confirmed', async () => {
  let keys = [development, ci];
  const { calls } = signedIn(keys, {
    'GET /api/api_keys': () => ({ body: { api_keys: keys } }),
    [`DELETE /api/api_keys/${ci.id}`]: () => {
      keys = keys.filter((key) => key.id !== ci.id);
      return { body: { ok: true } };
    },
  });
  renderApp('/settings/api_keys');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Revoke ci-runner' }));
  const [title] = await screen.findAllByText('Revoke the API key “ci-runner”?');
  const confirm = title?.closest('.ant-modal') as HTMLElement;
  within(confirm).getByText(/Scripts using this key stop working at once/);
  expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  const revoke = within(confirm).getByRole('button', { name: 'Revoke' });
  expect(revoke.className).toContain('ant-btn-dangerous');
  await user.click(revoke);
  await screen.findByText('API key “ci-runner” revoked.');
  expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
    `/api/api_keys/${ci.id}`,
  ]);
  await screen.findByText('No named API keys yet');
});

test('rotate asks first, then shows the new secret once', async () => {
  const { calls } = signedIn([development, ci], {
    [`POST /api/api_keys/${ci.id}/rotate`]: () => ({
      body: { ...ci, hint: 'lp_…r0t8', api_key: 'lp_rotated_r0t8' },
    }),
  });
  renderApp('/settings/api_keys');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Rotate ci-runner' }));
  await screen.findAllByText('Rotate the API key “ci-runner”?');
  screen.getByText(/Scripts using the current secret stop working at once/);
  expect(calls.some((call) => call.path.endsWith('/rotate'))).toBe(false);
  await user.click(screen.getByRole('button', { name: 'Rotate' }));
  const secret = await findDialog('Copy the new secret');
  expect((within(secret).getByTestId('new-api-key') as HTMLInputElement).value).toBe(
    'lp_rotated_r0t8',
  );
  within(secret).getByText(
    'The API key “ci-runner” has a new secret; the old one no longer works.',
  );
});
