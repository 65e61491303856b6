// The item viewer as a user meets it over the explorer's result: stepping, the filmstrip, boxes,
// keys, object visibility, the audio transcript, metadata search and failures.
import '../../test/setup';
import type { ExploreItem, ItemsRequest } from '@loupe/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { ThemeProvider } from '../../app/theme/ThemeProvider';
import { fakeServer, type Handler } from '../../test/fakeServer';
import { PendingChangesProvider } from '../curation';
import { ItemViewer, type ItemViewerProps } from './index';
import { DATASET_ID, imageItem, metadataField, viewerDataset } from '../../test/exploreData';

const api = `/api/datasets/${DATASET_ID}`;
/** Result rows: table row 1000 + position, so a mix-up of positions and rows shows. */
const ROWS = Uint32Array.from({ length: 300 }, (_, i) => 1000 + i);

let stageSize = { width: 800, height: 600 };

beforeEach(() => {
  stageSize = { width: 800, height: 600 };
  // happy-dom lays nothing out: give the image stage a size.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'image-stage' ? stageSize.width : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'image-stage' ? stageSize.height : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

function serve(
  routes: Record<string, Handler> = {},
  makeItem: (row: number) => ExploreItem = imageItem,
) {
  return fakeServer({
    [`POST ${api}/items`]: (call) => {
      const body = call.body as ItemsRequest;
      return { body: { version: body.version, items: (body.rows ?? []).map(makeItem) } };
    },
    [`GET ${api}/color_map`]: () => ({ body: { color_map: { car: '#ff0000' } } }),
    [`GET ${api}/metadata_info`]: () => ({
      body: {
        metadata_config: [
          metadataField({ id: 'brightness', label: 'Brightness' }),
          metadataField({ id: 'city', label: 'City', type: 'string', group: 'Uploaded' }),
        ],
      },
    }),
    ...routes,
  });
}

function Harness(props: Partial<ItemViewerProps> & { start?: number; onClosed?: () => void }) {
  const [index, setIndex] = useState(props.start ?? 0);
  const [open, setOpen] = useState(true);
  if (!open) return <p>closed</p>;
  return (
    <ItemViewer
      dataset={viewerDataset()}
      dataLevel="image"
      rows={ROWS}
      version={7}
      index={index}
      onIndexChange={setIndex}
      onClose={() => {
        setOpen(false);
        props.onClosed?.();
      }}
      {...props}
    />
  );
}

function renderViewer(props: Parameters<typeof Harness>[0] = {}) {
  const queryClient = createQueryClient();
  return render(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <PendingChangesProvider datasetId={DATASET_ID}>
          <Harness {...props} />
        </PendingChangesProvider>
      </QueryClientProvider>
    </ThemeProvider>,
  );
}

const counter = () => screen.getByTestId('viewer-counter').textContent;
const body = () => screen.getByTestId('item-viewer-body');
const boxes = () => screen.queryAllByTestId('object-box');
const itemCalls = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.path === `${api}/items`).map((call) => call.body as ItemsRequest);

test('arrow keys step through the result; crossing into the next 120 rows fetches that batch', async () => {
  const { calls } = serve();
  const shown: { id: string; index: number }[] = [];
  const listener = (event: Event) => shown.push((event as CustomEvent).detail);
  window.addEventListener('loupe:viewer-item', listener);
  renderViewer({ start: 105 });
  // The first render of the file pays for loading antd: allow for a loaded machine.
  await waitFor(() => expect(body().dataset.itemId).toBe('frame-1105.jpg'), { timeout: 15_000 });
  expect(screen.getByText('Item Details')).toBeTruthy();
  expect(counter()).toBe('106/300');
  expect(shown.at(-1)).toEqual({ id: 'frame-1105.jpg', index: 105 });
  // The window 95–115 lies in the first batch: one call for rows of positions 0–119.
  expect(itemCalls(calls)).toHaveLength(1);
  expect(itemCalls(calls)[0]).toMatchObject({ data_level: 'image', version: 7 });
  expect(itemCalls(calls)[0]!.rows).toEqual(Array.from(ROWS.subarray(0, 120)));
  expect(screen.getAllByTestId('filmstrip-thumb')).toHaveLength(21);

  const user = userEvent.setup();
  for (let i = 0; i < 5; i++) await user.keyboard('{ArrowRight}');
  // At 110 the window reaches 120: the second batch is fetched.
  await waitFor(() => expect(itemCalls(calls)).toHaveLength(2));
  expect(itemCalls(calls)[1]!.rows).toEqual(Array.from(ROWS.subarray(120, 240)));
  expect(counter()).toBe('111/300');
  await user.keyboard('{ArrowLeft}');
  await waitFor(() => expect(body().dataset.itemId).toBe('frame-1109.jpg'));
  expect(counter()).toBe('110/300');
  expect(shown.at(-1)).toEqual({ id: 'frame-1109.jpg', index: 109 });

  // A filmstrip click opens that neighbour; the current thumbnail is marked.
  await user.click(screen.getByRole('button', { name: 'Item 101' }));
  await waitFor(() => expect(counter()).toBe('101/300'));
  expect(screen.getByRole('button', { name: 'Item 101' }).getAttribute('aria-current')).toBe(
    'true',
  );
  window.removeEventListener('loupe:viewer-item', listener);
});

test('previous is disabled on the first item, next on the last; Escape closes', async () => {
  serve();
  const onClosed = vi.fn();
  renderViewer({ start: 0, onClosed });
  await waitFor(() => expect(body().dataset.itemId).toBe('frame-1000.jpg'));
  expect(screen.getByRole('button', { name: 'Previous item' }).hasAttribute('disabled')).toBe(true);
  const user = userEvent.setup();
  await user.keyboard('{ArrowLeft}');
  expect(counter()).toBe('1/300');
  await user.keyboard('{Escape}');
  expect(onClosed).toHaveBeenCalledTimes(1);
});

test('ground truths are solid boxes with labels, predictions dashed; b hides and shows them', async () => {
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  const [gt, pred] = boxes();
  expect(gt!.dataset.objectType).toBe('gt');
  expect(gt!.style.borderStyle).toBe('solid');
  // The dataset colour map names car; person gets a palette colour.
  expect(gt!.style.borderColor).toMatch(/#ff0000|rgb\(255, 0, 0\)/);
  expect(pred!.style.borderStyle).toBe('dashed');
  expect(screen.getAllByTestId('object-label').map((label) => label.textContent)).toEqual([
    'car',
    'person 0.87',
  ]);
  // The 640×480 image fitted into 800×600 is 800 wide: the box 0.1–0.5 is 320 px wide.
  expect(gt!.style.width).toBe('320px');

  const user = userEvent.setup();
  await user.keyboard('b');
  expect(boxes()).toHaveLength(0);
  await user.keyboard('b');
  expect(boxes()).toHaveLength(2);
});

test('labels are hidden when the image is shown 80 px or smaller', async () => {
  stageSize = { width: 80, height: 80 };
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  expect(screen.queryAllByTestId('object-label')).toHaveLength(0);
});

test('R rotates a quarter turn clockwise, Shift+R back; boxes follow', async () => {
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  const stage = screen.getByTestId('image-stage');
  const user = userEvent.setup();
  await user.keyboard('r');
  expect(stage.dataset.rotation).toBe('90');
  // Turned, the 480×640 image fits 600 high: the car box (0.1–0.5 of 640 wide) is now 240 tall.
  expect(boxes()[0]!.style.height).toBe('240px');
  await user.keyboard('{Shift>}R{/Shift}');
  expect(stage.dataset.rotation).toBe('0');
  await user.keyboard('{Shift>}R{/Shift}');
  expect(stage.dataset.rotation).toBe('270');
  await user.click(screen.getByRole('button', { name: 'Rotate right (R)' }));
  expect(stage.dataset.rotation).toBe('0');
});

test('zoom buttons step by 1.2', async () => {
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Zoom in' }));
  expect(screen.getByTestId('zoom-percent').textContent).toBe('120%');
  expect(boxes()[0]!.style.width).toBe('384px');
  await user.click(screen.getByRole('button', { name: 'Zoom out' }));
  await user.click(screen.getByRole('button', { name: 'Zoom out' }));
  expect(screen.getByTestId('zoom-percent').textContent).toBe('83%');
});

test('the wheel zooms 1.04 per notch towards the pointer', async () => {
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  const stage = screen.getByTestId('image-stage');
  act(() => {
    stage.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true, cancelable: true }));
  });
  expect(screen.getByTestId('zoom-percent').textContent).toBe('104%');
  act(() => {
    stage.dispatchEvent(new WheelEvent('wheel', { deltaY: 300, bubbles: true, cancelable: true }));
  });
  // Three notches out from 1.04: 1.04 / 1.04³ = 0.9246.
  expect(screen.getByTestId('zoom-percent').textContent).toBe('92%');
});

test('object groups: Deselect all hides a group, Select All shows it; a click selects one object', async () => {
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  const predictions = screen.getByTestId('object-group-Predictions');
  const user = userEvent.setup();
  await user.click(within(predictions).getByRole('button', { name: 'Deselect all' }));
  expect(boxes().map((box) => box.dataset.objectType)).toEqual(['gt']);
  await user.click(within(predictions).getByRole('button', { name: 'Select All' }));
  expect(boxes().map((box) => box.dataset.objectType)).toEqual(['gt', 'pred']);
  const groundTruths = screen.getByTestId('object-group-Ground Truths');
  await user.click(within(groundTruths).getByRole('checkbox'));
  expect(boxes().map((box) => box.dataset.objectType)).toEqual(['pred']);
  await user.click(within(groundTruths).getByRole('button', { name: 'Select All' }));

  // A click selects one object; with Ctrl it toggles another into the selection.
  await user.click(boxes()[0]!);
  expect(boxes().map((box) => box.dataset.selected ?? null)).toEqual(['true', null]);
  await user.click(boxes()[1]!);
  expect(boxes().map((box) => box.dataset.selected ?? null)).toEqual([null, 'true']);
  fireEvent.click(boxes()[0]!, { ctrlKey: true });
  expect(boxes().map((box) => box.dataset.selected ?? null)).toEqual(['true', 'true']);

  // The next item starts with everything visible and nothing selected.
  await user.click(within(predictions).getByRole('button', { name: 'Deselect all' }));
  await user.keyboard('{ArrowRight}');
  await waitFor(() => expect(body().dataset.itemId).toBe('frame-1001.jpg'));
  expect(boxes().map((box) => box.dataset.selected ?? null)).toEqual([null, null]);
});

test('metadata: grouped, Card config first, searchable with No matches found.', async () => {
  serve();
  renderViewer({ cardConfigIds: ['city'] });
  const groups = await screen.findAllByTestId('metadata-group');
  expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual([
    'Card config',
    'Image',
    'Uploaded',
  ]);
  expect(within(groups[1]!).getByText('0.512')).toBeTruthy();
  const user = userEvent.setup();
  const search = screen.getByRole('searchbox', { name: 'Search metadata' });
  await user.type(search, 'bright');
  expect(screen.getAllByTestId('metadata-group').map((g) => g.getAttribute('aria-label'))).toEqual([
    'Image',
  ]);
  // Typing in the search box does not step the viewer.
  expect(counter()).toBe('1/300');
  await user.clear(search);
  await user.type(search, 'nothing like this');
  expect(screen.getByText('No matches found.')).toBeTruthy();
});

test("a failing items call shows 'Failed to load sample'", async () => {
  serve({
    [`POST ${api}/items`]: () => ({
      status: 409,
      body: { description: 'version 7 is stale', retriable: false },
    }),
  });
  const onClosed = vi.fn();
  renderViewer({ onClosed });
  expect(await screen.findByText('Failed to load sample')).toBeTruthy();
  const close = screen
    .getAllByRole('button', { name: 'Close' })
    .find((button) => button.textContent === 'Close');
  await userEvent.setup().click(close!);
  expect(onClosed).toHaveBeenCalled();
});

test("an image that fails to load says 'Unable to load image' and hides the boxes", async () => {
  serve();
  renderViewer();
  await waitFor(() => expect(boxes()).toHaveLength(2));
  act(() => {
    screen.getByTestId('viewer-image').dispatchEvent(new Event('error'));
  });
  expect(await screen.findByText('Unable to load image')).toBeTruthy();
  expect(boxes()).toHaveLength(0);
});

test('image-object: the crop with offset and zoom level sliders (default 80); no crop shows the whole image', async () => {
  serve({}, (row) =>
    imageItem(row, {
      data_level: 'image_object',
      id: `frame-${row}.jpg#0`,
      crop: row === 1000 ? [0.25, 0.25, 0.75, 0.75] : null,
      objects: [
        { id: `frame-${row}.jpg#0`, label: 'car', type: 'gt', coords: [0.25, 0.25, 0.75, 0.75] },
      ],
    }),
  );
  renderViewer({ dataLevel: 'image_object' });
  await waitFor(() => expect(boxes()).toHaveLength(1));
  const zoomLevel = screen.getByRole('slider', { name: 'Zoom level' });
  expect(zoomLevel.getAttribute('aria-valuenow')).toBe('80');
  expect(
    screen.getByRole('slider', { name: 'Bounding crop offset' }).getAttribute('aria-valuemax'),
  ).toBe('50');
  // Zoomed in on the crop, the half-size box is wider than half the 800 px view.
  const zoomedWidth = parseFloat(boxes()[0]!.style.width);
  expect(zoomedWidth).toBeGreaterThan(400);

  await userEvent.setup().keyboard('{ArrowRight}');
  await waitFor(() => expect(body().dataset.itemId).toBe('frame-1001.jpg#0'));
  expect(screen.queryByRole('slider', { name: 'Zoom level' })).toBeNull();
  expect(boxes()[0]!.style.width).toBe('400px');
});

test('audio: transcript and prediction aligned with word error types; Space plays', async () => {
  serve({}, (row) => ({
    ...imageItem(row),
    data_level: 'audio',
    media_type: 'audio',
    src: `/api/media/${row}.wav`,
    spectrogram_src: `/api/spectrograms/${row}.webp`,
    width: null,
    height: null,
    duration: 3.2,
    objects: [],
    transcript: 'the cat sat on the mat',
    prediction: {
      label: null,
      score: null,
      probabilities: null,
      values: null,
      mask_src: null,
      transcript: 'the cat sit on mat',
    },
  }));
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  renderViewer({
    dataLevel: 'audio',
    dataset: viewerDataset({
      task_type: 'automatic_speech_recognition',
      min_duration: 1,
      max_duration: 6,
    }),
  });
  await screen.findByTestId('transcript-alignment');
  expect(screen.getAllByTestId('word-column').map((column) => column.dataset.type)).toEqual([
    '-',
    '-',
    'S',
    '-',
    'D',
    '-',
  ]);
  expect(
    screen
      .getAllByTestId('word-error-type')
      .map((type) => type.textContent)
      .join(''),
  ).toBe('--S-D-');
  const slider = screen.getByRole('slider', { name: 'Visible duration' });
  expect(slider.getAttribute('aria-valuemin')).toBe('1');
  // The dataset's clips run to 6 s, this one to 3.2: no window longer than the clip.
  expect(slider.getAttribute('aria-valuemax')).toBe('3.2');
  await userEvent.setup().keyboard(' ');
  expect(play).toHaveBeenCalledTimes(1);
});
