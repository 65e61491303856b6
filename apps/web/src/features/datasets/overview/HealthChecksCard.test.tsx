// The overview's health-check section: failed and passed counts, the passing percentage and a
// link to the checks list.
import '../../../test/setup';
import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { adminUser, appState, fakeServer } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';
import { DATASET_ID, dataset } from '../testData';

const api = `/api/datasets/${DATASET_ID}`;

function server(checks: { checks: unknown[]; summary: unknown }) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/datasets': () => ({ body: [dataset()] }),
    [`GET ${api}`]: () => ({ body: dataset() }),
    [`GET ${api}/history`]: () => ({ body: [] }),
    [`GET ${api}/iou_threshold`]: () => ({ body: { iou_threshold: 0.5 } }),
    [`GET ${api}/thumbnails`]: () => ({ body: { enabled: true } }),
    [`GET ${api}/checks`]: () => ({ body: { ...checks, predictions_id: null } }),
  });
}

test('failed and passed counts, the passing percentage and a link to the list', async () => {
  server({
    checks: ['failed_check', 'passed_check', 'passed_check'].map((type, i) => ({
      id: `c${i}`,
      status: { type },
    })),
    summary: {
      num_failed: 1,
      num_passed: 2,
      num_pending: 0,
      num_enabled: 3,
      passing_percentage: 67,
    },
  });
  renderApp(`/datasets/${DATASET_ID}/overview`);
  const section = await screen.findByTestId('overview-checks');
  expect(within(section).getByText('67%')).toBeTruthy();
  const failed = within(section).getByText('Failed').closest('.ant-statistic')!;
  const passed = within(section).getByText('Passed').closest('.ant-statistic')!;
  expect(failed.querySelector('.ant-statistic-content')!.textContent).toBe('1');
  expect(passed.querySelector('.ant-statistic-content')!.textContent).toBe('2');
  expect(screen.getByRole('link', { name: 'View health checks' }).getAttribute('href')).toBe(
    `/datasets/${DATASET_ID}/checks`,
  );
});

test('no checks: No health checks found', async () => {
  server({
    checks: [],
    summary: {
      num_failed: 0,
      num_passed: 0,
      num_pending: 0,
      num_enabled: 0,
      passing_percentage: null,
    },
  });
  renderApp(`/datasets/${DATASET_ID}/overview`);
  expect(await screen.findByText('No health checks found')).toBeTruthy();
});
