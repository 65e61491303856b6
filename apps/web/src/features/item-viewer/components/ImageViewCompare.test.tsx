// Semantic segmentation in a comparison of two models: the viewer's 'Model A' / 'Model B' switch
// picks whose predicted label map the prediction layer draws (the route model's first), by mouse
// or keyboard, with the model's colour in the legend (the cards: explore/grid/CardPreviewCompare).
import '../../../test/setup';
import type { ExploreItem } from '@loupe/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { LabelMapPixels, Rgb } from '../../../lib/labelMap';
import type { ComparedModelKey } from '../../../lib/comparedModels';
import {
  comparedAs,
  labelMapPrediction,
  LABEL_MAP,
  MODEL_COLORS,
  segmentationItem,
} from '../../../test/comparedSegmentation';
import { ImageView, type ImageViewProps } from './ImageView';

// happy-dom decodes no images and has no 2-D canvas: label maps come from here, and each draw
// records the palette it was given (the classes whose pixels it paints).
const maps = new Map<string, LabelMapPixels>();
vi.mock('../../../lib/labelMapImage', () => ({
  useLabelMap: (src: string | null) => (src ? (maps.get(src) ?? null) : null),
  cssColorToRgb: (): Rgb => [1, 2, 3],
  drawLabelMap: (_canvas: HTMLCanvasElement, _pixels: LabelMapPixels, palette: Map<number, Rgb>) =>
    palette.size,
}));

maps.set('/gt.png', { width: 4, height: 1, values: Uint8Array.from([1, 1, 2, 0]) });
// Model A sees road only; model B sees road and a car.
maps.set('/a.png', { width: 4, height: 1, values: Uint8Array.from([1, 1, 1, 1]) });
maps.set('/b.png', { width: 4, height: 1, values: Uint8Array.from([1, 1, 2, 2]) });

beforeEach(() => {
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

function props(item: ExploreItem, change: Partial<ImageViewProps> = {}): ImageViewProps {
  return {
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
    labelMap: LABEL_MAP,
    ...change,
  };
}

const predMask = () =>
  document.querySelector<HTMLElement>('[data-testid="label-map-mask"][data-layer="pred"]');
const modelRadio = (key: ComparedModelKey) =>
  screen.getByRole('radio', { name: new RegExp(`Model ${key}`) });
// The layer's checkbox input carries the test id; its label holds the swatch and the text.
const predictionLayer = () => screen.getByTestId('legend-layer-pred').closest('label')!;
const layerSwatchColor = () =>
  (predictionLayer().querySelector('span[aria-hidden]') as HTMLElement).style.borderColor;

test.each(['A', 'B'] as const)(
  "in model %s's explorer the route model's label map is drawn first; the switch shows the other's",
  async (own) => {
    const other = own === 'A' ? 'B' : 'A';
    render(<ImageView {...props(segmentationItem(own), { compared: comparedAs(own) })} />);
    await waitFor(() => expect(predMask()).not.toBeNull());
    const group = screen.getByRole('radiogroup', { name: 'Model of the predicted label map' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    expect((modelRadio(own) as HTMLInputElement).checked).toBe(true);
    expect(predMask()!.dataset.model).toBe(own);
    // The legend names the model of the prediction layer, its swatch in the model's colour.
    expect(predictionLayer().textContent).toBe(`Prediction (Model ${own})`);
    expect(layerSwatchColor()).toBe(MODEL_COLORS[own]);
    // Model A's label map has no car; model B's has one.
    const carOf = (key: ComparedModelKey) => (key === 'B' ? 'road,car' : 'road');
    expect(predMask()!.dataset.classes).toBe(carOf(own));

    // The option's label takes the click (antd keeps the radio input itself out of the pointer's way).
    await userEvent.setup().click(screen.getByTestId(`mask-model-${other}`));
    await waitFor(() => expect(predMask()!.dataset.model).toBe(other));
    expect(predMask()!.dataset.classes).toBe(carOf(other));
    expect(predictionLayer().textContent).toBe(`Prediction (Model ${other})`);
    // The ground truth stays filled under the chosen model's outlines.
    expect(
      document.querySelector('[data-testid="label-map-mask"][data-layer="gt"]'),
    ).not.toBeNull();
  },
);

test('the switch works from the keyboard, and a choice held by the viewer stays across items', async () => {
  // The viewer holds the choice, as ItemViewer does: a new item (a new ImageView) keeps it.
  function Holder({ item }: { item: ExploreItem }) {
    const [maskModel, setMaskModel] = useState<ComparedModelKey | null>(null);
    return (
      <ImageView
        key={item.id}
        {...props(item, {
          compared: comparedAs('A'),
          maskModel,
          onMaskModelChange: setMaskModel,
        })}
      />
    );
  }
  const view = render(<Holder item={segmentationItem('A')} />);
  await waitFor(() => expect(predMask()?.dataset.model).toBe('A'));
  const user = userEvent.setup();
  modelRadio('A').focus();
  await user.keyboard('{ArrowRight}');
  await waitFor(() => expect(predMask()!.dataset.model).toBe('B'));
  expect((modelRadio('B') as HTMLInputElement).checked).toBe(true);

  view.rerender(<Holder item={{ ...segmentationItem('A'), id: 'frame-1.jpg' }} />);
  await waitFor(() => expect(predMask()?.dataset.model).toBe('B'));
  expect((modelRadio('B') as HTMLInputElement).checked).toBe(true);
});

test('a model without a label map of the item cannot be picked; outside a comparison there is no switch', async () => {
  const item = segmentationItem('A');
  const withoutB: ExploreItem = {
    ...item,
    compared_prediction: { ...item.compared_prediction!, prediction: labelMapPrediction(null) },
  };
  const view = render(<ImageView {...props(withoutB, { compared: comparedAs('A') })} />);
  await waitFor(() => expect(predMask()).not.toBeNull());
  expect((modelRadio('B') as HTMLInputElement).disabled).toBe(true);
  view.unmount();

  render(<ImageView {...props(segmentationItem('A'))} />);
  await waitFor(() => expect(predMask()).not.toBeNull());
  expect(screen.queryByRole('radiogroup', { name: 'Model of the predicted label map' })).toBeNull();
  expect(predMask()!.dataset.model).toBeUndefined();
  expect(predictionLayer().textContent).toBe('Prediction');
});
