// A semantic-segmentation card in a comparison of two models: it keeps the route model's predicted
// label map (when there is no ground-truth one) and names the model in a corner.
import '../test/setup';
import type { ExploreItem } from '@loupe/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { LabelMapPixels, Rgb } from '../lib/labelMap';
import type { ComparedModelKey } from '../lib/comparedModels';
import { comparedAs, LABEL_MAP, segmentationItem } from '../test/comparedSegmentation';
import { CardPreview } from './CardPreview';

// happy-dom decodes no images and has no 2-D canvas: every label map is this one.
vi.mock('../lib/labelMapImage', () => ({
  useLabelMap: (src: string | null): LabelMapPixels | null =>
    src ? { width: 2, height: 1, values: Uint8Array.from([1, 2]) } : null,
  cssColorToRgb: (): Rgb => [1, 2, 3],
  drawLabelMap: (_canvas: HTMLCanvasElement, _pixels: LabelMapPixels, palette: Map<number, Rgb>) =>
    palette.size,
}));

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
