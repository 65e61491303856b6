// From a computed comparison's per-item columns (positions in the evaluation data) to the items
// the explorer knows (docs/model-comparison.md, "Per-item columns"): samples by their id, ground-
// truth objects by their object id, predicted objects by 'pred:' and the object id of A's or B's
// prediction set; semantic segmentation's masks become their samples, each holding the distinct
// categories of its masks.
import { COMPARISON_CATEGORIES, type ComparisonContext } from '@loupe/contracts';
import { NO_BIN, type ModelComparison, type SectionItems } from '@loupe/metrics';
import { PREDICTED_OBJECT_PREFIX } from '../explore/field-catalogue.js';
import type { Evaluation } from '../performance/evaluation-loader.js';
import type { ComparedColumns, ComparedItems } from './compared-items.js';

/** A category code of no item (a semantic segmentation sample holds its masks' instead). */
const NO_CATEGORY = 255;

/**
 * Per sample index (of the samples with compared masks): the categories of its masks, distinct,
 * in COMPARISON_CATEGORIES order, joined by ','.
 */
export function maskCategoriesBySample(items: SectionItems): Map<number, string> {
  const bits = new Map<number, number>();
  for (let t = 0; t < items.sample.length; t++) {
    const sample = items.sample[t]!;
    bits.set(sample, (bits.get(sample) ?? 0) | (1 << items.category[t]!));
  }
  const out = new Map<number, string>();
  for (const [sample, mask] of bits)
    out.set(sample, COMPARISON_CATEGORIES.filter((_, c) => mask & (1 << c)).join(','));
  return out;
}

/** The columns of the section's positions `at` (all when null), named by `ids`. */
function columns(
  items: SectionItems,
  ids: string[],
  at: number[] | null,
  withSubcategory: boolean,
): ComparedColumns {
  const n = at ? at.length : items.category.length;
  const pick = at ? (j: number) => at[j]! : (j: number) => j;
  const category = new Uint8Array(n);
  const subcategory = withSubcategory && items.subcategory ? new Uint8Array(n) : null;
  const delta = new Float64Array(n);
  const bin = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    const t = pick(j);
    category[j] = items.category[t]!;
    if (subcategory) subcategory[j] = items.subcategory![t]!;
    delta[j] = items.delta[t]!;
    bin[j] = items.bin ? items.bin[t]! : NO_BIN;
  }
  return { ids, category, subcategory, delta, bin, categories: null };
}

/** The semantic segmentation samples with compared masks, in sample order. */
function maskSamples(items: SectionItems, a: Evaluation): ComparedColumns {
  const bySample = [...maskCategoriesBySample(items)].sort((x, y) => x[0] - y[0]);
  const n = bySample.length;
  return {
    ids: bySample.map(([sample]) => a.sampleIds[sample]!),
    category: new Uint8Array(n).fill(NO_CATEGORY),
    subcategory: null,
    delta: new Float64Array(n).fill(NaN),
    bin: new Uint8Array(n).fill(NO_BIN),
    categories: bySample.map(([, categories]) => categories),
  };
}

/** The predicted objects of one model in the per_object_pred section. */
function predictions(
  items: SectionItems,
  index: Int32Array | null,
  evaluation: Evaluation,
): ComparedColumns | null {
  if (!index || !evaluation.objects) return null;
  const predIds = evaluation.objects.predIds;
  const at: number[] = [];
  const ids: string[] = [];
  for (let t = 0; t < index.length; t++) {
    const p = index[t]!;
    if (p < 0) continue;
    at.push(t);
    ids.push(PREDICTED_OBJECT_PREFIX + predIds[p]!);
  }
  return columns(items, ids, at, true);
}

/** The explorer's view of a computed comparison of A's and B's evaluations. */
export function comparedItems(
  key: string,
  context: ComparisonContext,
  comparison: ModelComparison,
  a: Evaluation,
  b: Evaluation,
): ComparedItems {
  const { per_sample, per_object_gt, per_object_pred } = comparison.items;
  let samples: ComparedColumns | null = null;
  if (per_sample)
    samples =
      per_sample.unit === 'mask'
        ? maskSamples(per_sample, a)
        : columns(
            per_sample,
            Array.from(per_sample.sample, (i) => a.sampleIds[i]!),
            null,
            false,
          );
  let groundTruth: ComparedColumns | null = null;
  if (per_object_gt?.groundTruth && a.objects) {
    const gtIds = a.objects.gtIds;
    groundTruth = columns(
      per_object_gt,
      Array.from(per_object_gt.groundTruth, (g) => gtIds[g]!),
      null,
      true,
    );
  }
  return {
    key,
    task: comparison.result.task,
    context,
    samples,
    groundTruth,
    predictionsA: per_object_pred
      ? predictions(per_object_pred, per_object_pred.predictionA, a)
      : null,
    predictionsB: per_object_pred
      ? predictions(per_object_pred, per_object_pred.predictionB, b)
      : null,
  };
}
