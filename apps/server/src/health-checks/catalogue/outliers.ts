// The Outliers check (docs/health-checks.md, "Outliers"): items far from their nearest
// neighbours on a feature, within their own split.
import {
  neighbourOutliers,
  OUTLIER_DEFAULT_K,
  OUTLIER_DEFAULT_SENSITIVITY,
  type OutlierState,
} from '@loupe/analysis';
import { TASK_TRAITS, type CheckParams, type DataLevel, type TaskType } from '@loupe/contracts';
import {
  chosenFeature,
  deleteRecommendation,
  featureParam,
  itemsWord,
  numberParam,
  stateKey,
  tidy,
} from './common.js';
import type {
  CheckDefinition,
  CheckOutcome,
  CheckRunInput,
  KeptRecord,
  ParamContext,
} from './types.js';

const MIN_K = 5;
const MAX_K = 50;
const MIN_SENSITIVITY = 1;
const MAX_SENSITIVITY = 20;

/** The sample level of every task (image or audio by its media). */
function mediaLevels(task: TaskType): DataLevel[] {
  return [TASK_TRAITS[task].media];
}

const outlier: CheckDefinition = {
  key: 'outlier',
  group: 'Outliers',
  levels: mediaLevels,
  name: () => 'Outliers',
  description: (level) => [
    `Finds ${itemsWord(level)} that are far from their nearest neighbours within their split, on a feature.`,
    "An item's score is its mean cosine distance to its k nearest neighbours in the same split; it is an outlier when its score is far above its split's usual scores (by the median and the median absolute deviation of the log scores).",
  ],
  configDescription:
    'Choose the feature whose similarity finds the neighbours, how many neighbours count and how far above the usual scores an outlier is (robust standard deviations; higher flags fewer items).',
  params: (context: ParamContext): CheckParams => ({
    feature: featureParam(context, 'The feature whose cosine distance finds the neighbours'),
    k: {
      type: 'int',
      label: 'Neighbours',
      description: 'How many nearest neighbours make up the score',
      value: OUTLIER_DEFAULT_K,
      min: MIN_K,
      max: MAX_K,
    },
    sensitivity: {
      type: 'float',
      label: 'Sensitivity',
      description:
        'How many robust standard deviations above the median log score an outlier is (lower flags more items)',
      value: OUTLIER_DEFAULT_SENSITIVITY,
      min: MIN_SENSITIVITY,
      max: MAX_SENSITIVITY,
    },
  }),
  requires: { feature: true },
  inputs: ['split', 'feature'],
  fields: [{ name: 'score', label: 'Outlier score', type: 'numeric' }],
  order: 0,
  run({ snapshot, params, state }: CheckRunInput): CheckOutcome {
    const feature = chosenFeature(snapshot, params);
    const k = Math.round(numberParam(params, 'k', OUTLIER_DEFAULT_K));
    const sensitivity = numberParam(params, 'sensitivity', OUTLIER_DEFAULT_SENSITIVITY);
    // The large splits' references and scores are kept by item between runs (outliers.ts in
    // @loupe/analysis): after items are added only they are scored, against the same references.
    const kept = stateKey('outliers', [feature.name, feature.dimension, k]);
    const previous = state?.read(kept) as OutlierState | null | undefined;
    const result = neighbourOutliers(
      {
        vectors: feature.data,
        dimension: feature.dimension,
        present: feature.present,
        groups: snapshot.samples.split,
      },
      {
        k,
        sensitivity,
        ...(state ? { keep: { ids: snapshot.samples.ids, previous: previous ?? null } } : {}),
      },
    );
    if (state) state.write(kept, (result.state as KeptRecord | null | undefined) ?? null);
    const { ids: sampleIds, splitNames } = snapshot.samples;
    const ids: string[] = [];
    const scores: number[] = [];
    result.outlier.forEach((flag, row) => {
      if (!flag) return;
      ids.push(sampleIds[row]!);
      scores.push(tidy(result.scores[row]!));
    });
    const thresholds = result.groups.map(
      (g) =>
        `${g.group < 0 ? 'no split' : (splitNames[g.group] ?? String(g.group))}: ${
          Number.isFinite(g.threshold) ? `score above ${tidy(g.threshold)}` : 'no spread, none'
        } (${g.size} items${g.exact ? '' : ', approximate'})`,
    );
    return {
      checked: result.checked,
      flagged: { ids, values: { score: scores } },
      summary: '{n} items are outliers in their split',
      preview: {
        sort_by: [{ name: 'score', direction: 'descending' }],
        visible_metadata_ids: ['score', 'split'],
      },
      evidence: [
        {
          type: 'text',
          title: 'How it was found',
          value: `Mean cosine distance to the ${k} nearest neighbours in the same split on the feature '${feature.name}', at sensitivity ${sensitivity}${
            result.approximate
              ? '; large splits were searched against a random sample of reference items in a 32-dimensional projection, so scores are approximate'
              : ''
          }. Outlier thresholds per split: ${thresholds.join('; ')}.${
            result.searched !== undefined &&
            result.searched <
              result.groups.filter((g) => !g.exact).reduce((sum, g) => sum + g.size, 0)
              ? result.searched === 0
                ? ' The scores of the last run were kept (no item added or changed in the large splits).'
                : ` Only the ${result.searched} items of large splits added since the last run were scored, against the references kept from it; the others kept their scores.`
              : ''
          }`,
        },
      ],
      recommendation: deleteRecommendation(ids, 'Delete outliers'),
      is_approximate: result.approximate,
    };
  },
};

export const outlierChecks: CheckDefinition[] = [outlier];
