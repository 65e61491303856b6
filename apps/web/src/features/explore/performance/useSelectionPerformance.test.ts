// The selection performance hook asks only for a selection or a filter that stood still, keeps
// the last numbers (stale) meanwhile, and tells a 413 apart from other failures.
import '../../../test/setup';
import type { ItemsSummaryRequest } from '@loupe/contracts';
import { act, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { fakeServer } from '../../../test/fakeServer';
import { renderHookWithProviders } from '../../../test/renderHookWithProviders';
import { planSummary, type SummaryPlan } from './selectionPerformanceRules';
import { useSelectionPerformance } from './useSelectionPerformance';

const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
const MODEL_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
const path = `/api/datasets/${DATASET_ID}/predictions/${MODEL_ID}/performance/items_summary`;

const selection = (ids: string[]) =>
  planSummary({
    dataLevel: 'image',
    filter: null,
    subsetId: null,
    selectedCount: ids.length,
    selectedIds: ids,
  });

function answering(status = 200) {
  return fakeServer({
    [`POST ${path}`]: (call) => {
      const body = call.body as ItemsSummaryRequest;
      if (status !== 200) return { status, body: { description: 'no', retriable: false } };
      const count = body.item_ids?.length ?? 100;
      return {
        body: { num_items: count, num_items_used: count, iou_threshold: null, metrics: [] },
      };
    },
  });
}

const render = (plan: SummaryPlan) =>
  renderHookWithProviders(
    (props: { plan: SummaryPlan }) =>
      useSelectionPerformance({ datasetId: DATASET_ID, predictionSetId: MODEL_ID, ...props }),
    { initialProps: { plan } },
  );

test('selections that change quickly are not asked; the one that stands is', async () => {
  const { calls } = answering();
  const view = render(selection(['a']));
  await waitFor(() => expect(view.result.current.summary?.num_items).toBe(1));
  act(() => view.rerender({ plan: selection(['a', 'b']) }));
  act(() => view.rerender({ plan: selection(['a', 'b', 'c']) }));
  // The first selection's numbers stay, marked stale, until the new ones arrive.
  expect(view.result.current.summary?.num_items).toBe(1);
  expect(view.result.current.stale).toBe(true);
  await waitFor(() => expect(view.result.current.summary?.num_items).toBe(3));
  expect(view.result.current.stale).toBe(false);
  expect(calls.map((call) => (call.body as ItemsSummaryRequest).item_ids)).toEqual([
    ['a'],
    ['a', 'b', 'c'],
  ]);
});

test('the same items in another order ask nothing new', async () => {
  const { calls } = answering();
  const view = render(selection(['a', 'b', 'c']));
  await waitFor(() => expect(view.result.current.summary?.num_items).toBe(3));
  act(() => view.rerender({ plan: selection(['c', 'a', 'b']) }));
  await waitFor(() => expect(view.result.current.stale).toBe(false));
  expect(calls).toHaveLength(1);
});

test('a 413 is "too many", anything else an error; a selection too large is not sent', async () => {
  const tooLarge = answering(413);
  const view = render(selection(['a']));
  await waitFor(() => expect(view.result.current.tooMany).toBe(true));
  expect(view.result.current.error).toBeNull();
  view.unmount();
  expect(tooLarge.calls).toHaveLength(1);

  answering(500);
  const failing = render(selection(['a']));
  await waitFor(() => expect(failing.result.current.error).toBeTruthy());
  expect(failing.result.current.tooMany).toBe(false);
  failing.unmount();

  const { calls } = answering();
  const huge = render({ kind: 'too-many', scope: 'selection' });
  expect(huge.result.current.tooMany).toBe(true);
  expect(calls).toHaveLength(0);
});
