// Setting a new password from a reset link, against a fake API.
import '../../test/setup';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { appState, fakeServer } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

test('without a token both fields are disabled', async () => {
  fakeServer({ 'GET /api/state': () => ({ body: appState() }) });
  renderApp('/resetPassword');
  await screen.findByText('Set a new password');
  expect((screen.getByLabelText('New Password') as HTMLInputElement).disabled).toBe(true);
  expect((screen.getByLabelText('Confirm Password') as HTMLInputElement).disabled).toBe(true);
});

test('the reset link needs a set-up instance', async () => {
  fakeServer({ 'GET /api/state': () => ({ body: appState({ setup_state: 'INITIAL' }) }) });
  const app = renderApp('/resetPassword/abc');
  await screen.findByText('Welcome to Loupe');
  expect(app.location()).toBe('/setup');
});

test('the new password follows the rules; success and failure are both said', async () => {
  let valid = false;
  const { calls } = fakeServer({
    'GET /api/state': () => ({ body: appState() }),
    'PUT /api/reset-password': () =>
      valid
        ? { body: { ok: true } }
        : { status: 400, body: { description: 'This reset link has expired.', retriable: false } },
  });
  renderApp('/resetPassword/tok-1');
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New Password'), 'short');
  await user.type(screen.getByLabelText('Confirm Password'), 'other');
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await screen.findByText('New password must be at least 8 characters long.');
  await screen.findByText("Passwords don't match.");

  await user.clear(screen.getByLabelText('New Password'));
  await user.type(screen.getByLabelText('New Password'), 'long-enough-1');
  await user.clear(screen.getByLabelText('Confirm Password'));
  await user.type(screen.getByLabelText('Confirm Password'), 'long-enough-1');
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await screen.findByText('Reset password failed');
  await screen.findByText('This reset link has expired.');
  expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
    token: 'tok-1',
    newPassword: 'long-enough-1',
    revokeApiKeys: true,
  });

  valid = true;
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await screen.findByText('Password was successfuly updated');
  await screen.findByText('Password was successfully updated!');
  expect(screen.getByRole('button', { name: 'Go To Login' })).toBeTruthy();
});

test("the account's API keys are revoked unless the box is unchecked", async () => {
  const { calls } = fakeServer({
    'GET /api/state': () => ({ body: appState() }),
    'PUT /api/reset-password': () => ({ body: { ok: true } }),
  });
  renderApp('/resetPassword/tok-2');
  const user = userEvent.setup();
  const revoke = await screen.findByRole('checkbox', { name: "Revoke this account's API keys" });
  expect((revoke as HTMLInputElement).checked).toBe(true);
  await user.click(revoke);
  await user.type(screen.getByLabelText('New Password'), 'long-enough-2');
  await user.type(screen.getByLabelText('Confirm Password'), 'long-enough-2');
  await user.click(screen.getByRole('button', { name: 'Set password' }));
  await screen.findByText('Password was successfully updated!');
  expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
    token: 'tok-2',
    newPassword: 'long-enough-2',
    revokeApiKeys: false,
  });
});
