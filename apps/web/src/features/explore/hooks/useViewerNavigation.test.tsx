// Opening, stepping and closing the viewer as the URL records them, and finding the item's id
// for a position (the grid's batch) or a map point (its row).
import { act, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import '../../../test/setup';
import { imageItem } from '../../../test/exploreData';
import { fakeServer } from '../../../test/fakeServer';
import { renderHookWithProviders } from '../../../test/renderHookWithProviders';
import type { BatchContext } from './useItemBatches';
import { useExploreState } from './useExploreState';
import { useViewerNavigation } from './useViewerNavigation';

const DATASET_ID = 'd1';
const items = `/api/datasets/${DATASET_ID}/items`;
const levels = ['image' as const];
const rows = new Uint32Array([10, 11, 12]);
const context: BatchContext = {
  datasetId: DATASET_ID,
  dataLevel: 'image',
  rowsQuery: { data_level: 'image', sort: [], filter: null },
  rows,
  version: 7,
};

function server() {
  return fakeServer({
    [`POST ${items}`]: ({ body }) => {
      const request = body as { rows?: number[]; item_ids?: string[] };
      const asked = request.rows ?? request.item_ids!.map((id) => Number(/\d+/.exec(id)![0]));
      return { body: { items: asked.map((row) => imageItem(row)) } };
    },
  });
}

function renderNavigation(path = '/explore') {
  return renderHookWithProviders(
    () => {
      const { state, update } = useExploreState(levels);
      const viewer = useViewerNavigation({
        datasetId: DATASET_ID,
        dataLevel: 'image',
        itemId: state.item,
        rows,
        version: 7,
        context,
        update,
      });
      return { state, viewer };
    },
    { path },
  );
}

test('opening puts the id in the URL at its position, stepping follows, closing removes it', async () => {
  const { calls } = server();
  const view = renderNavigation();
  act(() => view.result.current.viewer.onOpen(1, imageItem(11)));
  expect(view.location()).toBe('/explore?item=frame-11.jpg');
  expect(view.result.current.viewer.openPosition).toBe(1);

  act(() => view.result.current.viewer.onIndexChange(2));
  expect(view.result.current.viewer.openPosition).toBe(2);
  // The id of position 2 comes from the grid's batch (positions 0…119 of these rows).
  await waitFor(() => expect(view.location()).toBe('/explore?item=frame-12.jpg'));
  expect(calls.map((call) => call.body)).toContainEqual({
    data_level: 'image',
    rows: [10, 11, 12],
    version: 7,
  });

  act(() => view.result.current.viewer.onClose());
  expect(view.location()).toBe('/explore');
  expect(view.result.current.viewer.openPosition).toBeNull();
});

test('a link naming an item finds its position by looking the item up', async () => {
  server();
  const view = renderNavigation('/explore?item=frame-12.jpg');
  await waitFor(() => expect(view.result.current.viewer.openPosition).toBe(2));
});

test('a map point opens its item; a point of another table version opens it without a position', async () => {
  server();
  const view = renderNavigation();
  act(() => view.result.current.viewer.onOpenPoint(11, 7));
  await waitFor(() => expect(view.location()).toBe('/explore?item=frame-11.jpg'));
  expect(view.result.current.viewer.openPosition).toBe(1);

  act(() => view.result.current.viewer.onClose());
  act(() => view.result.current.viewer.onOpenPoint(12, 6));
  await waitFor(() => expect(view.location()).toBe('/explore?item=frame-12.jpg'));
  // Looked up by id instead: row 12 is position 2 of the current rows.
  await waitFor(() => expect(view.result.current.viewer.openPosition).toBe(2));
});

test('after the open item left the result, stepping on keeps the viewer open while the URL catches up', async () => {
  // frame-11.jpg was deleted: looking it up by id finds nothing.
  fakeServer({
    [`POST ${items}`]: ({ body }) => {
      const request = body as { rows?: number[]; item_ids?: string[] };
      if (request.rows) return { body: { items: request.rows.map((row) => imageItem(row)) } };
      const found = request.item_ids!.filter((id) => id !== 'frame-11.jpg');
      return { body: { items: found.map((id) => imageItem(Number(/\d+/.exec(id)![0]))) } };
    },
  });
  // Every position the viewer was rendered with: the URL updates in a transition, which may
  // commit after the navigation's own state, and the viewer unmounts on a null position.
  const positions: (number | null)[] = [];
  const view = renderHookWithProviders(
    () => {
      const { state, update } = useExploreState(levels);
      const viewer = useViewerNavigation({
        datasetId: DATASET_ID,
        dataLevel: 'image',
        itemId: state.item,
        rows,
        version: 7,
        context,
        update,
      });
      if (state.item !== null) positions.push(viewer.openPosition);
      return { state, viewer };
    },
    { path: '/explore' },
  );
  act(() => view.result.current.viewer.onOpen(1, imageItem(11)));
  act(() => view.result.current.viewer.onIndexChange(2));
  await waitFor(() => expect(view.location()).toBe('/explore?item=frame-12.jpg'));
  await waitFor(() => expect(view.result.current.viewer.openPosition).toBe(2));
  expect(positions).not.toContain(null);
  expect(positions.at(-1)).toBe(2);
});

test('closing before a step found its id leaves the viewer closed', async () => {
  const { calls } = server();
  const view = renderNavigation();
  act(() => view.result.current.viewer.onOpen(1, imageItem(11)));
  act(() => {
    view.result.current.viewer.onIndexChange(2);
    view.result.current.viewer.onClose();
  });
  await waitFor(() => expect(calls.some((call) => 'rows' in (call.body as object))).toBe(true));
  // The batch answered after the close: its id does not reopen the viewer.
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(view.location()).toBe('/explore');
  expect(view.result.current.viewer.openPosition).toBeNull();
});
