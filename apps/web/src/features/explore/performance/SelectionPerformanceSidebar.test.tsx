// The explorer's performance sidebar under a model: numbers of the whole result, of the filter,
// of the selection once it stands still; the 413 and failure texts; folding it away.
import '../../../test/setup';
import type { ItemsSummaryRequest, ItemsSummaryResponse } from '@loupe/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { Call, Handler } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';
import {
  DATASET_ID,
  exploreModel,
  exploreServer,
  explorePath,
  MODEL_ID,
  modelExplorePath,
} from '../testData';

const summaryPath = `/api/datasets/${DATASET_ID}/predictions/${MODEL_ID}/performance/items_summary`;
const model = exploreModel();

/** A detection summary whose numbers say how many ids (or 12 for a filter) it was asked for. */
function summaryOf(body: ItemsSummaryRequest): ItemsSummaryResponse {
  const count = body.item_ids?.length ?? 12;
  return {
    num_items: count,
    num_items_used: count - 1,
    iou_threshold: 0.5,
    metrics: [
      { metric_name: 'fn', value: count },
      { metric_name: 'precision', value: 0.875 },
      { metric_name: 'recall', value: count / 100 },
      { metric_name: 'f1_score', value: null },
      { metric_name: 'tp', value: 7 },
      { metric_name: 'fp', value: 1 },
    ],
  };
}

function server(
  summary: Handler = (call) => ({ body: summaryOf(call.body as ItemsSummaryRequest) }),
) {
  return exploreServer({
    routes: {
      'GET /api/dataset/models': () => ({ body: [model] }),
      [`POST ${summaryPath}`]: summary,
    },
  });
}

const summaryCalls = (calls: Call[]) =>
  calls.filter((call) => call.path === summaryPath).map((call) => call.body as ItemsSummaryRequest);
const sidebar = () => screen.findByTestId('selection-performance');
const metric = (id: string) => screen.getByTestId(`selection-metric-${id}`).textContent;
const cards = () => screen.getAllByTestId('item-card');

async function gridDrawn() {
  await waitFor(
    () => expect(screen.getByTestId('explore-grid').getAttribute('data-rendered-cards')).toBe('12'),
    { timeout: 15_000 },
  );
}

test('without a selection the sidebar shows the slice metrics of every item, formatted by type', async () => {
  const { calls } = server();
  renderApp(modelExplorePath);
  const panel = await sidebar();
  await within(panel).findByTestId('selection-metric-precision');
  expect(within(panel).getByTestId('selection-performance-scope').textContent).toBe('All items');
  expect(summaryCalls(calls)[0]).toEqual({ data_level: 'image', filter: null });
  // Catalogue order (precision, recall, F1, TP, FP, FN) whatever order the server answers in.
  const labels = [...panel.querySelectorAll('.ant-descriptions-item-label')].map(
    (label) => label.textContent,
  );
  expect(labels).toEqual([
    'Precision',
    'Recall',
    'F1',
    'TP',
    'FP',
    'FN',
    'Items',
    'With a prediction',
  ]);
  expect(metric('precision')).toBe('87.50%');
  expect(metric('recall')).toBe('12.00%');
  expect(metric('f1_score')).toBe('–');
  expect(metric('tp')).toBe('7');
  expect(screen.getByTestId('selection-num-items').textContent).toBe('12');
  expect(screen.getByTestId('selection-num-items-used').textContent).toBe('11');
  expect(within(panel).getByText('Objects matched at IoU 0.5')).toBeTruthy();
});

test('a filter in the URL is the scope: its numbers are asked with the filter', async () => {
  const filter = {
    type: 'and',
    children: [{ type: 'numeric', metadata_id: 'width', op: 'between', value: [30, null] }],
  };
  const { calls } = server();
  renderApp(`${modelExplorePath}?filter=${encodeURIComponent(JSON.stringify(filter))}`);
  const panel = await sidebar();
  await within(panel).findByTestId('selection-metric-precision');
  expect(within(panel).getByTestId('selection-performance-scope').textContent).toBe(
    'Items matching the filter',
  );
  expect(summaryCalls(calls)).toEqual([{ data_level: 'image', filter }]);
});

test('a selection is asked once it stands still, by its item ids, and replaces the filter numbers', async () => {
  const { calls } = server();
  renderApp(modelExplorePath);
  await gridDrawn();
  await within(await sidebar()).findByTestId('selection-metric-precision');
  fireEvent.click(cards()[2]!);
  fireEvent.click(cards()[3]!);
  fireEvent.click(cards()[5]!);
  await waitFor(() => expect(screen.getByTestId('selection-num-items').textContent).toBe('3'));
  expect(screen.getByTestId('selection-performance-scope').textContent).toBe('3 selected items');
  expect(metric('recall')).toBe('3.00%');
  // One call for the whole selection: the clicks in between asked nothing.
  const asked = summaryCalls(calls);
  expect(asked).toHaveLength(2);
  expect(asked[1]).toEqual({ data_level: 'image', item_ids: ['img-2', 'img-3', 'img-5'] });

  // Clearing the selection goes back to every item (answered from the cache).
  fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
  await waitFor(() => expect(screen.getByTestId('selection-num-items').textContent).toBe('12'));
  expect(screen.getByTestId('selection-performance-scope').textContent).toBe('All items');
});

test('a payload-too-large answer suggests a subset', async () => {
  server(() => ({
    status: 413,
    body: {
      description: 'Too many items selected. Create a subset to view performance.',
      retriable: false,
    },
  }));
  renderApp(modelExplorePath);
  const panel = await sidebar();
  await within(panel).findByText('Too many items selected. Create a subset to view performance.');
  expect(within(panel).queryByText('Failed to load average metrics')).toBeNull();
});

test('another failure says "Failed to load average metrics" and Retry asks again', async () => {
  let fail = true;
  const { calls } = server((call) =>
    fail
      ? { status: 500, body: { description: 'boom', retriable: false } }
      : { body: summaryOf(call.body as ItemsSummaryRequest) },
  );
  renderApp(modelExplorePath);
  const panel = await sidebar();
  await within(panel).findByText('Failed to load average metrics');
  fail = false;
  fireEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
  await within(panel).findByTestId('selection-metric-precision');
  expect(summaryCalls(calls)).toHaveLength(2);
});

test('the sidebar folds into a button, and stays folded on the next visit', async () => {
  server();
  const view = renderApp(modelExplorePath);
  const panel = await sidebar();
  fireEvent.click(within(panel).getByRole('button', { name: 'Hide performance' }));
  await waitFor(() => expect(screen.queryByTestId('selection-performance')).toBeNull());
  expect(screen.getByRole('button', { name: 'Show performance' })).toBeTruthy();
  view.unmount();

  renderApp(modelExplorePath);
  await screen.findByRole('button', { name: 'Show performance' });
  expect(screen.queryByTestId('selection-performance')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Show performance' }));
  await sidebar();
});

test("the dataset's explorer has no performance sidebar", async () => {
  const { calls } = server();
  renderApp(explorePath);
  await gridDrawn();
  expect(screen.queryByTestId('selection-performance')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Show performance' })).toBeNull();
  expect(summaryCalls(calls)).toHaveLength(0);
});
