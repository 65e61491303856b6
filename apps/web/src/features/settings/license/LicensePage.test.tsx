// Settings → License and the nav's license tag, against a fake API.
import '../../../test/setup';
import type { License } from '@loupe/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer, memberUser } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';

function seen() {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
}

test('an admin submits a key when unlicensed, sees a bad key refused, then resubmits', async () => {
  seen();
  let license: License = { state: 'UNLICENSED', key: '', expiration_ts: 0 };
  const { calls } = fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({ body: license }),
    'POST /api/settings/license': ({ body }) => {
      if ((body as { key: string }).key !== 'good-key') {
        return {
          status: 400,
          body: { description: 'The license key is malformed.', retriable: false },
        };
      }
      license = {
        state: 'LICENSED',
        key: 'good-key',
        expiration_ts: 2e9,
        company_name: 'Acme Inc.',
      };
      return { body: license };
    },
    'PUT /api/settings/license': () => ({ body: license }),
  });
  renderApp('/settings/license');
  await screen.findByText(/This instance has no license yet. Submit a license key/);
  expect(screen.getByTestId('license-tag').textContent).toBe('Unlicensed');
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  await screen.findByText('License key is required.');
  await user.type(screen.getByLabelText('License key'), 'bad-key');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  await screen.findByText('Unable to submit license key');
  await screen.findByText('The license key is malformed.');

  await user.clear(screen.getByLabelText('License key'));
  await user.type(screen.getByLabelText('License key'), 'good-key');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  await screen.findByText(/This instance is licensed to Acme Inc. until/);
  await waitFor(() => expect(screen.getByTestId('license-tag').textContent).toBe('Licensed'));
  await user.type(screen.getByLabelText('License key'), 'good-key');
  await user.click(screen.getByRole('button', { name: 'Resubmit' }));
  await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
});

test('members are told to contact the administrator and cannot submit', async () => {
  seen();
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: memberUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'EXPIRED', key: 'k', expiration_ts: 1.7e9 },
    }),
  });
  renderApp('/settings/license');
  await screen.findByText(/contact your instance administrator/);
  expect((screen.getByRole('button', { name: 'Resubmit' }) as HTMLButtonElement).disabled).toBe(
    true,
  );
  expect(
    document.querySelector('[data-disabled-reason]')?.getAttribute('data-disabled-reason'),
  ).toBe('You do not have permission to submit a license key. Please contact your administrator.');
});

test('while the license is unknown the tag says so; when it cannot be read, the page says so', async () => {
  seen();
  let answer: (() => void) | undefined;
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () =>
      new Promise((resolve) => {
        answer = () =>
          resolve({ status: 403, body: { description: 'Forbidden', retriable: false } });
      }),
  });
  renderApp('/settings/license');
  await waitFor(() =>
    expect(screen.getByTestId('license-tag').textContent).toBe('Validating license...'),
  );
  answer?.();
  await screen.findByText('Unable to fetch License information');
  expect(screen.getByTestId('license-tag').textContent).toBe('Unlicensed');
});

test('an evaluation license is shown as such, with the days it has left', async () => {
  seen();
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: {
        state: 'LICENSED',
        key: 'k',
        expiration_ts: Math.floor(Date.now() / 1000) + 29 * 86_400 - 60,
        company_name: 'Evaluation',
        license_id: 'evaluation-1',
        evaluation: true,
      },
    }),
  });
  renderApp('/settings/license');
  await screen.findByText(/This instance runs on an evaluation license until/);
  await waitFor(() =>
    expect(screen.getByTestId('license-tag').textContent).toBe('Evaluation — 29 days left'),
  );
  expect(screen.getAllByText('Evaluation — 29 days left')).toHaveLength(2);
});

test('an unlicensed admin is shown the one command that starts an evaluation', async () => {
  seen();
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'UNLICENSED', key: '', expiration_ts: 0 },
    }),
  });
  renderApp('/settings/license');
  const how = await screen.findByTestId('license-how');
  expect(how.textContent).toContain('npm run license -- evaluate');
  expect(how.textContent).toContain('License section of the README');
});
