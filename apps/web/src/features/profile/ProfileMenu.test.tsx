// The profile menu and Change Password as a signed-in user meets them.
import '../../test/setup';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { findDialog } from '../../test/findDialog';
import { renderApp } from '../../test/renderApp';

function signedIn(change: Parameters<typeof appState>[0] = {}, routes = {}) {
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser, ...change }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9, company_name: 'Acme Inc.' },
    }),
    ...routes,
  });
}

async function openMenu() {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  renderApp('/datasets');
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Profile: Cleo Admin' }));
  return screen.findByTestId('profile-menu');
}

test('shows who is signed in, the version, and copies the company with "Copied!" for 2 s', async () => {
  signedIn();
  await openMenu();
  expect(screen.getByText('cleo@acme.test')).toBeTruthy();
  expect(screen.getByText('Version 1.4.0')).toBeTruthy();
  // Fake timers decide the 2 s, not the machine's speed (timers still run, for testing-library).
  vi.useFakeTimers({ shouldAdvanceTime: true, advanceTimeDelta: 5 });
  try {
    fireEvent.click(screen.getByRole('button', { name: 'Company: Acme Inc.' }));
    await screen.findAllByText('Copied!');
    act(() => void vi.advanceTimersByTime(1500));
    expect(screen.queryAllByText('Copied!').length).toBeGreaterThan(0);
    act(() => void vi.advanceTimersByTime(1000));
    await waitFor(() => expect(screen.queryAllByText('Copied!')).toHaveLength(0));
  } finally {
    vi.useRealTimers();
  }
});

test('a newer semantic version in the versions file adds an entry; admins get upgrade instructions', async () => {
  const versionsUrl = 'https://releases.loupe.test/versions.json';
  signedIn({ versions_url: versionsUrl });
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === versionsUrl
      ? Response.json({ latest: { version: '1.5.0', slug: 'v1-5-0' } })
      : realFetch(input, init),
  );
  await openMenu();
  await screen.findByText('New version 1.5.0 available');
  expect(screen.getByRole('link', { name: 'Upgrade instructions' }).getAttribute('href')).toBe(
    'https://releases.loupe.test/docs/upgrade',
  );
});

test('no versions file, no entry and no error', async () => {
  signedIn({ versions_url: 'https://releases.loupe.test/versions.json' });
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
    String(input).startsWith('https://')
      ? Promise.reject(new TypeError('offline'))
      : realFetch(input, init),
  );
  await openMenu();
  expect(screen.queryByText(/New version/)).toBeNull();
  expect(screen.queryByText('The server is unreachable')).toBeNull();
});

test('Change Password checks the rules, then reports the server’s answer', async () => {
  let accept = false;
  const { calls } = signedIn(
    {},
    {
      'PUT /api/profile/password': () =>
        accept
          ? { body: { ok: true } }
          : {
              status: 400,
              body: { description: 'The current password is wrong.', retriable: false },
            },
    },
  );
  await openMenu();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Change Password$/ }));
  const dialog = await findDialog('Change Password');
  const submit = () => user.click(dialog.querySelector('.ant-btn-primary') as HTMLElement);

  await user.type(screen.getByLabelText('New Password'), 'short');
  await user.type(screen.getByLabelText('Confirm Password'), 'different-1');
  await submit();
  await screen.findByText('Current password is required.');
  await screen.findByText('New password must be at least 8 characters long.');
  await screen.findByText("Passwords don't match.");
  expect(calls.some((call) => call.path === '/api/profile/password')).toBe(false);

  await user.type(screen.getByLabelText('Current Password'), 'old-password');
  await user.clear(screen.getByLabelText('New Password'));
  await user.type(screen.getByLabelText('New Password'), 'different-1');
  await submit();
  await screen.findByText('Password change failed: The current password is wrong.');
  expect(calls.find((call) => call.path === '/api/profile/password')?.body).toEqual({
    oldPassword: 'old-password',
    newPassword: 'different-1',
    revokeApiKeys: false,
  });

  // Revoking the API keys is asked for, never assumed.
  await user.click(within(dialog).getByRole('checkbox', { name: 'Also revoke my API keys' }));
  accept = true;
  await submit();
  await screen.findByText('Password changed successfully!');
  expect(calls.filter((call) => call.path === '/api/profile/password').at(-1)?.body).toEqual({
    oldPassword: 'old-password',
    newPassword: 'different-1',
    revokeApiKeys: true,
  });
});

test('externally managed accounts cannot change their password here', async () => {
  fakeServer({
    'GET /api/state': () => ({
      body: appState({
        user: { ...adminUser, auth_type: 'oauth' },
        auth_state: {
          type: 'oauth',
          oauth_provider_display_name: 'Okta',
          is_oauth_logged_in: true,
        },
      }),
    }),
    'GET /api/settings/license': () => ({
      body: { state: 'UNLICENSED', key: '', expiration_ts: 0 },
    }),
  });
  await openMenu();
  const button = screen.getByRole('button', { name: /Change Password$/ }) as HTMLButtonElement;
  expect(button.disabled).toBe(true);
  await userEvent.setup().hover(button.closest('[data-disabled-reason]') as HTMLElement);
  await screen.findByText('Your password is managed by Okta. Change it there.');
});

test('a failed logout says so and keeps the user signed in', async () => {
  signedIn(
    {},
    {
      'POST /api/logout': () => ({
        status: 500,
        body: { description: 'Database unavailable', retriable: false },
      }),
    },
  );
  await openMenu();
  await userEvent.setup().click(screen.getByRole('button', { name: /Log out$/ }));
  await screen.findByText('Logout failed: Database unavailable');
});

test('the profile menu chooses the theme, and the choice outlives a reload', async () => {
  signedIn();
  window.localStorage.removeItem('loupe.theme');
  const menu = await openMenu();
  const themes = within(menu).getByRole('radiogroup', { name: 'Theme' });
  expect(
    within(themes)
      .getAllByRole('radio')
      .map((radio) => radio.getAttribute('aria-label')),
  ).toEqual(['Light red', 'Light blue', 'Dark red', 'Dark gray', 'Dark blue']);
  await userEvent.setup().click(within(themes).getByRole('radio', { name: 'Dark red' }));
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('darkRed'));
  expect(within(themes).getByRole('radio', { name: 'Dark red' }).getAttribute('aria-checked')).toBe(
    'true',
  );
  expect(window.localStorage.getItem('loupe.theme')).toBe('darkRed');
  cleanup();

  // A new page load reads the stored choice.
  document.documentElement.removeAttribute('data-theme');
  await openMenu();
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('darkRed'));
});
