// The Similar items page as a signed-in user meets it, through the real route table.
import '../../test/setup';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { adminUser, appState, fakeServer, memberUser, type Handler } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, dataset, embeddingsRoutes } from '../embeddings/testing';

const page = `/datasets/${DATASET_ID}/subsets/selection/similar`;
const api = `/api/datasets/${DATASET_ID}`;

function signedIn(routes: Record<string, Handler> = {}, { admin = true, licensed = true } = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    ...embeddingsRoutes(),
    'GET /api/state': () => ({ body: appState({ user: admin ? adminUser : memberUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'EXPIRED', key: 'k', expiration_ts: 1 },
    }),
    'GET /api/datasets': () => ({ body: [dataset()] }),
    [`GET ${api}`]: () => ({ body: dataset() }),
    [`POST ${api}/item_features`]: (call) => {
      const ids = (call.body as { item_ids: string[] }).item_ids;
      return {
        body: {
          features: [
            { feature_name: 'clip', num_missing: ids.includes('q3') ? 1 : 0 },
            { feature_name: 'resnet', num_missing: ids.length },
          ],
        },
      };
    },
    [`POST ${api}/similar_items`]: (call) => {
      const body = call.body as { item_ids: string[]; feature_name: string };
      return {
        body: {
          feature_name: body.feature_name,
          ignored: body.item_ids.includes('q3') ? 1 : 0,
          approximate: false,
          items: [
            { id: 'near', similarity: 0.71 },
            { id: 'nearest', similarity: 0.98 },
          ],
        },
      };
    },
    ...routes,
  });
}

test('the query items come from sample_ids, pre-selected; results are ranked by similarity', async () => {
  const { calls } = signedIn();
  renderApp(`${page}?sample_ids=q1,q2,q3`);
  expect(await screen.findByRole('heading', { name: 'Similar items' })).toBeTruthy();
  expect(await screen.findByText('Find Similar Settings')).toBeTruthy();
  const cards = await screen.findAllByTestId('similar-card');
  expect(cards.map((card) => within(card).getByText(/Similarity/).textContent)).toEqual([
    'Similarity 0.980',
    'Similarity 0.710',
  ]);
  const checks = screen.getAllByRole('checkbox');
  expect(checks.map((box) => (box as HTMLInputElement).checked)).toEqual([true, true, true]);
  // q3 lacks clip: one item ignored, and the unusable feature is not offered.
  expect(screen.getByTestId('similar-ignored').textContent).toBe('1 item(s) ignored');
  const request = calls.find((call) => call.path.endsWith('/similar_items'))!.body;
  expect(request).toEqual({
    data_level: 'image',
    item_ids: ['q1', 'q2', 'q3'],
    feature_name: 'clip',
    k: 100,
    exclude_ids: ['q1', 'q2', 'q3'],
  });

  // Unticking the item without the feature searches with the other two and ignores none.
  const user = userEvent.setup();
  await user.click(screen.getByRole('checkbox', { name: 'q3' }));
  await waitFor(() =>
    expect(calls.filter((call) => call.path.endsWith('/similar_items')).at(-1)!.body).toMatchObject(
      {
        item_ids: ['q1', 'q2'],
      },
    ),
  );
  await waitFor(() => expect(screen.queryByTestId('similar-ignored')).toBeNull());
});

test('query items without features: No features found with Upload Features', async () => {
  signedIn({
    [`POST ${api}/item_features`]: () => ({
      body: { features: [{ feature_name: 'clip', num_missing: 2 }] },
    }),
  });
  const view = renderApp(`${page}?sample_ids=q1,q2`);
  expect(await screen.findByText('No features found')).toBeTruthy();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Upload Features/ }));
  await waitFor(() => expect(view.location()).toBe(`/datasets/${DATASET_ID}/features`));
});

test('nothing similar: No similar samples found', async () => {
  signedIn({
    [`POST ${api}/similar_items`]: () => ({
      body: { feature_name: 'clip', ignored: 0, approximate: false, items: [] },
    }),
  });
  renderApp(`${page}?sample_ids=q1`);
  expect(await screen.findByText('No similar samples found')).toBeTruthy();
  expect(screen.getByText('All dataset samples are in this subset already.')).toBeTruthy();
});

test('while the index builds: Loading similar items..., then the longer-wait message and Back to Explore', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  signedIn({
    // The first search on a feature is slow: it never answers within this test.
    [`POST ${api}/similar_items`]: () => new Promise(() => undefined),
  });
  const view = renderApp(`${page}?sample_ids=q1`);
  expect(await screen.findByText('Loading similar items...')).toBeTruthy();
  expect(screen.queryByTestId('similar-long-wait')).toBeNull();
  await act(() => vi.advanceTimersByTimeAsync(5000));
  const wait = await screen.findByTestId('similar-long-wait');
  expect(within(wait).getByText(/first search with a feature/)).toBeTruthy();
  await userEvent
    .setup({ advanceTimers: vi.advanceTimersByTime })
    .click(within(wait).getByRole('button', { name: /Back to Explore/ }));
  await waitFor(() => expect(view.location()).toBe(`/datasets/${DATASET_ID}/explore`));
});

test('without a valid license: Invalid License, with Go to Settings for admins only', async () => {
  signedIn({}, { licensed: false });
  const first = renderApp(`${page}?sample_ids=q1`);
  expect(await screen.findByRole('heading', { name: 'Invalid License' })).toBeTruthy();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Go to Settings/ }));
  await waitFor(() => expect(first.location()).toBe('/settings/license'));
  first.unmount();

  signedIn({}, { licensed: false, admin: false });
  renderApp(`${page}?sample_ids=q1`);
  expect(await screen.findByRole('heading', { name: 'Invalid License' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Go to Settings/ })).toBeNull();
});

const SUBSET_ID = '1a000000-0000-4000-8000-000000000001';
const subsetPage = `/datasets/${DATASET_ID}/subsets/${SUBSET_ID}/similar`;
const subsetRoutes = (sampleIds: string[]): Record<string, Handler> => ({
  [`GET ${api}/subsets/${SUBSET_ID}`]: () => ({
    body: {
      id: SUBSET_ID,
      name: 'night cats',
      description: null,
      dataset_id: DATASET_ID,
      data_level: 'image',
      num_items: sampleIds.length,
      enabled_for_performance: false,
      created: 0,
      updated: 0,
      sample_ids: sampleIds,
    },
  }),
});

test("a subset's items are the query, all ticked; the subset's items are never answered", async () => {
  const { calls } = signedIn(subsetRoutes(['q1', 'q2']));
  const view = renderApp(subsetPage);
  const back = await screen.findByRole('button', { name: /Back to night cats/ });
  expect(await screen.findAllByTestId('similar-card')).toHaveLength(2);
  const checks = screen.getAllByRole('checkbox');
  expect(checks.map((box) => (box as HTMLInputElement).checked)).toEqual([true, true]);
  expect(screen.getByText('Query items: 2 of 2 selected')).toBeTruthy();
  expect(calls.find((call) => call.path.endsWith('/similar_items'))!.body).toEqual({
    data_level: 'image',
    item_ids: ['q1', 'q2'],
    feature_name: 'clip',
    k: 100,
    exclude_ids: ['q1', 'q2'],
  });
  expect(screen.getByRole('link', { name: 'night cats' }).getAttribute('href')).toBe(
    `/datasets/${DATASET_ID}/subsets/${SUBSET_ID}`,
  );
  await userEvent.setup().click(back);
  await waitFor(() => expect(view.location()).toBe(`/datasets/${DATASET_ID}/subsets/${SUBSET_ID}`));
});

test('sample_ids pre-selects some of the subset items as the query', async () => {
  const { calls } = signedIn(subsetRoutes(['q1', 'q2', 'q3']));
  renderApp(`${subsetPage}?sample_ids=q2,elsewhere`);
  expect(await screen.findAllByTestId('similar-card')).toHaveLength(2);
  expect(screen.getByRole('checkbox', { name: 'q2' })).toHaveProperty('checked', true);
  expect(screen.getByRole('checkbox', { name: 'q1' })).toHaveProperty('checked', false);
  expect(calls.find((call) => call.path.endsWith('/similar_items'))!.body).toMatchObject({
    item_ids: ['q2'],
    exclude_ids: ['q1', 'q2', 'q3'],
  });

  // Ticking another subset item adds it to the query.
  await userEvent.setup().click(screen.getByRole('checkbox', { name: 'q1' }));
  await waitFor(() =>
    expect(calls.filter((call) => call.path.endsWith('/similar_items')).at(-1)!.body).toMatchObject(
      { item_ids: ['q1', 'q2'] },
    ),
  );
});

test('an unknown subset: Subset not found', async () => {
  signedIn({
    [`GET ${api}/subsets/${SUBSET_ID}`]: () => ({
      status: 404,
      body: { description: 'Subset not found', retriable: false },
    }),
  });
  renderApp(subsetPage);
  expect(await screen.findByText('Subset not found')).toBeTruthy();
  expect(screen.queryByText('Find Similar Settings')).toBeNull();
});
