// User-facing strings of the Model comparison page (docs/model-comparison.md, "The comparison
// page"). The product's own texts (messages, category labels, the improvement legend) come from
// the contracts; the subset texts are the performance page's, which the spec shares.
import { COMPARISON_MESSAGES, type ComparisonUnit, type ObjectSubcategory } from '@loupe/contracts';
import { performanceStrings } from '../performance/strings';

/** '1 class', '3 classes', '1,204 samples': a count with its entity word. */
const counted = (singular: string, plural: string) => (count: number) =>
  `${count.toLocaleString()} ${count === 1 ? singular : plural}`;

export const ENTITY_WORDS = {
  class: counted('class', 'classes'),
  word: counted('word', 'words'),
} as const;

export const UNIT_WORDS: Record<ComparisonUnit, (count: number) => string> = {
  sample: counted('sample', 'samples'),
  mask: counted('mask', 'masks'),
  ground_truth_object: counted('ground-truth object', 'ground-truth objects'),
  predicted_object: counted('predicted object', 'predicted objects'),
};

export const compareStrings = {
  ...COMPARISON_MESSAGES,
  title: 'Compare',
  modelA: 'Model A',
  modelB: 'Model B',
  // Header menu and picker
  compareMenu: 'Compare with',
  searchModels: 'Search models',
  noMatchingModels: (term: string) => `No models matching "${term}" found`,
  needsLicense: 'A valid license is needed to compare models.',
  pickerHint:
    'Model A is the model of this page. Choose model B to see which of the two is better, where and on which items.',
  // Controls
  split: 'Split',
  splitAll: 'All',
  metric: 'Metric',
  valueName: 'Value name',
  allValueNames: 'All value names',
  progress: (percent: number) => `${percent}% done`,
  // Guide
  showGuide: 'Show guide',
  hideGuide: 'Hide guide',
  guideTitle: 'How this page compares the two models',
  guide: [
    'Overall names the better model on the chosen metric, by how much (relative to model A), and both scores.',
    'Every breakdown sorts its items (classes, words, samples, objects or masks) into four groups: Model A is better, both are incorrect (or zero), both are correct (or equal), Model B is better. Click a segment of the bar to open its group.',
    'Each group, subcategory and bar of a distribution opens the explorer of model A or model B showing exactly those items, with both models’ predictions drawn.',
    'Split, metric and (for regression) value name apply to the whole page; changing one computes the comparison again.',
  ],
  // Overall
  overall: 'Overall',
  betterOverall: (model: string) => `${model} is better`,
  equalOverall: 'Both models score the same',
  undefinedOverall: 'The metric is undefined for at least one of the models',
  relativeDelta: 'Relative delta',
  score: (model: string) => `${model} score`,
  largeDescription: (metric: string, better: string, worse: string, a: string, b: string) =>
    `${better}’s ${metric} is lower than ${worse}’s: ${a} for Model A, ${b} for Model B.`,
  largeDescriptionEqual: (metric: string, value: string) =>
    `Both models have the same ${metric}: ${value}.`,
  // Breakdowns
  clickHint: (entity: string) =>
    entity === 'class'
      ? 'Click a segment to open its group, and a class to explore its items.'
      : 'Click a segment to open its group.',
  sectionClickHint: 'Click a segment to see its items, subcategories and explore links.',
  showMore: (count: number) => `Show ${count} more`,
  showLess: (count: number) => `Show ${count} less`,
  segmentTooltip: (label: string, count: string, percent: string) =>
    `${label}: ${count} (${percent})`,
  entityDelta: (entity: string) => `Difference of ${entity}, B − A`,
  perSample: 'Per sample breakdown',
  perMask: 'Per ground-truth mask',
  groundTruthObjects: 'Ground-truth objects',
  predictedObjects: 'Predicted objects',
  perSampleHelp: 'For each sample, see which model is right, or closer to the truth',
  perMaskHelp: 'For each ground-truth mask, see which model segments it better (IoU)',
  groundTruthHelp: 'For each ground-truth object, see which model finds it',
  predictedHelp: 'For each predicted object, see which model’s prediction is right',
  noItems: 'No items in this group',
  fractionOf: (percent: string) => `${percent} of the section`,
  subcategories: 'Subcategories',
  distribution: 'Distribution',
  distributionOf: 'Distribution of',
  wholeSection: 'The whole section',
  exploreIn: 'Open bars in',
  mean: 'Mean',
  std: 'Std',
  binItems: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'item' : 'items'}`,
  // Help panels
  howToReadText: [
    'Each bar counts the items whose difference between the models (model B minus model A) falls in its range; the middle bar holds the items where both models are equal.',
    'Bars left of the middle are items where model B has the lower value, bars to the right where it has the higher one. Click a bar to explore its items.',
  ],
  improvementSourceText:
    'The shape of the histogram tells where the difference between the models comes from:',
  // Other metrics
  otherMetrics: 'Other metrics',
  otherColumns: { metric: 'Metric', a: 'Model A', b: 'Model B', delta: 'Delta' },
  // Subset Performance in comparison
  subsets: 'Subset Performance',
  searchSubsets: performanceStrings.searchSubsets,
  enableSubsets: performanceStrings.enableSubsets,
  pending: performanceStrings.pending,
  noSubsets: performanceStrings.noSubsets,
  noSubsetMatches: performanceStrings.noSubsetMatches,
  noSubsetEntries: performanceStrings.noSubsetEntries,
  noSubsetEntriesHint: performanceStrings.noSubsetEntriesHint,
  subsetMetric: performanceStrings.subsetMetric,
  subsetNeedsLicense: performanceStrings.needsLicense,
  itemsUsed: performanceStrings.itemsUsed,
  levels: performanceStrings.levels,
  subsetShowMore: performanceStrings.showMore,
  subsetShowLess: performanceStrings.showLess,
  subsetCategories: 'Subsets per group',
} as const;

/** What each item-level subcategory means (tp true positive, fn false negative, fp false positive). */
export const SUBCATEGORY_TEXTS: Record<ObjectSubcategory, { title: string; text: string }> = {
  tp_a_fn_b: { title: 'Found by A only', text: 'Model A finds the object, model B misses it.' },
  fn_a_tp_b: { title: 'Found by B only', text: 'Model B finds the object, model A misses it.' },
  fn_a_fn_b: { title: 'Missed by both', text: 'Neither model finds the object.' },
  tp_a_tp_b: { title: 'Found by both', text: 'Both models find the object.' },
  unmatched_a_fp_b: {
    title: 'False positive of B alone',
    text: 'Model B predicts an object that is not there; model A predicts nothing there.',
  },
  tp_a_unmatched_b: {
    title: 'True positive of A alone',
    text: 'Model A predicts the object correctly; model B predicts nothing there.',
  },
  tp_a_fp_b: {
    title: 'A right, B wrong',
    text: 'Both predict an object there: model A’s is a true positive, model B’s a false positive.',
  },
  fp_a_unmatched_b: {
    title: 'False positive of A alone',
    text: 'Model A predicts an object that is not there; model B predicts nothing there.',
  },
  unmatched_a_tp_b: {
    title: 'True positive of B alone',
    text: 'Model B predicts the object correctly; model A predicts nothing there.',
  },
  fp_a_tp_b: {
    title: 'B right, A wrong',
    text: 'Both predict an object there: model B’s is a true positive, model A’s a false positive.',
  },
  fp_a_fp_b: {
    title: 'Both wrong',
    text: 'Both models predict an object there, and both predictions are false positives.',
  },
};

/** The one subcategory both sections have reads differently for predictions. */
export const PREDICTED_TP_TP = {
  title: 'Both right',
  text: 'Both models predict the object, and both predictions are true positives.',
};
