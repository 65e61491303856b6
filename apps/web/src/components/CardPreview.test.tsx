// A semantic-segmentation card paints its label map over the picture once the picture loaded,
// mapping pixel values to classes by the dataset's label map (else the class list by index).
import '../test/setup';
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, expect, test, vi } from 'vitest';
import type { LabelMapPixels, Rgb } from '../lib/labelMap';
import { imageItem } from '../test/exploreData';
import { CARD_LABEL_MAP_SIDE, CardPreview } from './CardPreview';

// happy-dom decodes no images and has no 2-D canvas: the label map comes from here, and each
// draw records which values it paints in which colour.
const loads: { src: string; maxSide: number }[] = [];
const draws: Map<number, Rgb>[] = [];
vi.mock('../lib/labelMapImage', () => ({
  useLabelMap: (src: string | null, maxSide: number): LabelMapPixels | null => {
    if (!src) return null;
    loads.push({ src, maxSide });
    return { width: 2, height: 1, values: Uint8Array.from([1, 3]) };
  },
  cssColorToRgb: (color: string): Rgb => (color === '#ff0000' ? [255, 0, 0] : [9, 9, 9]),
  drawLabelMap: (
    _canvas: HTMLCanvasElement,
    _pixels: LabelMapPixels,
    palette: Map<number, Rgb>,
  ) => {
    draws.push(palette);
    return palette.size;
  },
}));

beforeEach(() => {
  loads.length = 0;
  draws.length = 0;
});

const item = imageItem(0, { objects: [], mask_src: '/masks/0.png' });

test('the ground-truth label map is painted, small, once the picture has loaded', () => {
  render(
    <CardPreview
      item={item}
      size={192}
      classColors={{ car: '#ff0000' }}
      classes={['background', 'road', 'car']}
      labelMap={{ '0': 'background', '1': 'road', '3': 'car' }}
    />,
  );
  expect(screen.queryByTestId('card-label-map')).toBeNull();
  fireEvent.load(screen.getByRole('img'));
  expect(screen.getByTestId('card-label-map')).toBeTruthy();
  expect(loads.at(-1)).toEqual({ src: '/masks/0.png', maxSide: CARD_LABEL_MAP_SIDE });
  // Background stays clear; value 3 is the car by the label map, in the colour map's colour.
  const palette = draws.at(-1)!;
  expect([...palette.keys()].sort()).toEqual([1, 3]);
  expect(palette.get(3)).toEqual([255, 0, 0]);
});

test('without a label map, pixel values are class indices', () => {
  render(
    <CardPreview
      item={item}
      size={192}
      classColors={{ car: '#ff0000' }}
      classes={['background', 'road', 'car']}
    />,
  );
  fireEvent.load(screen.getByRole('img'));
  const palette = draws.at(-1)!;
  expect([...palette.keys()].sort()).toEqual([1, 2]);
  expect(palette.get(2)).toEqual([255, 0, 0]);
});

test('a card without a label map draws none', () => {
  render(
    <CardPreview item={imageItem(0)} size={192} classColors={{}} classes={['car', 'person']} />,
  );
  fireEvent.load(screen.getByRole('img'));
  expect(screen.queryByTestId('card-label-map')).toBeNull();
  expect(loads).toEqual([]);
});
