// Completeness of a prediction set = num_present / (num_present + num_missing) (docs/product.md).
import type { PredictionSet } from '@loupe/contracts';

export function completeness(model: Pick<PredictionSet, 'num_present' | 'num_missing'>): number {
  const total = model.num_present + model.num_missing;
  return total === 0 ? 0 : model.num_present / total;
}
