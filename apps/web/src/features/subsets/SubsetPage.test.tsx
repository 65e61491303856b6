// A subset's page as a signed-in user meets it, through the real route table and a fake API.
import '../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, MODEL_ID, api, subset, subsetsServer } from './testData';

const night = subset(1, {
  name: 'night boats',
  sample_ids: ['img-1', 'img-2', 'img-3', 'img-4', 'img-5'],
});
const pageOf = (id: string) => `/datasets/${DATASET_ID}/subsets/${id}`;
const cards = () => screen.getAllByTestId('subset-card');

test("the subset's items in a grid, under the dataset's crumbs", async () => {
  subsetsServer({ subsets: [night] });
  renderApp(pageOf(night.id));
  expect(await screen.findByRole('heading', { name: 'night boats' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Datasets' }).getAttribute('href')).toBe('/datasets');
  expect((await screen.findByRole('link', { name: 'harbour-cams' })).getAttribute('href')).toBe(
    `/datasets/${DATASET_ID}/overview`,
  );
  expect(screen.getByTestId('subset-count').textContent).toBe('5 items');
  expect(screen.getByTestId('subset-level').textContent).toBe('Sample');
  await waitFor(() =>
    expect(window.__loupeTestEvents).toContainEqual({
      type: 'subset:rendered',
      subsetId: night.id,
      cards: 5,
      total: 5,
    }),
  );
  expect(cards().map((card) => card.getAttribute('data-item-id'))).toEqual(night.sample_ids);
});

test('while the subset loads: Loading subset', async () => {
  subsetsServer({
    subsets: [night],
    routes: { [`GET ${api}/subsets/${night.id}`]: () => new Promise(() => undefined) },
  });
  renderApp(pageOf(night.id));
  expect(await screen.findByText('Loading subset')).toBeTruthy();
});

test('an unknown subset: Subset not found; at a model route the crumb says Subset Not Found', async () => {
  subsetsServer({ subsets: [night] });
  const missing = '1a000000-0000-4000-8000-00000000abcd';
  const view = renderApp(pageOf(missing));
  expect(await screen.findByText('Subset not found')).toBeTruthy();
  view.unmount();

  subsetsServer({ subsets: [night] });
  renderApp(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/subsets/${missing}`);
  expect(await screen.findByRole('heading', { name: 'Subset Not Found' })).toBeTruthy();
  expect(screen.getByText('Subset not found')).toBeTruthy();
  expect(await screen.findByRole('link', { name: 'yolo-v9' })).toBeTruthy();
});

test('an empty subset: This subset has no items, with Explore Dataset', async () => {
  subsetsServer({ subsets: [subset(2, { sample_ids: [] })] });
  const view = renderApp(pageOf(subset(2).id));
  expect(await screen.findByText('This subset has no items')).toBeTruthy();
  expect(screen.getByText("When you add you'll see them here.")).toBeTruthy();
  expect((screen.getByRole('button', { name: /Delete All/ }) as HTMLButtonElement).disabled).toBe(
    true,
  );
  await userEvent
    .setup({ delay: null })
    .click(screen.getByRole('button', { name: /Explore Dataset/ }));
  await waitFor(() => expect(view.location()).toBe(`/datasets/${DATASET_ID}/explore`));
});

test('Export offers coco and csv as downloads of the export route', async () => {
  subsetsServer({ subsets: [night] });
  renderApp(pageOf(night.id));
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: /Export/ }));
  const coco = await screen.findByTestId('export-coco');
  const csv = screen.getByTestId('export-csv');
  const base = `${api}/subsets/${night.id}/export`;
  expect(coco.getAttribute('href')).toBe(`${base}?format=coco`);
  expect(csv.getAttribute('href')).toBe(`${base}?format=csv`);
  expect(csv.hasAttribute('download')).toBe(true);
});

test('a classification subset exports csv only', async () => {
  subsetsServer({ subsets: [night], datasetChange: { task_type: 'classification' } });
  renderApp(pageOf(night.id));
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: /Export/ }));
  expect((await screen.findByTestId('export-coco')).getAttribute('href')).toBeNull();
  expect(screen.getByTestId('export-csv').getAttribute('href')).toBe(
    `${api}/subsets/${night.id}/export?format=csv`,
  );
});

test("at a model route the export carries the model's predictions", async () => {
  subsetsServer({ subsets: [night] });
  renderApp(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/subsets/${night.id}`);
  await userEvent
    .setup({ delay: null })
    .click(await screen.findByRole('button', { name: /Export/ }));
  expect((await screen.findByTestId('export-csv')).getAttribute('href')).toBe(
    `${api}/subsets/${night.id}/export?format=csv&predictions_id=${MODEL_ID}`,
  );
});

test('Delete All removes every item after a confirmation', async () => {
  const { calls } = subsetsServer({ subsets: [night] });
  renderApp(pageOf(night.id));
  const user = userEvent.setup({ delay: null });
  await waitFor(() => expect(cards()).toHaveLength(5));
  await user.click(screen.getByRole('button', { name: /Delete All/ }));
  const dialog = await findDialog('Remove every item from "night boats"?');
  await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('This subset has no items')).toBeTruthy();
  expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
    removed_item_ids: night.sample_ids,
  });
});

test('select with click and Shift+click; find similar, clear', async () => {
  subsetsServer({ subsets: [night] });
  const view = renderApp(pageOf(night.id));
  const user = userEvent.setup({ delay: null });
  await waitFor(() => expect(cards()).toHaveLength(5));
  await user.click(cards()[1]!);
  await user.keyboard('{Shift>}');
  await user.click(cards()[3]!);
  await user.keyboard('{/Shift}');
  expect(cards().map((card) => card.getAttribute('aria-selected'))).toEqual([
    'false',
    'true',
    'true',
    'true',
    'false',
  ]);
  const bar = screen.getByTestId('subset-selection');
  expect(within(bar).getByText('3 selected')).toBeTruthy();
  await user.click(within(bar).getByText('Clear selection'));
  expect(screen.queryByTestId('subset-selection')).toBeNull();

  await user.click(cards()[4]!);
  await user.click(cards()[2]!);
  await user.click(
    within(screen.getByTestId('subset-selection')).getByRole('button', { name: /Find similar/ }),
  );
  // The query items in the subset's order.
  await waitFor(() =>
    expect(view.location()).toBe(`${pageOf(night.id)}/similar?sample_ids=img-3,img-5`),
  );
});

test('Remove from subset is queued, confirmed, and applied with the pending changes', async () => {
  const { calls } = subsetsServer({ subsets: [night] });
  renderApp(pageOf(night.id));
  const user = userEvent.setup({ delay: null });
  await waitFor(() => expect(cards()).toHaveLength(5));
  await user.click(cards()[0]!);
  await user.click(cards()[1]!);
  await user.click(
    within(screen.getByTestId('subset-selection')).getByRole('button', {
      name: /Remove from subset/,
    }),
  );
  const dialog = await findDialog('Remove 2 items from subset "night boats"?');
  await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
  const box = await screen.findByTestId('subset-pending');
  expect(within(box).getByText(/will be removed from subset "night boats"/)).toBeTruthy();
  expect(calls.some((call) => call.method === 'PUT')).toBe(false);

  await user.click(within(box).getByRole('button', { name: /Apply changes/ }));
  await waitFor(() => expect(cards()).toHaveLength(3));
  expect(calls.find((call) => call.method === 'PUT')!.body).toMatchObject({
    removed_item_ids: ['img-1', 'img-2'],
  });
  expect(screen.queryByTestId('subset-pending')).toBeNull();
});

test('the toolbar opens the explorer on the subset, its embeddings, and similar items to all', async () => {
  const objects = subset(3, {
    name: 'buoys',
    data_level: 'image_object',
    sample_ids: ['img-1#0', 'img-2#0'],
  });
  subsetsServer({ subsets: [objects] });
  const view = renderApp(pageOf(objects.id));
  const user = userEvent.setup({ delay: null });
  expect((await screen.findByTestId('subset-level')).textContent).toBe('Object');
  await user.click(screen.getByRole('button', { name: /Preview All in Embeddings/ }));
  await waitFor(() =>
    expect(view.location()).toBe(
      `/datasets/${DATASET_ID}/explore?subset_id=${objects.id}&level=image_object&view=embeddings`,
    ),
  );
  view.router.navigate(pageOf(objects.id));
  await user.click(await screen.findByRole('button', { name: /Open in Explorer/ }));
  await waitFor(() =>
    expect(view.location()).toBe(
      `/datasets/${DATASET_ID}/explore?subset_id=${objects.id}&level=image_object`,
    ),
  );
  view.router.navigate(pageOf(objects.id));
  await user.click(await screen.findByRole('button', { name: /Find Similar Items to All/ }));
  await waitFor(() =>
    expect(view.location()).toBe(`${pageOf(objects.id)}/similar?data_level=image_object`),
  );
});

test('without a valid license Delete All, Find Similar Items to All and Export are disabled', async () => {
  subsetsServer({ subsets: [night], licensed: false });
  renderApp(pageOf(night.id));
  await waitFor(() =>
    expect((screen.getByRole('button', { name: /Delete All/ }) as HTMLButtonElement).disabled).toBe(
      true,
    ),
  );
  for (const name of [/Find Similar Items to All/, /Export/]) {
    expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
  }
  expect(
    (screen.getByRole('button', { name: /Open in Explorer/ }) as HTMLButtonElement).disabled,
  ).toBe(false);
});
