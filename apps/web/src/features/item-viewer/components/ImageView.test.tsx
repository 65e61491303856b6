// The image view's class legend and label chips: a semantic-segmentation item lists the classes
// of its label maps and hides a class's pixels when its box is unticked; the ground truth and the
// prediction layers toggle; close boxes get chips that do not overlap.
import '../../../test/setup';
import type { ExploreItem } from '@loupe/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { LabelMapPixels, Rgb } from '../../../lib/labelMap';
import { imageItem, object } from '../../../test/exploreData';
import { ImageView, type ImageViewProps } from './ImageView';

// happy-dom decodes no images and has no 2-D canvas: label maps come from here, and each draw
// records the palette it was given (the classes whose pixels it paints).
const maps = new Map<string, LabelMapPixels>();
const draws: { layer: string; values: number[] }[] = [];
vi.mock('../../../lib/labelMapImage', () => ({
  useLabelMap: (src: string | null) => (src ? (maps.get(src) ?? null) : null),
  cssColorToRgb: (): Rgb => [1, 2, 3],
  drawLabelMap: (canvas: HTMLCanvasElement, _pixels: LabelMapPixels, palette: Map<number, Rgb>) => {
    draws.push({ layer: canvas.dataset.layer ?? '', values: [...palette.keys()] });
    return palette.size;
  },
}));

const LABEL_MAP = { '0': 'background', '1': 'road', '2': 'car' };
// 4 × 2: half road, a quarter car, a quarter background.
maps.set('/gt.png', { width: 4, height: 2, values: Uint8Array.from([1, 1, 2, 0, 1, 1, 2, 0]) });
maps.set('/pred.png', { width: 4, height: 2, values: Uint8Array.from([1, 1, 1, 2, 1, 1, 1, 2]) });

beforeEach(() => {
  draws.length = 0;
  window.localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'image-stage' ? 800 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'image-stage' ? 600 : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

function renderView(item: ExploreItem, change: Partial<ImageViewProps> = {}) {
  const props: ImageViewProps = {
    item,
    variant: 'image',
    colorOf: (label) => (label === 'car' ? '#ff0000' : '#00ff00'),
    overlaysVisible: true,
    onToggleOverlays: () => undefined,
    hidden: new Set(),
    selected: new Set(),
    onObjectClick: () => undefined,
    turns: 0,
    onRotate: () => undefined,
    ...change,
  };
  return render(<ImageView {...props} />);
}

const segmentationItem = imageItem(0, {
  objects: [],
  mask_src: '/gt.png',
  prediction: {
    label: null,
    score: null,
    probabilities: null,
    values: null,
    transcript: null,
    mask_src: '/pred.png',
  },
});
const mask = (layer: string) =>
  document.querySelector<HTMLElement>(`[data-testid="label-map-mask"][data-layer="${layer}"]`);
const lastDraw = (layer: string) => draws.filter((draw) => draw.layer === layer).at(-1);

test('a label map item lists its classes with colours and shares; unticking one hides its pixels', async () => {
  renderView(segmentationItem, { labelMap: LABEL_MAP });
  const legend = await screen.findByTestId('class-legend');
  const entries = within(legend).getAllByTestId('legend-class');
  // Background is never listed; the shares are the ground truth's.
  expect(entries.map((entry) => entry.getAttribute('data-class'))).toEqual(['road', 'car']);
  expect(legend.textContent).toContain('road50.0%');
  expect(legend.textContent).toContain('car25.0%');
  await waitFor(() => expect(mask('gt')?.dataset.classes).toBe('road,car'));
  expect(lastDraw('gt')!.values.sort()).toEqual([1, 2]);

  const user = userEvent.setup();
  await user.click(screen.getByRole('checkbox', { name: 'car' }));
  // The car's pixels are no longer painted, in the ground truth and the prediction alike.
  await waitFor(() => expect(mask('gt')?.dataset.classes).toBe('road'));
  expect(lastDraw('gt')!.values).toEqual([1]);
  expect(lastDraw('pred')!.values).toEqual([1]);
  expect(mask('pred')?.dataset.classes).toBe('road');
  await user.click(screen.getByRole('checkbox', { name: 'car' }));
  await waitFor(() => expect(mask('gt')?.dataset.classes).toBe('road,car'));
});

test('the ground truth and prediction layers toggle; the prediction is outlined over the ground truth', async () => {
  renderView(segmentationItem, { labelMap: LABEL_MAP });
  await waitFor(() => expect(mask('gt')).not.toBeNull());
  expect(mask('pred')).not.toBeNull();
  // Both shown: the prediction is an outline, drawn more opaque than the filled ground truth.
  expect(Number(mask('pred')!.style.opacity)).toBeGreaterThan(Number(mask('gt')!.style.opacity));

  const user = userEvent.setup();
  await user.click(screen.getByRole('checkbox', { name: /Ground truth/ }));
  expect(mask('gt')).toBeNull();
  expect(mask('pred')).not.toBeNull();
  await user.click(screen.getByRole('checkbox', { name: /Prediction/ }));
  expect(mask('pred')).toBeNull();
  // The choice is kept for the next item.
  expect(JSON.parse(window.localStorage.getItem('loupe.itemViewer.maskLayers')!)).toEqual({
    gt: false,
    pred: false,
  });
});

test('object classes are listed too; unticking one hides its boxes', async () => {
  renderView(imageItem(0), { labelMap: undefined });
  const legend = await screen.findByTestId('class-legend');
  expect(
    within(legend)
      .getAllByTestId('legend-class')
      .map((entry) => entry.getAttribute('data-class')),
  ).toEqual(['car', 'person']);
  // Without label maps there are no layer toggles (the sidebar's groups do that for objects).
  expect(within(legend).queryByRole('checkbox', { name: /Ground truth/ })).toBeNull();
  expect(screen.getAllByTestId('object-box')).toHaveLength(2);
  const user = userEvent.setup();
  await user.click(screen.getByRole('checkbox', { name: 'person' }));
  expect(
    screen.getAllByTestId('object-box').map((box) => box.getAttribute('data-object-type')),
  ).toEqual(['gt']);
});

test('close boxes get label chips that do not overlap', async () => {
  const id = 'frame-0.jpg';
  const item = imageItem(0, {
    objects: [
      object({ id: `${id}#0`, label: 'car', coords: [0.3, 0.3, 0.6, 0.6] }),
      object({ id: `${id}#1`, label: 'car', coords: [0.305, 0.305, 0.6, 0.6] }),
      object({
        id: `${id}#p0`,
        label: 'car',
        type: 'pred',
        score: 0.9,
        coords: [0.3, 0.31, 0.6, 0.61],
      }),
      object({
        id: `${id}#p1`,
        label: 'person',
        type: 'pred',
        score: 0.5,
        coords: [0.31, 0.3, 0.6, 0.6],
      }),
    ],
  });
  renderView(item);
  await waitFor(() => expect(screen.getAllByTestId('object-label')).toHaveLength(4));
  const chips = screen.getAllByTestId('object-label').map((chip) => ({
    left: parseFloat(chip.style.left),
    top: parseFloat(chip.style.top),
    width: parseFloat(chip.style.width),
    height: parseFloat(chip.style.height),
  }));
  for (let i = 0; i < chips.length; i++) {
    for (let j = i + 1; j < chips.length; j++) {
      const [a, b] = [chips[i]!, chips[j]!];
      const apart =
        a.left + a.width <= b.left ||
        b.left + b.width <= a.left ||
        a.top + a.height <= b.top ||
        b.top + b.height <= a.top;
      expect(apart).toBe(true);
    }
  }
});
