// Label Quality checks (docs/health-checks.md, "Label quality"): likely label errors by confident
// learning on a prediction set's probabilities or on neighbour votes over a feature, and object
// annotations a prediction set contradicts (missing, spurious, wrongly labelled boxes).
import {
  findLabelIssues,
  findLabelIssuesByNeighbours,
  findMissingObjects,
  findSpuriousObjects,
  findWrongObjectLabels,
  OBJECT_ISSUE_DEFAULTS,
  type LabelIssues,
  type NeighbourState,
  type ObjectBoxes,
  type ScoredObjectBoxes,
} from '@loupe/analysis';
import {
  TASK_TRAITS,
  type CheckParams,
  type DataLevel,
  type RecommendedAction,
  type Suggestion,
  type TaskType,
} from '@loupe/contracts';
import { PREDICTED_OBJECT_PREFIX } from '../../explore/field-catalogue.js';
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
  CheckFieldSpec,
  CheckOutcome,
  CheckRunInput,
  CheckSnapshot,
  KeptRecord,
  ParamContext,
  PredictedObjectColumns,
} from './types.js';

const GROUP = 'Label Quality' as const;

/** Neighbours that vote by default, and the bounds the configure dialog offers. */
export const DEFAULT_VOTING_NEIGHBOURS = 10;
const MIN_VOTING_NEIGHBOURS = 5;
const MAX_VOTING_NEIGHBOURS = 50;

/** The sample level of classification tasks (image or audio); none for the others. */
function classificationLevels(task: TaskType): DataLevel[] {
  const traits = TASK_TRAITS[task];
  return traits.label === 'class' ? [traits.dataLevels[0]!] : [];
}

function objectLevels(task: TaskType): DataLevel[] {
  return TASK_TRAITS[task].hasObjects ? ['image_object'] : [];
}

function className(snapshot: CheckSnapshot, index: number): string {
  return snapshot.classes[index] ?? String(index);
}

/** One suggestion per new value, in the order the values first occur. */
function relabelAction(ids: string[], newLabels: string[]): RecommendedAction {
  const updates: Record<string, Suggestion> = {};
  ids.forEach((id, i) => {
    const label = newLabels[i]!;
    updates[label] ??= { id: `relabel:${label}`, name: `Relabel to ${label}`, item_ids: [] };
    updates[label].item_ids.push(id);
  });
  return { type: 'update_item_field', field_name: 'label', updates };
}

// ---- Likely label errors (classification) ----------------------------------------------------

const LABEL_ERROR_FIELDS: CheckFieldSpec[] = [
  { name: 'score', label: 'Label quality', type: 'numeric' },
  { name: 'suggested_label', label: 'Suggested label', type: 'string' },
];

function labelErrorOutcome(
  snapshot: CheckSnapshot,
  result: LabelIssues,
  source: string,
  approximate: boolean,
): CheckOutcome {
  const ids = Array.from(result.rows, (row) => snapshot.samples.ids[row]!);
  const suggested = Array.from(result.suggested, (c) => className(snapshot, c));
  return {
    checked: result.checked,
    flagged: {
      ids,
      values: {
        score: Array.from(result.rows, (row) => tidy(result.labelQuality[row]!)),
        suggested_label: suggested,
      },
    },
    summary: '{n} items are likely mislabelled',
    preview: {
      sort_by: [{ name: 'score', direction: 'ascending' }],
      visible_metadata_ids: ['label', 'suggested_label', 'score'],
    },
    evidence: [{ type: 'text', title: 'How it was found', value: source }],
    recommendation:
      ids.length === 0 ? null : { type: 'actions', actions: [relabelAction(ids, suggested)] },
    is_approximate: approximate,
  };
}

/** Sample labels, with −1 where `keep` is 0 (those samples are neither checked nor voters). */
function labelsWhere(snapshot: CheckSnapshot, keep: Uint8Array | null): Int32Array {
  const labels = Int32Array.from(snapshot.samples.label);
  if (keep) for (let i = 0; i < labels.length; i++) if (!keep[i]) labels[i] = -1;
  return labels;
}

const labelErrors: CheckDefinition = {
  key: 'label_errors',
  group: GROUP,
  levels: classificationLevels,
  name: () => 'Likely label errors',
  description: (level) => [
    `Finds ${itemsWord(level)} whose label the model's class probabilities contradict with confidence (confident learning).`,
    'Each flagged item gets the class the model finds most likely as a suggestion; the label quality score is the probability of the current label.',
  ],
  configDescription: 'Uses the class probabilities of the selected prediction set.',
  params: () => ({}),
  requires: { predictions: 'probabilities' },
  inputs: ['label', 'predictions'],
  fields: LABEL_ERROR_FIELDS,
  order: 0,
  run({ snapshot }: CheckRunInput): CheckOutcome {
    const predictions = snapshot.predictions;
    if (!predictions?.probabilities) {
      throw new Error('Likely label errors need a prediction set with class probabilities');
    }
    const classes = snapshot.classes.length;
    const n = snapshot.samples.ids.length;
    if (predictions.probabilities.length !== n * classes) {
      throw new Error(
        `The prediction set's probabilities hold ${predictions.probabilities.length} values, not samples × classes = ${n * classes}`,
      );
    }
    const result = findLabelIssues(
      predictions.probabilities,
      labelsWhere(snapshot, predictions.hasPrediction),
      classes,
    );
    return labelErrorOutcome(
      snapshot,
      result,
      `Confident learning on the class probabilities of the prediction set '${predictions.name}': a label is likely wrong when the model confidently prefers another class, in the proportion its confident counts estimate for that pair of classes.`,
      false,
    );
  },
};

const labelErrorsKnn: CheckDefinition = {
  key: 'label_errors_knn',
  group: GROUP,
  levels: classificationLevels,
  name: () => 'Likely label errors (from neighbours)',
  description: (level) => [
    `Finds ${itemsWord(level)} whose label their nearest neighbours on a feature contradict with confidence.`,
    "Each item's k most similar other items vote for their labels, weighted by similarity; confident learning on the vote shares flags the likely errors and suggests the class with most votes.",
  ],
  configDescription:
    'Choose the feature whose similarity decides the neighbours and how many neighbours vote.',
  params: (context: ParamContext): CheckParams => ({
    feature: featureParam(context, 'The feature whose cosine similarity finds the neighbours'),
    k: {
      type: 'int',
      label: 'Neighbours',
      description: 'How many nearest neighbours vote on each label',
      value: DEFAULT_VOTING_NEIGHBOURS,
      min: MIN_VOTING_NEIGHBOURS,
      max: MAX_VOTING_NEIGHBOURS,
    },
  }),
  requires: { feature: true },
  inputs: ['label', 'feature'],
  fields: LABEL_ERROR_FIELDS,
  order: 1,
  run({ snapshot, params, state }: CheckRunInput): CheckOutcome {
    const feature = chosenFeature(snapshot, params);
    const k = Math.round(
      Math.min(
        MAX_VOTING_NEIGHBOURS,
        Math.max(MIN_VOTING_NEIGHBOURS, numberParam(params, 'k', DEFAULT_VOTING_NEIGHBOURS)),
      ),
    );
    // The neighbours are kept by item between runs (label-errors.ts in @loupe/analysis): after
    // items are added only they, and the items whose neighbours they may be, are searched.
    const kept = stateKey('neighbour-votes', [feature.name, feature.dimension, k]);
    const previous = state?.read(kept) as NeighbourState | null | undefined;
    const result = findLabelIssuesByNeighbours(
      feature.data,
      feature.dimension,
      labelsWhere(snapshot, null),
      snapshot.classes.length,
      {
        k,
        present: feature.present,
        ...(state ? { keep: { ids: snapshot.samples.ids, previous: previous ?? null } } : {}),
      },
    );
    if (state) state.write(kept, (result.state as KeptRecord | null | undefined) ?? null);
    const incremental =
      result.approximate && result.searched !== undefined && result.searched < result.checked
        ? result.searched === 0
          ? ' The neighbours of the last run were kept (no item added or changed) and every vote was counted again.'
          : ` Only ${result.searched} ${result.searched === 1 ? 'item was' : 'items were'} searched (those added since the last run, and those whose neighbours may have changed); the others kept their neighbours, and every vote was counted again.`
        : '';
    return labelErrorOutcome(
      snapshot,
      result,
      `Confident learning on the votes of each item's ${k} nearest neighbours by cosine similarity on the feature '${feature.name}'${result.approximate ? ' (neighbours from an approximate index)' : ''}.${incremental}`,
      result.approximate,
    );
  },
};

// ---- Object annotations (detection, instance segmentation) -----------------------------------

function objectParams(defaults: { minScore: number; iou: number }, iouText: string): CheckParams {
  return {
    min_score: {
      type: 'float',
      label: 'Minimum score',
      description: 'Predictions with a lower score are not taken into account',
      value: defaults.minScore,
      min: 0,
      max: 1,
    },
    iou: { type: 'float', label: 'IoU', description: iouText, value: defaults.iou, min: 0, max: 1 },
  };
}

interface ObjectInputs {
  truth: ObjectBoxes;
  truthIds: string[];
  predicted: ScoredObjectBoxes;
  predictedColumns: PredictedObjectColumns;
  predictionsId: string;
  options: { minScore: number; iou: number };
}

function objectInputs(
  { snapshot, params }: CheckRunInput,
  defaults: { minScore: number; iou: number },
): ObjectInputs {
  const predictions = snapshot.predictions;
  const predicted = predictions?.objects;
  if (!predictions || !predicted)
    throw new Error('Object checks need a prediction set with predicted objects');
  const truth = snapshot.objects ?? {
    ids: [],
    sample: new Int32Array(0),
    label: new Int32Array(0),
    boxes: new Float64Array(0),
  };
  return {
    truth: { image: truth.sample, label: truth.label, boxes: truth.boxes },
    truthIds: truth.ids,
    predicted: {
      image: predicted.sample,
      label: predicted.label,
      boxes: predicted.boxes,
      score: predicted.score,
    },
    predictedColumns: predicted,
    predictionsId: predictions.id,
    options: {
      minScore: numberParam(params, 'min_score', defaults.minScore),
      iou: numberParam(params, 'iou', defaults.iou),
    },
  };
}

/** The explorer's id of a predicted object at the object level (docs/health-checks.md). */
export function predictedObjectItemId(id: string): string {
  return id.startsWith(PREDICTED_OBJECT_PREFIX) ? id : PREDICTED_OBJECT_PREFIX + id;
}

const missingObjects: CheckDefinition = {
  key: 'missing_objects',
  group: GROUP,
  levels: objectLevels,
  name: () => 'Missing objects',
  description: () => [
    'Finds confident predicted objects that no ground-truth box of their image overlaps: objects the annotation likely misses.',
    'Adding them as ground truth copies the predicted box and label.',
  ],
  configDescription:
    'A predicted object is flagged when its score is at least the minimum and its IoU with every ground-truth box of the image is below the threshold.',
  params: () =>
    objectParams(
      OBJECT_ISSUE_DEFAULTS.missing,
      'A ground-truth box overlapping this much or more covers the prediction',
    ),
  requires: { predictions: 'objects' },
  inputs: ['objects', 'predictions'],
  fields: [
    { name: 'score', label: 'Prediction score', type: 'numeric' },
    { name: 'max_iou', label: 'Largest IoU with a ground truth', type: 'numeric' },
  ],
  order: 2,
  run(input: CheckRunInput): CheckOutcome {
    const { truth, predicted, predictedColumns, predictionsId, options } = objectInputs(
      input,
      OBJECT_ISSUE_DEFAULTS.missing,
    );
    const result = findMissingObjects(truth, predicted, options);
    const ids = Array.from(result.rows, (row) => predictedObjectItemId(predictedColumns.ids[row]!));
    return {
      checked: result.checked,
      flagged: {
        ids,
        values: {
          score: Array.from(result.rows, (row) => tidy(predicted.score[row]!)),
          max_iou: Array.from(result.maxIou, tidy),
        },
      },
      summary: '{n} predicted objects are likely missing from the ground truth',
      preview: {
        sort_by: [{ name: 'score', direction: 'descending' }],
        visible_metadata_ids: ['object.label', 'score', 'max_iou'],
      },
      evidence: [],
      recommendation:
        ids.length === 0
          ? null
          : {
              type: 'actions',
              actions: [
                {
                  type: 'add_predicted_objects_to_ground_truth',
                  predictions_id: predictionsId,
                  suggestions: [{ id: 'add', name: 'Add as ground truth', item_ids: ids }],
                },
              ],
            },
      is_approximate: false,
    };
  },
};

const spuriousObjects: CheckDefinition = {
  key: 'spurious_objects',
  group: GROUP,
  levels: objectLevels,
  name: () => 'Spurious objects',
  description: () => [
    'Finds ground-truth boxes that no prediction of any class overlaps, in images where the model predicted objects: likely spurious annotations.',
  ],
  configDescription:
    'A ground-truth box is flagged when no prediction with at least the minimum score overlaps it with at least the IoU threshold.',
  params: () =>
    objectParams(
      OBJECT_ISSUE_DEFAULTS.spurious,
      'A prediction overlapping this much or more supports the ground truth',
    ),
  requires: { predictions: 'objects' },
  inputs: ['objects', 'predictions'],
  fields: [{ name: 'max_iou', label: 'Largest IoU with a prediction', type: 'numeric' }],
  order: 3,
  run(input: CheckRunInput): CheckOutcome {
    const { truth, truthIds, predicted, options } = objectInputs(
      input,
      OBJECT_ISSUE_DEFAULTS.spurious,
    );
    const result = findSpuriousObjects(truth, predicted, options);
    const ids = Array.from(result.rows, (row) => truthIds[row]!);
    return {
      checked: result.checked,
      flagged: { ids, values: { max_iou: Array.from(result.maxIou, tidy) } },
      summary: '{n} ground-truth objects are likely spurious',
      preview: {
        sort_by: [{ name: 'max_iou', direction: 'ascending' }],
        visible_metadata_ids: ['object.label', 'max_iou'],
      },
      evidence: [],
      recommendation: deleteRecommendation(ids),
      is_approximate: false,
    };
  },
};

const wrongObjectLabels: CheckDefinition = {
  key: 'wrong_object_labels',
  group: GROUP,
  levels: objectLevels,
  name: () => 'Wrong object labels',
  description: () => [
    'Finds ground-truth boxes that a confident prediction of another class overlaps, while no prediction of their own class does.',
    'The suggestion is the class of the highest-scoring such prediction.',
  ],
  configDescription:
    'A ground-truth box is flagged when a prediction of another class with at least the minimum score overlaps it with at least the IoU threshold, and no prediction of its class does.',
  params: () =>
    objectParams(
      OBJECT_ISSUE_DEFAULTS.wrongLabel,
      'A prediction overlapping this much or more is about the same object',
    ),
  requires: { predictions: 'objects' },
  inputs: ['objects', 'predictions'],
  fields: [
    { name: 'suggested_label', label: 'Suggested label', type: 'string' },
    { name: 'score', label: 'Prediction score', type: 'numeric' },
    { name: 'iou', label: 'IoU with the prediction', type: 'numeric' },
  ],
  order: 4,
  run(input: CheckRunInput): CheckOutcome {
    const { truth, truthIds, predicted, options } = objectInputs(
      input,
      OBJECT_ISSUE_DEFAULTS.wrongLabel,
    );
    const result = findWrongObjectLabels(truth, predicted, options);
    const ids = Array.from(result.rows, (row) => truthIds[row]!);
    const suggested = Array.from(result.suggested, (c) => className(input.snapshot, c));
    return {
      checked: result.checked,
      flagged: {
        ids,
        values: {
          suggested_label: suggested,
          score: Array.from(result.score, tidy),
          iou: Array.from(result.iou, tidy),
        },
      },
      summary: '{n} objects likely have the wrong label',
      preview: {
        sort_by: [{ name: 'score', direction: 'descending' }],
        visible_metadata_ids: ['object.label', 'suggested_label', 'score'],
      },
      evidence: [],
      recommendation:
        ids.length === 0 ? null : { type: 'actions', actions: [relabelAction(ids, suggested)] },
      is_approximate: false,
    };
  },
};

export const labelChecks: CheckDefinition[] = [
  labelErrors,
  labelErrorsKnn,
  missingObjects,
  spuriousObjects,
  wrongObjectLabels,
];
