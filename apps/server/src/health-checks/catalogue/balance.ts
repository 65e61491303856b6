// Class Balance checks (docs/health-checks.md, "Balance"): skewed classes within a split, label
// distributions that differ between splits, and classes with too few items in a split. They fail
// on a table of counts per split and recommend what to collect or re-split.
import {
  BALANCE_DEFAULTS,
  classCountsPerSplit,
  classImbalance,
  labelShift,
  rareClasses,
  referenceSplit,
  type ClassCounts,
} from '@loupe/analysis';
import {
  TASK_TRAITS,
  type CheckParams,
  type DataLevel,
  type Evidence,
  type TaskType,
} from '@loupe/contracts';
import { numberParam } from './common.js';
import type { CheckDefinition, CheckOutcome, CheckRunInput, CheckSnapshot } from './types.js';

/** The sample level of classification tasks (image or audio); none for the others. */
function classificationLevels(task: TaskType): DataLevel[] {
  const traits = TASK_TRAITS[task];
  return traits.label === 'class' ? [traits.dataLevels[0]!] : [];
}

function countsOf(snapshot: CheckSnapshot): ClassCounts {
  const { label, split, splitNames } = snapshot.samples;
  return classCountsPerSplit(label, split, snapshot.classes.length, splitNames.length);
}

/** Items with a label and a split: what every balance check looks at. */
function checkedItems(counts: ClassCounts): number {
  return counts.splitTotals.reduce((a, b) => a + b, 0);
}

/** Shares rounded to four decimals (0.0323), so the table reads as percentages to two places. */
const share = (count: number, total: number): number | null =>
  total > 0 ? Number((count / total).toFixed(4)) : null;

/** Rows = classes; per split with labelled items a 'Count' and a 'Share' column. */
function countsTable(
  snapshot: CheckSnapshot,
  counts: ClassCounts,
  description: string,
  flaggedClasses: Iterable<number>,
): Evidence {
  const { classCount } = counts;
  const splits = snapshot.samples.splitNames.flatMap((name, s) => {
    const total = counts.splitTotals[s]!;
    if (total === 0) return [];
    const row = Array.from(counts.counts.subarray(s * classCount, (s + 1) * classCount));
    return [
      {
        split_name: name,
        columns: [
          { name: 'Count', values: row },
          { name: 'Share', values: row.map((count) => share(count, total)) },
        ],
      },
    ];
  });
  const flagged = [...new Set(flaggedClasses)].sort((a, b) => a - b);
  return {
    type: 'table_per_split',
    description,
    rows: snapshot.classes.slice(0, classCount),
    splits,
    flagged_rows: flagged.map((c) => snapshot.classes[c]!),
  };
}

function outcome(
  counts: ClassCounts,
  failed: boolean,
  summary: string,
  table: Evidence,
  recommendations: string[],
  flagged: { ids: string[]; values: Record<string, (number | string | null)[]> } = {
    ids: [],
    values: {},
  },
): CheckOutcome {
  return {
    checked: checkedItems(counts),
    flagged,
    verdict: failed ? 'fail' : 'pass',
    summary,
    evidence: [table],
    recommendation:
      failed && recommendations.length > 0
        ? { type: 'text_recommendation', value: recommendations }
        : null,
    is_approximate: false,
  };
}

const base = {
  group: 'Class Balance' as const,
  levels: classificationLevels,
  requires: {},
  inputs: ['label' as const, 'split' as const],
};

const classImbalanceCheck: CheckDefinition = {
  ...base,
  key: 'class_imbalance',
  name: () => 'Class imbalance',
  description: () => [
    'Finds splits whose smallest class has far fewer items than their largest (among the classes the split has).',
    'A model trained on skewed classes learns to favour the large ones.',
  ],
  configDescription:
    'A split fails when its smallest class count divided by its largest is below the ratio.',
  params: (): CheckParams => ({
    ratio: {
      type: 'float',
      label: 'Smallest / largest below',
      description: 'Ratio of the smallest to the largest class count in a split',
      value: BALANCE_DEFAULTS.imbalanceRatio,
      min: 0,
      max: 1,
    },
  }),
  fields: [],
  order: 0,
  run({ snapshot, params }: CheckRunInput): CheckOutcome {
    const counts = countsOf(snapshot);
    const ratio = numberParam(params, 'ratio', BALANCE_DEFAULTS.imbalanceRatio);
    const splits = classImbalance(counts, ratio).filter((s) => s.imbalanced);
    const names = snapshot.samples.splitNames;
    const recommendations = splits.flatMap((s) =>
      s.minorityClasses.map(
        (c) => `Collect or upload more items of ${snapshot.classes[c]} for ${names[s.split]}`,
      ),
    );
    const summary =
      splits.length === 0
        ? 'Classes are balanced in every split'
        : `Classes are imbalanced in ${splits.length === 1 ? 'split' : 'splits'} ${splits
            .map((s) => `${names[s.split]} (smallest / largest ${s.ratio.toFixed(3)})`)
            .join(', ')}`;
    const table = countsTable(
      snapshot,
      counts,
      `Items per class and split; a split fails when its smallest class count is below ${ratio} of its largest.`,
      splits.flatMap((s) => s.minorityClasses),
    );
    return outcome(counts, splits.length > 0, summary, table, recommendations);
  },
};

const splitLabelShift: CheckDefinition = {
  ...base,
  key: 'split_label_shift',
  name: () => 'Label distribution differs between splits',
  description: () => [
    "Compares each split's label distribution with the train split's (or the largest split's) by total variation distance: half the sum over classes of the difference in shares.",
    'A model evaluated on a split with other class proportions than it was trained on is judged on a different problem.',
  ],
  configDescription: 'A split fails when its distance to the reference split is above the limit.',
  params: (): CheckParams => ({
    max_distance: {
      type: 'float',
      label: 'Distance above',
      description: 'Total variation distance between label distributions, 0 to 1',
      value: BALANCE_DEFAULTS.maxLabelShift,
      min: 0,
      max: 1,
    },
  }),
  fields: [],
  order: 1,
  run({ snapshot, params }: CheckRunInput): CheckOutcome {
    const counts = countsOf(snapshot);
    const maxDistance = numberParam(params, 'max_distance', BALANCE_DEFAULTS.maxLabelShift);
    const names = snapshot.samples.splitNames;
    const reference = referenceSplit(counts, names);
    const shifted = labelShift(counts, reference, maxDistance).filter((s) => s.shifted);
    // Highlight per shifted split the class whose share moved most, and any that moved by more
    // than the limit.
    const flaggedClasses = shifted.flatMap((s) => {
      const moved = Array.from(s.shareDifference, Math.abs);
      const largest = moved.indexOf(Math.max(...moved));
      return moved.flatMap((m, c) => (c === largest || m > maxDistance ? [c] : []));
    });
    const summary =
      shifted.length === 0
        ? 'Every split has about the same label distribution'
        : `The label distribution of ${shifted
            .map((s) => `${names[s.split]} (distance ${s.distance.toFixed(3)})`)
            .join(', ')} differs from ${names[reference]}'s`;
    const table = countsTable(
      snapshot,
      counts,
      reference < 0
        ? 'Items per class and split.'
        : `Items per class and split; each split is compared with ${names[reference]}, failing above a total variation distance of ${maxDistance}.`,
      flaggedClasses,
    );
    return outcome(counts, shifted.length > 0, summary, table, [
      'Re-split the dataset so that every split has the same label distribution',
    ]);
  },
};

const rareClass: CheckDefinition = {
  ...base,
  key: 'rare_class',
  name: () => 'Rare classes',
  description: () => [
    'Finds classes with fewer than a minimum number of items in a split, including classes a split lacks that other splits have.',
    'Too few examples cannot teach a class, nor measure how well a model knows it.',
  ],
  configDescription: 'A class fails in a split where it has fewer items than the minimum.',
  params: (): CheckParams => ({
    min_count: {
      type: 'int',
      label: 'Fewer items than',
      description: 'Items of a class in a split',
      value: BALANCE_DEFAULTS.minClassCount,
      min: 1,
      max: 100_000,
    },
  }),
  fields: [
    { name: 'class', label: 'Rare class', type: 'string' },
    { name: 'count', label: 'Items of the class in the split', type: 'numeric' },
  ],
  order: 2,
  run({ snapshot, params }: CheckRunInput): CheckOutcome {
    const counts = countsOf(snapshot);
    const minCount = Math.round(numberParam(params, 'min_count', BALANCE_DEFAULTS.minClassCount));
    const rare = rareClasses(counts, minCount);
    const names = snapshot.samples.splitNames;
    const rareIn = new Map(rare.map((r) => [r.split * counts.classCount + r.class, r.count]));
    const { ids: sampleIds, label, split } = snapshot.samples;
    const ids: string[] = [];
    const classValues: string[] = [];
    const countValues: number[] = [];
    sampleIds.forEach((id, row) => {
      if (label[row]! < 0 || split[row]! < 0) return;
      const count = rareIn.get(split[row]! * counts.classCount + label[row]!);
      if (count === undefined) return;
      ids.push(id);
      classValues.push(snapshot.classes[label[row]!]!);
      countValues.push(count);
    });
    const summary =
      rare.length === 0
        ? 'Every class has enough items in every split'
        : `${rare.length} ${rare.length === 1 ? 'class has' : 'classes have'} fewer than ${minCount} items in a split: ${rare
            .map((r) => `${snapshot.classes[r.class]} in ${names[r.split]} (${r.count})`)
            .join(', ')}`;
    const table = countsTable(
      snapshot,
      counts,
      `Items per class and split; a class fails in a split where it has fewer than ${minCount} items.`,
      rare.map((r) => r.class),
    );
    return outcome(
      counts,
      rare.length > 0,
      summary,
      table,
      rare.map(
        (r) => `Collect or upload more items of ${snapshot.classes[r.class]} for ${names[r.split]}`,
      ),
      { ids, values: { class: classValues, count: countValues } },
    );
  },
};

export const balanceChecks: CheckDefinition[] = [classImbalanceCheck, splitLabelShift, rareClass];
