// The route table and guards as a user meets them, against a fake API.
import '../test/setup';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { adminUser, appState, fakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';

const withLicense = {
  'GET /api/settings/license': () => ({ body: { state: 'UNLICENSED', key: '', expiration_ts: 0 } }),
};

test('an empty instance opens the setup wizard from any page', async () => {
  fakeServer({ 'GET /api/state': () => ({ body: appState({ setup_state: 'INITIAL' }) }) });
  const app = renderApp('/settings/users');
  await screen.findByText('Welcome to Loupe');
  expect(app.location()).toBe('/setup');
});

test('a guarded deep link goes through login and back, with its query and hash', async () => {
  let signedIn = false;
  fakeServer({
    'GET /api/state': () => ({ body: appState(signedIn ? { user: adminUser } : {}) }),
    'POST /api/login': ({ body }) => {
      if ((body as { password: string }).password !== 'right-password') {
        return { status: 401, body: { description: 'Wrong', retriable: false } };
      }
      signedIn = true;
      return { body: { user: adminUser } };
    },
    'GET /api/settings/key': () => ({ body: { name: 'Development', api_key: 'k-123' } }),
    ...withLicense,
  });
  const app = renderApp('/settings/api_keys?tab=1#key');
  await screen.findByRole('heading', { name: 'Login' });
  expect(app.location()).toBe(
    `/login?redirect=${encodeURIComponent('/settings/api_keys?tab=1#key')}`,
  );
  expect(screen.getByText('AI Results You Can Trust')).toBeTruthy();
  expect(screen.getByText('Get your model and data fixed!')).toBeTruthy();
  for (const role of ['AI Lead', 'MLE', 'CEO']) expect(screen.getByText(role)).toBeTruthy();

  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email address'), 'cleo@acme.test');
  await user.type(screen.getByLabelText('Password'), 'wrong-password');
  await user.click(screen.getByRole('button', { name: 'Login' }));
  await screen.findByText('Incorrect email or password');

  await user.clear(screen.getByLabelText('Password'));
  await user.type(screen.getByLabelText('Password'), 'right-password');
  await user.click(screen.getByRole('button', { name: 'Login' }));
  await waitFor(() => expect(app.location()).toBe('/settings/api_keys?tab=1#key'));
  await screen.findByText('Development');
});

test('login validates the email and requires a password before calling the server', async () => {
  const { calls } = fakeServer({ 'GET /api/state': () => ({ body: appState() }) });
  renderApp('/login');
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email address'), 'not-an-email');
  await user.click(screen.getByRole('button', { name: 'Login' }));
  await screen.findByText('Email must be valid.');
  await screen.findByText('Password is required.');
  expect(calls.some((call) => call.path === '/api/login')).toBe(false);
});

test('a 401 in any query reloads the page', async () => {
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => ({ status: 401, body: { description: 'Sign in', retriable: false } }),
    ...withLicense,
  });
  const onUnauthorized = vi.fn();
  renderApp('/settings/users', { onUnauthorized });
  await waitFor(() => expect(onUnauthorized).toHaveBeenCalled());
});

test('retriable server errors are retried twice, then the page offers the error report and home', async () => {
  let attempts = 0;
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/key': () => {
      attempts += 1;
      return { status: 503, body: { description: 'Database busy', retriable: true } };
    },
    ...withLicense,
  });
  renderApp('/settings/api_keys');
  await screen.findByText('Unable to fetch API keys', {}, { timeout: 10_000 });
  expect(attempts).toBe(3);
  expect(screen.getByText('Database busy')).toBeTruthy();
  expect(screen.getByRole('button', { name: /Download error report/ })).toBeTruthy();
  expect(screen.getByRole('link', { name: /Go to home/ })).toBeTruthy();
});

test('a call that gets no answer opens "The server is unreachable" with Retry and Cancel', async () => {
  let down = true;
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => (down ? 'network-error' : { body: [adminUser] }),
    ...withLicense,
  });
  renderApp('/settings/users');
  await screen.findByText('The server is unreachable');
  down = false;
  await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
  await screen.findByText(adminUser.email);
});

test('unknown paths say Page not found', async () => {
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => ({ body: [adminUser] }),
    ...withLicense,
  });
  renderApp('/no/such/page');
  await screen.findByText('Page not found');
});

test('Appearance exists only in development', async () => {
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/users': () => ({ body: [adminUser] }),
    ...withLicense,
  });
  const app = renderApp('/settings/appearance');
  await waitFor(() => expect(app.location()).toBe('/settings/users'));
  expect(screen.queryByRole('menuitem', { name: 'Appearance' })).toBeNull();
});
