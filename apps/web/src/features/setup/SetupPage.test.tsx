// The wizard's rules and its one setup call, against a fake API.
import '../../test/setup';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

function instance({ failSetup = false } = {}) {
  let complete = false;
  const server = fakeServer({
    'GET /api/state': () => ({
      body: complete ? appState({ user: adminUser }) : appState({ setup_state: 'INITIAL' }),
    }),
    'POST /api/setup': () => {
      if (failSetup)
        return {
          status: 400,
          body: { description: 'Invalid user config, setup failed', retriable: false },
        };
      complete = true;
      return { status: 201, body: { user: adminUser } };
    },
    'GET /api/settings/license': () => ({
      body: { state: 'UNLICENSED', key: '', expiration_ts: 0 },
    }),
  });
  return server;
}

async function toUserStep(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Get started' }));
  await screen.findByText('Setup your company');
  await user.type(screen.getByLabelText('Company Name'), 'Acme <Labs>');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByText(
    'Company name can include only letters, numbers, and the symbols ~!?@#$%^&*()_-,.\'"',
  );
  await user.clear(screen.getByLabelText('Company Name'));
  await user.type(screen.getByLabelText('Company Name'), '  Acme & Co.  ');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByText('Setup your initial user');
}

test('the wizard checks every field, sets up once and lands signed in on the dashboard', async () => {
  const { calls } = instance();
  const app = renderApp('/setup');
  const user = userEvent.setup();
  // Steps ahead of the current one cannot be jumped to.
  await screen.findByText('Welcome to Loupe');
  await user.click(screen.getByText('User'));
  expect(screen.queryByText('Setup your initial user')).toBeNull();

  await toUserStep(user);
  expect(screen.getByPlaceholderText('Jane Doe')).toBeTruthy();
  expect(screen.getByPlaceholderText('jane.doe@example.com')).toBeTruthy();

  await user.type(screen.getByLabelText('Name'), 'Cleo <Admin>');
  await user.type(screen.getByLabelText('Email Address'), 'cleo@');
  await user.type(screen.getByLabelText('New Password'), 'short');
  await user.type(screen.getByLabelText('Confirm Password'), 'other');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByText('Name cannot include special characters.');
  await screen.findByText('Email must be valid.');
  await screen.findByText('New password must be at least 8 characters long.');
  await screen.findByText("Passwords don't match.");
  expect(calls.some((call) => call.path === '/api/setup')).toBe(false);

  // Going back keeps what was typed.
  await user.click(screen.getByRole('button', { name: 'Back' }));
  expect((screen.getByLabelText('Company Name') as HTMLInputElement).value).toBe('Acme & Co.');
  await user.click(screen.getByRole('button', { name: 'Continue' }));

  await user.clear(await screen.findByLabelText('Name'));
  await user.type(screen.getByLabelText('Name'), "Cléo O'Brien-Admin");
  await user.clear(screen.getByLabelText('Email Address'));
  await user.type(screen.getByLabelText('Email Address'), 'cleo@acme.test');
  await user.clear(screen.getByLabelText('New Password'));
  await user.type(screen.getByLabelText('New Password'), 'long-enough-1');
  await user.clear(screen.getByLabelText('Confirm Password'));
  await user.type(screen.getByLabelText('Confirm Password'), 'long-enough-1');
  await user.click(screen.getByRole('button', { name: 'Continue' }));

  await screen.findByText('Setup Complete!');
  expect(calls.filter((call) => call.path === '/api/setup')).toEqual([
    {
      method: 'POST',
      path: '/api/setup',
      body: {
        company: 'Acme & Co.',
        user: {
          username: "Cléo O'Brien-Admin",
          email: 'cleo@acme.test',
          password: 'long-enough-1',
        },
      },
    },
  ]);
  await user.click(screen.getByRole('button', { name: 'Go to dashboard' }));
  await waitFor(() => expect(app.location()).toBe('/datasets'));
  await screen.findByText('Getting started');
});

test('a failed setup says so and stays on the user step', async () => {
  instance({ failSetup: true });
  renderApp('/setup');
  const user = userEvent.setup();
  await toUserStep(user);
  await user.type(screen.getByLabelText('Name'), 'Cleo');
  await user.type(screen.getByLabelText('Email Address'), 'cleo@acme.test');
  await user.type(screen.getByLabelText('New Password'), 'long-enough-1');
  await user.type(screen.getByLabelText('Confirm Password'), 'long-enough-1');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByText('Initial setup failed');
  await screen.findByText('Invalid user config, setup failed');
  expect(screen.queryByText('Setup Complete!')).toBeNull();
});
