// The subsets table as a signed-in user meets it, through the real route table and a fake API.
import '../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { renderApp } from '../../test/renderApp';
import { ISSUES_TABLE_PAGE_SIZE_KEY } from './subsetRules';
import { DATASET_ID, MODEL_ID, api, subset, subsetsServer } from './testData';

const page = `/datasets/${DATASET_ID}/subsets`;
const twelve = Array.from({ length: 12 }, (_, i) => subset(i + 1));
const names = () => screen.getAllByTestId('subset-link').map((link) => link.textContent);

test('pages of 10 by default; rows open the subset', async () => {
  subsetsServer({ subsets: twelve });
  const view = renderApp(page);
  expect(await screen.findByRole('heading', { name: 'Subsets' })).toBeTruthy();
  await waitFor(() => expect(names()).toHaveLength(10));
  expect(screen.getByText('12 subsets')).toBeTruthy();
  expect(window.__loupeTestEvents).toContainEqual({
    type: 'subsets:rendered',
    rows: 10,
    total: 12,
  });
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByTitle('2'));
  expect(names()).toEqual(['subset-11', 'subset-12']);
  await user.click(screen.getByRole('link', { name: 'subset-12' }));
  await waitFor(() =>
    expect(view.location()).toBe(`/datasets/${DATASET_ID}/subsets/${subset(12).id}`),
  );
});

test('search matches names', async () => {
  subsetsServer({ subsets: twelve });
  renderApp(page);
  await waitFor(() => expect(names()).toHaveLength(10));
  const user = userEvent.setup({ delay: null });
  const search = screen.getByRole('searchbox', { name: 'Search subsets' });
  await user.type(search, 'SUBSET-1');
  expect(names()).toEqual(['subset-10', 'subset-11', 'subset-12']);
  expect(screen.getByText('3 of 12 subsets')).toBeTruthy();
  await user.clear(search);
  await user.type(search, 'nothing');
  expect(screen.getByText('No subsets matching "nothing"')).toBeTruthy();
});

test('columns sort: items ascending then descending, names', async () => {
  subsetsServer({ subsets: twelve });
  renderApp(page);
  await waitFor(() => expect(names()).toHaveLength(10));
  const user = userEvent.setup({ delay: null });
  const table = screen.getByTestId('subsets-table');
  // subset-12 has the fewest items.
  await user.click(within(table).getByText('Items'));
  expect(names().slice(0, 2)).toEqual(['subset-12', 'subset-11']);
  await user.click(within(table).getByText('Items'));
  expect(names().slice(0, 2)).toEqual(['subset-01', 'subset-02']);
  await user.click(within(table).getByText('Created'));
  expect(names().slice(0, 2)).toEqual(['subset-12', 'subset-11']);
});

test('the page size is changed with the size changer and remembered locally', async () => {
  subsetsServer({ subsets: twelve });
  const first = renderApp(page);
  await waitFor(() => expect(names()).toHaveLength(10));
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByText('10 / page'));
  await user.click(await screen.findByText('20 / page'));
  await waitFor(() => expect(names()).toHaveLength(12));
  expect(window.localStorage.getItem(ISSUES_TABLE_PAGE_SIZE_KEY)).toBe('20');
  first.unmount();

  renderApp(page);
  await waitFor(() => expect(names()).toHaveLength(12));
  expect(screen.getByText('20 / page')).toBeTruthy();
});

test('rename: a taken name shows the 409 message on the field; a free one is saved', async () => {
  const { calls } = subsetsServer({ subsets: [subset(1), subset(2)] });
  renderApp(page);
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: 'Rename subset-02' }));
  const dialog = await findDialog('Rename subset "subset-02"');
  const name = within(dialog).getByLabelText('Name');
  await user.clear(name);
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByText('Subset name is required.')).toBeTruthy();

  await user.type(name, 'subset-01');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByText('Subset with that name already exists.')).toBeTruthy();

  await user.clear(name);
  await user.type(name, 'night boats');
  await user.type(within(dialog).getByLabelText('Description'), 'After 22:00');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(names()).toContain('night boats'));
  expect(screen.getAllByText('After 22:00').length).toBeGreaterThan(0);
  expect(calls.filter((call) => call.method === 'PUT').at(-1)!.body).toEqual({
    name: 'night boats',
    description: 'After 22:00',
  });
});

test('delete asks first; cancelling keeps the subset', async () => {
  const { calls } = subsetsServer({ subsets: [subset(1), subset(2)] });
  renderApp(page);
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: 'Delete subset-01' }));
  const dialog = await findDialog('Delete subset "subset-01"?');
  expect(
    within(dialog).getByText('The subset is deleted; its items stay in the dataset.'),
  ).toBeTruthy();
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  expect(names()).toEqual(['subset-01', 'subset-02']);
});

test('a confirmed delete removes the subset', async () => {
  const { calls } = subsetsServer({ subsets: [subset(1), subset(2)] });
  renderApp(page);
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: 'Delete subset-01' }));
  const dialog = await findDialog('Delete subset "subset-01"?');
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(names()).toEqual(['subset-02']));
  expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
    `${api}/subsets/${subset(1).id}`,
  ]);
});

test('a failed delete names the server reason', async () => {
  subsetsServer({
    subsets: [subset(1)],
    routes: {
      [`DELETE ${api}/subsets/${subset(1).id}`]: () => ({
        status: 403,
        body: { description: 'Your license expired.', retriable: false },
      }),
    },
  });
  renderApp(page);
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: 'Delete subset-01' }));
  const dialog = await findDialog('Delete subset "subset-01"?');
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('Failed deleting subset')).toBeTruthy();
  expect(screen.getByText('Your license expired.')).toBeTruthy();
  expect(names()).toEqual(['subset-01']);
});

test('the performance toggle saves at once', async () => {
  const { calls } = subsetsServer({ subsets: [subset(1)] });
  renderApp(page);
  const toggle = await screen.findByRole('switch', { name: 'Use subset-01 for performance' });
  expect(toggle.getAttribute('aria-checked')).toBe('false');
  await userEvent.setup().click(toggle);
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
  expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
    enabled_for_performance: true,
  });
});

test('a refused toggle goes back and says Failed updating subset', async () => {
  subsetsServer({
    subsets: [subset(1)],
    routes: {
      [`PUT ${api}/subsets/${subset(1).id}`]: () => ({
        status: 403,
        body: { description: 'Your license expired.', retriable: false },
      }),
    },
  });
  renderApp(page);
  const toggle = await screen.findByRole('switch', { name: 'Use subset-01 for performance' });
  await userEvent.setup({ delay: null }).click(toggle);
  expect(await screen.findByText('Failed updating subset')).toBeTruthy();
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
});

test('without a valid license the writes are disabled', async () => {
  subsetsServer({ subsets: [subset(1)], licensed: false });
  renderApp(page);
  const rename = await screen.findByRole('button', { name: 'Rename subset-01' });
  await waitFor(() => expect((rename as HTMLButtonElement).disabled).toBe(true));
  expect(
    (screen.getByRole('button', { name: 'Delete subset-01' }) as HTMLButtonElement).disabled,
  ).toBe(true);
  expect(
    screen.getByRole('switch', { name: 'Use subset-01 for performance' }).hasAttribute('disabled'),
  ).toBe(true);
  expect(rename.closest('[data-disabled-reason]')!.getAttribute('data-disabled-reason')).toBe(
    'A valid license is needed to change subsets.',
  );
});

test('no subsets: There are no subsets yet, with Explore Dataset', async () => {
  subsetsServer();
  const view = renderApp(page);
  expect(await screen.findByText('There are no subsets yet')).toBeTruthy();
  await userEvent.setup().click(screen.getByRole('button', { name: /Explore Dataset/ }));
  await waitFor(() => expect(view.location()).toBe(`/datasets/${DATASET_ID}/explore`));
});

test('a failed list: Subsets failed to load', async () => {
  subsetsServer({
    routes: {
      [`GET ${api}/subsets`]: () => ({
        status: 500,
        body: { description: 'Database unavailable', retriable: false },
      }),
    },
  });
  renderApp(page);
  expect(await screen.findByText('Subsets failed to load')).toBeTruthy();
});

test("at a model's route: the model's crumbs, rows open the model's subset page", async () => {
  subsetsServer({ subsets: [subset(1)] });
  const view = renderApp(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/subsets`);
  expect(await screen.findByRole('link', { name: 'yolo-v9' })).toBeTruthy();
  await userEvent.setup().click(await screen.findByRole('link', { name: 'subset-01' }));
  await waitFor(() =>
    expect(view.location()).toBe(
      `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/subsets/${subset(1).id}`,
    ),
  );
});

test('the overview shows Subsets when there are some, leading to the table', async () => {
  subsetsServer({ subsets: [subset(1), subset(2)] });
  const view = renderApp(`/datasets/${DATASET_ID}/overview`);
  const stat = await screen.findByTestId('stat-subsets');
  expect(stat.getAttribute('aria-label')).toBe('Subsets: 2');
  await userEvent.setup().click(stat);
  await waitFor(() => expect(view.location()).toBe(page));
  view.unmount();

  subsetsServer();
  renderApp(`/datasets/${DATASET_ID}/overview`);
  expect(await screen.findByTestId('stat-samples')).toBeTruthy();
  expect(screen.queryByTestId('stat-subsets')).toBeNull();
});
