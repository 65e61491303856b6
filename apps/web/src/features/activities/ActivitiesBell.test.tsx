// The activities bell as a signed-in user meets it: unseen count, scopes, rows, clicks.
import '../../test/setup';
import type { Activity } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const job = (change: Partial<Activity>): Activity => ({
  id: 'job',
  type: 'Job',
  updated_at: Date.now() - 60_000,
  job_type: 'MetadataAndFeaturesComputation',
  status: 'SUCCESS',
  user_id: adminUser.id,
  dataset_id: 'ds-1',
  dataset_name: 'pets',
  ...change,
});

const mine = [
  job({ id: 'a', status: 'PENDING', progress: 0.4, job_type: 'ThumbnailGeneration' }),
  job({ id: 'b' }),
  job({ id: 'c', status: 'FAILURE', error: 'Image could not be decoded' }),
];

function signedIn() {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true, seenActivityIds: ['c'] }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/activities': () => ({ body: mine }),
  });
}

test('the bell counts unseen activities; opening the list marks them seen', async () => {
  signedIn();
  renderApp('/datasets');
  const bell = await screen.findByRole('button', { name: 'Activities (2 new)' });
  const user = userEvent.setup();
  await user.click(bell);
  const popover = await screen.findByTestId('activities-popover');
  const rows = await within(popover).findAllByTestId('activity-row');
  expect(rows).toHaveLength(3);
  expect(within(rows[0]!).getByText('Thumbnail generation')).toBeTruthy();
  expect(within(rows[0]!).getByText('Running')).toBeTruthy();
  expect(within(rows[0]!).getByText('40%')).toBeTruthy();
  expect(within(rows[1]!).getByText('Completed')).toBeTruthy();
  expect(within(rows[2]!).getByText('Image could not be decoded')).toBeTruthy();
  await screen.findByRole('button', { name: 'Activities' });
  expect(
    JSON.parse(window.localStorage.getItem('loupe.deployment.deployment-1')!).seenActivityIds,
  ).toEqual(expect.arrayContaining(['a', 'b', 'c']));
});

test('only finished rows lead to their dataset overview', async () => {
  signedIn();
  const view = renderApp('/datasets');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /^Activities/ }));
  const rows = await screen.findAllByTestId('activity-row');
  await user.click(rows[0]!);
  await user.click(rows[2]!);
  expect(view.location()).toBe('/datasets');
  await user.click(rows[1]!);
  await waitFor(() => expect(view.location()).toBe('/datasets/ds-1/overview'));
});

test('the scope toggle asks for all activities and is remembered', async () => {
  const { fetchMock } = signedIn();
  const asked = (scope: string) =>
    fetchMock.mock.calls.some(([input]) =>
      String(input).includes(`/api/activities?scope=${scope}`),
    );
  renderApp('/datasets');
  await waitFor(() => expect(asked('my')).toBe(true));
  expect(asked('all')).toBe(false);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /^Activities/ }));
  await user.click(await screen.findByText('All activities'));
  await waitFor(() => expect(asked('all')).toBe(true));
  expect(window.localStorage.getItem('loupe.showOnlyMyActivities')).toBe('false');
});

test('an empty list says so', async () => {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  fakeServer({ 'GET /api/state': () => ({ body: appState({ user: adminUser }) }) });
  renderApp('/datasets');
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Activities' }));
  await screen.findByText('No activities found');
});
