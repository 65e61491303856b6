// The metadata page as a signed-in user meets it: fields per data level, search, the
// 'Recomputing' state polled until available, and the failure message.
import '../../test/setup';
import type { MetadataFieldInfo } from '@loupe/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, metadataField, viewerDataset } from '../../test/exploreData';

const path = `/datasets/${DATASET_ID}/metadata`;
const api = `/api/datasets/${DATASET_ID}`;

function signedIn(routes: Record<string, Handler> = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    [`GET ${api}`]: () => ({ body: viewerDataset() }),
    ...routes,
  });
}

const imageFields: MetadataFieldInfo[] = [
  metadataField({ id: 'brightness', label: 'Brightness', num_missing: 3, num_total: 300 }),
  metadataField({
    id: 'city',
    label: 'City',
    type: 'string',
    source: 'uploaded',
    group: 'Uploaded',
  }),
];

const rows = () =>
  within(screen.getByTestId('metadata-table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

test('lists the fields of a data level with type, source, group, missing and state; search filters', async () => {
  // The fake server's calls carry the path only; the query is read from the fetch itself, which
  // runs the handler before any other request can start.
  const lastLevel = () =>
    new URL(String(server.fetchMock.mock.calls.at(-1)![0]), 'http://loupe.test').searchParams.get(
      'data_level',
    );
  const server = signedIn({
    [`GET ${api}/metadata_info`]: () => {
      const level = lastLevel();
      return {
        body: {
          metadata_config:
            level === 'image_object'
              ? [metadataField({ id: 'area', label: 'Box area', group: 'Object' })]
              : imageFields,
        },
      };
    },
  });
  renderApp(path);
  await screen.findByTestId('metadata-table', {}, { timeout: 15_000 });
  expect(rows()).toEqual([
    'BrightnessbrightnessNumericComputedImage3 / 300Available',
    'CitycityStringUploadedUploaded0 / 300Available',
  ]);

  const user = userEvent.setup();
  await user.click(screen.getByText('Objects'));
  await waitFor(() =>
    expect(rows()).toEqual(['Box areaareaNumericComputedObject0 / 300Available']),
  );

  await user.click(screen.getByText('Images'));
  await waitFor(() => expect(rows()).toHaveLength(2));
  await user.type(screen.getByRole('searchbox', { name: 'Search metadata' }), 'upload');
  expect(rows()).toEqual(['CitycityStringUploadedUploaded0 / 300Available']);
  await user.type(screen.getByRole('searchbox', { name: 'Search metadata' }), 'zzz');
  expect(screen.getByText('No matches found.')).toBeTruthy();
});

test("a pending field shows 'Recomputing' and the page polls every 3 s until it is available", async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  let answers = 0;
  const { calls } = signedIn({
    [`GET ${api}/metadata_info`]: () => {
      answers += 1;
      return {
        body: {
          metadata_config: [
            metadataField({
              id: 'blur',
              label: 'Blur',
              state: answers < 3 ? 'pending' : 'available',
            }),
          ],
        },
      };
    },
  });
  renderApp(path);
  expect(await screen.findByText('Recomputing')).toBeTruthy();
  const infoCalls = () => calls.filter((call) => call.path === `${api}/metadata_info`).length;
  expect(infoCalls()).toBe(1);
  await act(() => vi.advanceTimersByTimeAsync(3000));
  await waitFor(() => expect(infoCalls()).toBe(2));
  expect(screen.getByText('Recomputing')).toBeTruthy();
  await act(() => vi.advanceTimersByTimeAsync(3000));
  await screen.findByText('Available');
  // Nothing pending: no more polling.
  await act(() => vi.advanceTimersByTimeAsync(9000));
  expect(infoCalls()).toBe(3);
});

test("a failing metadata call says 'Dataset metadata failed to load'", async () => {
  signedIn({
    [`GET ${api}/metadata_info`]: () => ({
      status: 400,
      body: { description: 'data_level is invalid', retriable: false },
    }),
  });
  renderApp(path);
  expect(await screen.findByText('Dataset metadata failed to load')).toBeTruthy();
});
