// The comparison's categories and object subcategories exist twice by design: the contracts own
// the ids on the wire, and @loupe/metrics (which imports nothing of ours) keeps the copy whose
// order codes its per-item columns. The server joins the two, so it checks they agree.
import { describe, expect, it } from 'vitest';
import * as wire from '@loupe/contracts';
import * as metrics from '@loupe/metrics';

describe('comparison vocabulary', () => {
  it('is the same in the contracts and in the metrics', () => {
    expect(metrics.COMPARISON_CATEGORIES).toEqual(wire.COMPARISON_CATEGORIES);
    expect(metrics.OBJECT_SUBCATEGORIES).toEqual(wire.OBJECT_SUBCATEGORIES);
    expect(metrics.GROUND_TRUTH_SUBCATEGORIES).toEqual(wire.GROUND_TRUTH_SUBCATEGORIES);
    expect(metrics.PREDICTION_SUBCATEGORIES).toEqual(wire.PREDICTION_SUBCATEGORIES);
    expect(metrics.SUBCATEGORY_CATEGORY).toEqual(wire.OBJECT_SUBCATEGORY_CATEGORY);
  });
});
