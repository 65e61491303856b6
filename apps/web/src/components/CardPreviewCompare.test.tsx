// A semantic-segmentation card in a comparison of two models: it keeps the route model's predicted
// label map (when there is no ground-truth one) and names the model in a corner.
import '../test/setup';
import type { ExploreItem, ItemPrediction } from '@loupe/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { LabelMapPixels, Rgb } from '../lib/labelMap';
import type { ComparedModelKey, ComparedModels } from '../lib/comparedModels';
import { imageItem } from '../test/exploreData';
import { CardPreview } from './CardPreview';

// happy-dom decodes no images and has no 2-D canvas: every label map is this one.
vi.mock('../lib/labelMapImage', () => ({
  useLabelMap: (src: string | null): LabelMapPixels | null =>
    src ? { width: 2, height: 1, values: Uint8Array.from([1, 2]) } : null,
  cssColorToRgb: (): Rgb => [1, 2, 3],
  drawLabelMap: (_canvas: HTMLCanvasElement, _pixels: LabelMapPixels, palette: Map<number, Rgb>) =>
    palette.size,
}));

const LABEL_MAP = { '0': 'background', '1': 'road', '2': 'car' };
const A_ID = '1a2b3c4d-5e6f-4a70-8b91-a2b3c4d5e6f7';
const B_ID = '1b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8';

function comparedAs(own: ComparedModelKey): ComparedModels {
  return {
    request: { predictions_id_a: A_ID, predictions_id_b: B_ID, split: 'all' },
    own,
    a: { key: 'A', id: A_ID, name: 'SegFormer', color: '#1677ff' },
    b: { key: 'B', id: B_ID, name: 'DeepLab', color: '#fa8c16' },
  };
}

const labelMapPrediction = (mask_src: string | null): ItemPrediction => ({
  label: null,
  score: null,
  probabilities: null,
  values: null,
  transcript: null,
  mask_src,
});

/** An item of `own`'s explorer: its prediction is `own`'s label map, the compared one the other's. */
function segmentationItem(own: ComparedModelKey, gt: string | null = '/gt.png'): ExploreItem {
  const [mine, other] = own === 'A' ? ['/a.png', '/b.png'] : ['/b.png', '/a.png'];
  return imageItem(0, {
    objects: [],
    mask_src: gt,
    prediction: labelMapPrediction(mine),
    compared_prediction: {
      predictions_id: own === 'A' ? B_ID : A_ID,
      prediction: labelMapPrediction(other),
      objects: [],
    },
  });
}

test("a card's predicted label map is the route model's, named on the card", () => {
  const card = (item: ExploreItem, own: ComparedModelKey | null) =>
    render(
      <CardPreview
        item={item}
        size={192}
        classColors={{}}
        classes={['background', 'road', 'car']}
        labelMap={LABEL_MAP}
        compared={own ? comparedAs(own) : null}
      />,
    );
  // No ground-truth label map: the card paints the route model's prediction and says whose.
  const ofB = card(segmentationItem('B', null), 'B');
  fireEvent.load(screen.getByRole('img'));
  const tag = screen.getByTestId('card-mask-model');
  expect(tag.dataset.model).toBe('B');
  expect(tag.textContent).toBe('Model B');
  ofB.unmount();
  // With a ground-truth label map (painted first), or outside a comparison, no model is named.
  const withGt = card(segmentationItem('A'), 'A');
  fireEvent.load(screen.getByRole('img'));
  expect(screen.queryByTestId('card-mask-model')).toBeNull();
  withGt.unmount();
  card(segmentationItem('A', null), null);
  fireEvent.load(screen.getByRole('img'));
  expect(screen.queryByTestId('card-mask-model')).toBeNull();
});
