// Comparison categories and object subcategories, with the category each subcategory counts in
// and the mirror image of each when A and B swap. The contracts own these ids on the wire
// (packages/contracts/src/comparison.ts); metrics imports nothing of ours, so it keeps this copy,
// whose order gives the category and subcategory codes of SectionItems. A server test checks the
// two agree (apps/server/src/performance/comparison-vocabulary.test.ts).
import type { ComparisonCategory, ObjectSubcategory } from './types.js';

/** The page's sort order; a section's category column indexes this list. */
export const COMPARISON_CATEGORIES = [
  'model_a_is_better',
  'both_are_problematic',
  'both_are_neutral',
  'model_b_is_better',
] as const;

export const CATEGORY = {
  aBetter: 0,
  problematic: 1,
  neutral: 2,
  bBetter: 3,
} as const;

/** A subcategory column indexes this list. */
export const OBJECT_SUBCATEGORIES = [
  'tp_a_fn_b',
  'fn_a_tp_b',
  'fn_a_fn_b',
  'tp_a_tp_b',
  'unmatched_a_fp_b',
  'tp_a_unmatched_b',
  'tp_a_fp_b',
  'fp_a_unmatched_b',
  'unmatched_a_tp_b',
  'fp_a_tp_b',
  'fp_a_fp_b',
] as const;

export const GROUND_TRUTH_SUBCATEGORIES: readonly ObjectSubcategory[] = [
  'tp_a_fn_b',
  'fn_a_tp_b',
  'fn_a_fn_b',
  'tp_a_tp_b',
];

export const PREDICTION_SUBCATEGORIES: readonly ObjectSubcategory[] = [
  'tp_a_tp_b',
  'tp_a_fp_b',
  'fp_a_tp_b',
  'fp_a_fp_b',
  'tp_a_unmatched_b',
  'unmatched_a_tp_b',
  'unmatched_a_fp_b',
  'fp_a_unmatched_b',
];

export const SUBCATEGORY_CATEGORY: Readonly<Record<ObjectSubcategory, ComparisonCategory>> = {
  tp_a_fn_b: 'model_a_is_better',
  fn_a_tp_b: 'model_b_is_better',
  fn_a_fn_b: 'both_are_problematic',
  tp_a_tp_b: 'both_are_neutral',
  tp_a_fp_b: 'model_a_is_better',
  fp_a_tp_b: 'model_b_is_better',
  fp_a_fp_b: 'both_are_problematic',
  tp_a_unmatched_b: 'model_a_is_better',
  unmatched_a_tp_b: 'model_b_is_better',
  unmatched_a_fp_b: 'model_a_is_better',
  fp_a_unmatched_b: 'model_b_is_better',
};

/** What a category or subcategory becomes when A and B swap. */
export function mirrorCategory(category: ComparisonCategory): ComparisonCategory {
  if (category === 'model_a_is_better') return 'model_b_is_better';
  if (category === 'model_b_is_better') return 'model_a_is_better';
  return category;
}

export function mirrorSubcategory(subcategory: ObjectSubcategory): ObjectSubcategory {
  const [a, , b] = subcategory.split('_');
  return `${b}_a_${a}_b` as ObjectSubcategory;
}

export const subcategoryIndex = (id: ObjectSubcategory): number => OBJECT_SUBCATEGORIES.indexOf(id);
export const categoryIndex = (id: ComparisonCategory): number => COMPARISON_CATEGORIES.indexOf(id);
