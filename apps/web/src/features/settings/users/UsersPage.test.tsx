// Settings → Users as an admin and as a member, against a fake API.
import '../../../test/setup';
import type { User } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { adminUser, appState, fakeServer, memberUser } from '../../../test/fakeServer';
import { findDialog } from '../../../test/findDialog';
import { renderApp } from '../../../test/renderApp';

const license = {
  'GET /api/settings/license': () => ({ body: { state: 'UNLICENSED', key: '', expiration_ts: 0 } }),
};

function seen() {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
}

test('admins add a user, see the conflict on the email field, and get a reset link', async () => {
  seen();
  const users: User[] = [adminUser, memberUser];
  const { calls } = fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => ({ body: users }),
    'POST /api/users': ({ body }) => {
      const request = body as { email: string; name: string; role: 'admin' | 'member' };
      if (users.some((user) => user.email === request.email)) {
        return {
          status: 409,
          body: {
            description: `A user with the email ${request.email} already exists.`,
            retriable: false,
          },
        };
      }
      const created = { ...memberUser, id: '33333333-3333-4333-8333-333333333333', ...request };
      users.push(created);
      return { status: 201, body: created };
    },
    'POST /api/users/33333333-3333-4333-8333-333333333333/reset-password-token': () => ({
      body: { token: 'tok-123', expires_ts: 2e9 },
    }),
    ...license,
  });
  renderApp('/settings/users?add=1');
  const user = userEvent.setup();
  // Opened from Getting started: the add-user form is already open.
  await screen.findByText(adminUser.email);
  const dialog = await findDialog('Add user');
  await user.type(within(dialog).getByLabelText('Name'), 'Ben Again');
  await user.type(within(dialog).getByLabelText('Email'), memberUser.email);
  await user.click(within(dialog).getByRole('button', { name: 'Add user' }));
  await screen.findByText('Create user failed');
  await waitFor(() =>
    expect(
      within(dialog).getAllByText(`A user with the email ${memberUser.email} already exists.`),
    ).toHaveLength(1),
  );

  await user.clear(within(dialog).getByLabelText('Email'));
  await user.type(within(dialog).getByLabelText('Email'), 'ana@acme.test');
  await user.clear(within(dialog).getByLabelText('Name'));
  await user.type(within(dialog).getByLabelText('Name'), 'Ana Engineer');
  await user.click(within(dialog).getByRole('button', { name: 'Add user' }));
  const linkDialog = await findDialog('Reset password link');
  expect((within(linkDialog).getByRole('textbox') as HTMLInputElement).value).toBe(
    `${window.location.origin}/resetPassword/tok-123`,
  );
  expect(
    calls.find((call) => call.method === 'POST' && call.path === '/api/users')?.body,
  ).toMatchObject({
    role: 'member',
  });
});

test('search filters by name or email, ignoring case', async () => {
  seen();
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => ({ body: [adminUser, memberUser] }),
    ...license,
  });
  renderApp('/settings/users');
  await screen.findByText(memberUser.email);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Search by name or email'), 'BEN@');
  await waitFor(() => expect(screen.queryByText(adminUser.email)).toBeNull());
  expect(screen.getByText(memberUser.email)).toBeTruthy();
  await user.clear(screen.getByLabelText('Search by name or email'));
  await user.type(screen.getByLabelText('Search by name or email'), 'nobody');
  await screen.findByText('No match found');
});

test('members see every control disabled with its reason', async () => {
  seen();
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: memberUser }) }),
    'GET /api/users': () => ({ body: [adminUser, memberUser] }),
    ...license,
  });
  renderApp('/settings/users');
  await screen.findByText(adminUser.email);
  const reasons = [...document.querySelectorAll('[data-disabled-reason]')].map((node) =>
    node.getAttribute('data-disabled-reason'),
  );
  expect(new Set(reasons)).toEqual(
    new Set([
      'You do not have permission to invite users',
      'You do not have permission to edit users',
      "You do not have permission to reset users' passwords",
    ]),
  );
  expect((screen.getByRole('button', { name: /Add user/ }) as HTMLButtonElement).disabled).toBe(
    true,
  );
});

test('a slow list says so after 5000 ms', async () => {
  seen();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => new Promise(() => undefined),
    ...license,
  });
  renderApp('/settings/users');
  await screen.findByRole('table');
  await vi.advanceTimersByTimeAsync(4000);
  expect(screen.queryByText('This is taking longer than usual. Still loading…')).toBeNull();
  await vi.advanceTimersByTimeAsync(1500);
  await screen.findByText('This is taking longer than usual. Still loading…');
});

test('with an external provider the list is not loaded', async () => {
  const { calls } = fakeServer({
    'GET /api/state': () => ({
      body: appState({
        user: adminUser,
        auth_state: {
          type: 'oauth',
          oauth_provider_display_name: 'Okta',
          is_oauth_logged_in: true,
        },
      }),
    }),
    ...license,
  });
  seen();
  renderApp('/settings/users');
  await screen.findByText(
    'Users are managed externally via Okta. Please use the Okta admin console to configure user access.',
  );
  expect(calls.some((call) => call.path === '/api/users')).toBe(false);
});

test('editing: the email is read-only, the last admin keeps the role, and refusals are shown', async () => {
  seen();
  const { calls } = fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => ({ body: [adminUser, memberUser] }),
    [`PUT /api/users/${memberUser.id}`]: () => ({
      status: 409,
      body: { description: 'This user is disabled', retriable: false },
    }),
    ...license,
  });
  renderApp('/settings/users');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Edit ${adminUser.name}` }));
  let dialog = await findDialog('Edit user');
  expect((within(dialog).getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
  expect(dialog.querySelector('.ant-select-disabled')).not.toBeNull();
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

  await user.click(screen.getByRole('button', { name: `Edit ${memberUser.name}` }));
  dialog = await findDialog('Edit user');
  expect(dialog.querySelector('.ant-select-disabled')).toBeNull();
  await user.clear(within(dialog).getByLabelText('Name'));
  await user.type(within(dialog).getByLabelText('Name'), 'Ben Renamed');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  await screen.findByText('Update user failed');
  await screen.findByText('This user is disabled');
  expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ name: 'Ben Renamed' });
});
