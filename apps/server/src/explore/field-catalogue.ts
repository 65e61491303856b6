// The field catalogue of the explorer: every metadata field an item table has for a dataset,
// data level and prediction set — built-in, uploaded, computed and prediction fields — in the
// order the explorer lists them.
import {
  checkFailedField,
  checkFieldId,
  checkIgnoredField,
  COMPARISON_FIELDS,
  DATA_LEVELS,
  TASK_TRAITS,
  type DataLevel,
  type MetadataType,
  type TaskType,
} from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';

/** One metadata field of a table (docs/product.md §3 "Metadata field", without its per-request state). */
export interface FieldDef {
  id: string;
  name: string;
  label: string;
  description: string;
  group: string;
  source: 'builtin' | 'uploaded' | 'computed' | 'prediction';
  type: MetadataType;
}

/** Predicted objects are items too at object level; their ids carry this prefix. */
export const PREDICTED_OBJECT_PREFIX = 'pred:';
/** Distinct string values up to which a field lists its values (docs/product.md: allowed_values). */
export const MAX_ALLOWED_VALUES = 200;

export function regressionFieldId(name: string): string {
  return `label.values.${name}`;
}

const builtin = (
  id: string,
  label: string,
  type: MetadataType,
  group: string,
  description: string,
): FieldDef => ({ id, name: id, label, description, group, source: 'builtin', type });
const predicted = (
  id: string,
  label: string,
  type: MetadataType,
  description: string,
): FieldDef => ({
  id,
  name: id,
  label,
  description,
  group: 'Prediction',
  source: 'prediction',
  type,
});

/** Every field of a table, in the order the explorer lists them. */
export function fieldDefs(
  dataset: DatasetRecord,
  level: DataLevel,
  stored: MetadataFieldRecord[],
  withPredictions: boolean,
): FieldDef[] {
  const { label, hasObjects } = TASK_TRAITS[dataset.task_type];
  const valueNames = dataset.value_names;
  const defs: FieldDef[] = [
    builtin('card_index', 'Index', 'numeric', 'General', 'Position in upload order'),
    builtin('split', 'Split', 'string', 'General', 'Dataset split'),
  ];
  if (level === 'image_object') {
    defs.push(
      builtin('sample_id', 'Sample id', 'string', 'General', 'Id of the image the object is in'),
      builtin('object.label', 'Label', 'string', 'Object', 'Label of the object'),
      builtin(
        'object.type',
        'Object type',
        'string',
        'Object',
        "'gt' for ground truth, 'pred' for a predicted object",
      ),
    );
  } else if (label === 'class') {
    defs.push(builtin('label', 'Label', 'string', 'Label', 'Ground-truth label'));
  } else if (label === 'value') {
    for (const name of valueNames)
      defs.push(builtin(regressionFieldId(name), name, 'numeric', 'Label', `Ground-truth ${name}`));
  }
  const taken = new Set(defs.map((d) => d.id));
  for (const row of stored) {
    if (taken.has(row.id)) continue;
    if (row.source !== 'uploaded' && row.source !== 'computed') continue;
    taken.add(row.id);
    defs.push({
      id: row.id,
      name: row.name,
      label: row.label,
      description: row.description,
      group: row.group_name,
      source: row.source,
      type: row.type,
    });
  }
  if (!withPredictions) return defs;
  if (level === 'image_object') {
    defs.push(
      predicted('prediction.score', 'Score', 'numeric', 'Confidence of a predicted object'),
      predicted(
        'prediction.is_matched',
        'Matched',
        'boolean',
        'A predicted object that matches a ground truth of its label at the IoU threshold, or a ground truth that such a prediction matches',
      ),
      predicted(
        'prediction.match_status',
        'Match status',
        'string',
        "At the IoU threshold: 'TP' for a matched prediction or ground truth, 'FP' for an unmatched prediction, 'FN' for an unmatched ground truth",
      ),
      predicted(
        'prediction.iou',
        'IoU',
        'numeric',
        'IoU with the matched object; for an unmatched object, its highest IoU with an object of the other kind and the same label',
      ),
    );
  } else if (label === 'class') {
    defs.push(
      predicted('prediction.label', 'Predicted label', 'string', 'Label the model predicted'),
      predicted('prediction.score', 'Score', 'numeric', 'Confidence of the predicted label'),
      predicted(
        'prediction.is_correct',
        'Prediction is correct',
        'boolean',
        'Predicted label equals the ground-truth label',
      ),
    );
  } else if (label === 'value') {
    for (const name of valueNames) {
      defs.push(
        predicted(`prediction.values.${name}`, `Predicted ${name}`, 'numeric', `Predicted ${name}`),
        predicted(
          `prediction.absolute_error.${name}`,
          `Absolute error of ${name}`,
          'numeric',
          `|predicted − ground truth| of ${name}`,
        ),
      );
    }
    defs.push(
      predicted(
        'prediction.absolute_error',
        'Absolute error',
        'numeric',
        'Mean absolute error over all values',
      ),
      predicted(
        'prediction.squared_error',
        'Squared error',
        'numeric',
        'Mean squared error over all values',
      ),
    );
  } else if (label === 'transcript') {
    defs.push(
      predicted('prediction.wer', 'Word error rate', 'numeric', 'WER of the predicted transcript'),
      predicted('prediction.mer', 'Match error rate', 'numeric', 'MER of the predicted transcript'),
      predicted(
        'prediction.wil',
        'Word information lost',
        'numeric',
        'WIL of the predicted transcript',
      ),
      predicted(
        'prediction.word_hits',
        'Word hits',
        'numeric',
        'Reference words the predicted transcript has right',
      ),
      predicted(
        'prediction.word_substitutions',
        'Word substitutions',
        'numeric',
        'Reference words the predicted transcript has replaced by another word',
      ),
      predicted(
        'prediction.word_deletions',
        'Word deletions',
        'numeric',
        'Reference words missing from the predicted transcript',
      ),
      predicted(
        'prediction.word_insertions',
        'Word insertions',
        'numeric',
        'Words of the predicted transcript that are not in the reference',
      ),
    );
  } else if (label === 'mask') {
    // From the statistics stored with each prediction: missing until its job has computed them.
    defs.push(
      predicted(
        'prediction.iou',
        'IoU',
        'numeric',
        'Mean IoU of the predicted mask over the classes in its ground truth or prediction',
      ),
      predicted(
        'prediction.pixel_accuracy',
        'Pixel accuracy',
        'numeric',
        'Pixels of the predicted mask with the ground-truth class',
      ),
    );
  } else if (hasObjects) {
    defs.push(
      predicted(
        'prediction.object_count',
        'Predicted objects',
        'numeric',
        'Number of predicted objects in the image',
      ),
      predicted(
        'prediction.tp',
        'True positives',
        'numeric',
        'Predicted objects in the image that match a ground truth of their label at the IoU threshold',
      ),
      predicted(
        'prediction.fp',
        'False positives',
        'numeric',
        'Predicted objects in the image that match no ground truth',
      ),
      predicted(
        'prediction.fn',
        'False negatives',
        'numeric',
        'Ground-truth objects in the image that no prediction matches',
      ),
    );
  }
  return defs;
}

const compared = (
  id: string,
  label: string,
  type: MetadataType,
  description: string,
): FieldDef => ({
  id,
  name: id,
  label,
  description,
  group: 'Comparison',
  source: 'computed',
  type,
});

/**
 * The per-item columns of a comparison of two models at a level (docs/model-comparison.md, "The
 * explorer in a comparison"), listed after the table's own fields while a comparison is the
 * context of the explorer's requests. Object tasks compare objects, so only their object level
 * has them; semantic segmentation compares the masks of a sample, which hold several categories.
 */
export function comparisonFieldDefs(task: TaskType, level: DataLevel): FieldDef[] {
  const { label, hasObjects } = TASK_TRAITS[task];
  const comparedLevel: DataLevel = hasObjects ? 'image_object' : DATA_LEVELS[task][0]!;
  if (level !== comparedLevel) return [];
  // Masks have no sample-level difference or bin: their distribution is not an explore link.
  if (label === 'mask')
    return [
      compared(
        COMPARISON_FIELDS.categories,
        'Comparison categories',
        'string',
        "The comparison categories of the sample's ground-truth masks, joined by ','",
      ),
    ];
  const defs: FieldDef[] = [
    compared(
      COMPARISON_FIELDS.category,
      'Comparison category',
      'string',
      'Which model does better on the item: model_a_is_better, model_b_is_better, both_are_neutral or both_are_problematic',
    ),
  ];
  if (hasObjects)
    defs.push(
      compared(
        COMPARISON_FIELDS.subcategory,
        'Comparison subcategory',
        'string',
        'How each model matched the object, e.g. tp_a_fn_b: model A found it, model B missed it',
      ),
    );
  defs.push(
    compared(
      COMPARISON_FIELDS.delta,
      'Difference B − A',
      'numeric',
      "Model B's value minus model A's in the comparison's distribution",
    ),
    compared(
      COMPARISON_FIELDS.bin,
      'Distribution bin',
      'numeric',
      "Index of the item's bin in the comparison's distribution",
    ),
  );
  return defs;
}

/**
 * The per-item fields of health checks (docs/health-checks.md, "Explorer"), listed after the
 * table's own fields: whether the item fails the check, whether it is ignored, and the check's own
 * fields, labelled with the check's name.
 */
export function checkFieldDefs(
  checks: readonly {
    id: string;
    name: string;
    fields: readonly { name: string; label: string; type: 'numeric' | 'string' }[];
  }[],
): FieldDef[] {
  const def = (id: string, label: string, type: MetadataType, description: string): FieldDef => ({
    id,
    name: id,
    label,
    description,
    group: 'Health checks',
    source: 'computed',
    type,
  });
  return checks.flatMap((check) => [
    def(
      checkFailedField(check.id),
      `${check.name}: failed`,
      'boolean',
      `The item fails the health check ${check.name} (and is not ignored)`,
    ),
    def(
      checkIgnoredField(check.id),
      `${check.name}: ignored`,
      'boolean',
      `The item is ignored by the health check ${check.name}`,
    ),
    ...check.fields.map((f) =>
      def(checkFieldId(check.id, f.name), `${check.name}: ${f.label}`, f.type, f.label),
    ),
  ]);
}
