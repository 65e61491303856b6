// Per-object match counts for the object level's slices (metadata bins, selections and subsets of
// objects): every ground truth is TP or FN and every prediction TP or FP at one IoU threshold, as
// the report matches them (@loupe/metrics objectMatches; an object without a box, or a mask for
// instance segmentation, is left out). A slice's counts take each matched pair once, when either
// of its objects is in the slice, so the slice of every object gives the image level's totals.
import {
  OBJECT_PARTNER,
  precisionRecallF1,
  type ObjectCounts,
  type ObjectMatches,
} from '@loupe/metrics';

/** TP, FP and FN of a slice of ground truths and predictions (indexes into data.gt / data.pred). */
export function sliceCounts(
  matches: Pick<ObjectMatches, 'gtMatch' | 'predMatch'>,
  gtRows: ArrayLike<number>,
  predRows: ArrayLike<number>,
): ObjectCounts {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const counted = new Set<number>();
  for (let i = 0; i < gtRows.length; i++) {
    const k = gtRows[i]!;
    const partner = matches.gtMatch[k]!;
    if (partner >= 0) {
      tp++;
      counted.add(k);
    } else if (partner === OBJECT_PARTNER.unmatched) fn++;
  }
  for (let i = 0; i < predRows.length; i++) {
    const partner = matches.predMatch[predRows[i]!]!;
    if (partner === OBJECT_PARTNER.unmatched) fp++;
    else if (partner >= 0 && !counted.has(partner)) tp++;
  }
  return { tp, fp, fn };
}

/**
 * The object slice metrics from counts, as the report computes them: precision, recall and F1
 * are null when there is nothing to count, and 0 where only their denominator is.
 */
export function countMetrics(
  counts: ObjectCounts,
  metricIds: readonly string[],
): Record<string, number | null> {
  const empty = counts.tp + counts.fp + counts.fn === 0;
  const ratios = precisionRecallF1(counts);
  const values: Record<string, number | null> = {
    precision: empty ? null : ratios.precision,
    recall: empty ? null : ratios.recall,
    f1_score: empty ? null : ratios.f1,
    ...counts,
  };
  return Object.fromEntries(metricIds.map((id) => [id, values[id] ?? null]));
}
