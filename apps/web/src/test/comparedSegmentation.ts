// Fixtures for semantic segmentation in a comparison of two models: the compared pair as the
// route model `own` sees it, and an item whose prediction is `own`'s label map and whose compared
// prediction is the other model's ('/a.png' is model A's, '/b.png' model B's).
import type { ExploreItem, ItemPrediction } from '@loupe/contracts';
import type { ComparedModelKey, ComparedModels } from '../lib/comparedModels';
import { imageItem } from './exploreData';

export const LABEL_MAP = { '0': 'background', '1': 'road', '2': 'car' };
export const A_ID = '1a2b3c4d-5e6f-4a70-8b91-a2b3c4d5e6f7';
export const B_ID = '1b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8';
export const MODEL_COLORS = { A: '#1677ff', B: '#fa8c16' };

export function comparedAs(own: ComparedModelKey): ComparedModels {
  return {
    request: { predictions_id_a: A_ID, predictions_id_b: B_ID, split: 'all' },
    own,
    a: { key: 'A', id: A_ID, name: 'SegFormer', color: MODEL_COLORS.A },
    b: { key: 'B', id: B_ID, name: 'DeepLab', color: MODEL_COLORS.B },
  };
}

export const labelMapPrediction = (mask_src: string | null): ItemPrediction => ({
  label: null,
  score: null,
  probabilities: null,
  values: null,
  transcript: null,
  mask_src,
});

/** An item of `own`'s explorer with the ground-truth label map `gt` (or none). */
export function segmentationItem(
  own: ComparedModelKey,
  gt: string | null = '/gt.png',
): ExploreItem {
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
