// `loupe compare`: two models compared as the model comparison page shows it
// (docs/sdk-typescript.md): which model wins each comparison metric, the active metric's
// breakdown per class or word, the per-sample, per-mask and per-object sections with their
// category (and subcategory) counts and, with --subsets, the enabled subsets. Waits while the
// server computes it, with progress on stderr. The Python SDK's `loupe compare` prints the same.
import {
  ALL_SPLITS,
  COMPARISON_CATEGORY_LABELS,
  COMPARISON_MESSAGES,
  comparisonSegments,
  GROUND_TRUTH_SUBCATEGORIES,
  PREDICTION_SUBCATEGORIES,
  type ComparisonSection,
  type ComparisonUnit,
  type EntityBreakdown,
  type MetricValue,
  type TaskType,
} from '@loupe/contracts';
import { formatByType, formatMetricValue, metricTitle } from '@loupe/metrics';
import { LoupeError } from '../client/errors.js';
import type { Comparison } from '../client/compare.js';
import { parseOptions, required, type Command } from './command.js';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connect } from './connection.js';
import { CliError } from './errors.js';
import {
  COMPUTING_OPTIONS,
  computingReporter,
  datasetWithSplit,
  timeoutSeconds,
} from './computing.js';

const usage = `Usage: loupe compare --dataset ID|NAME --model-a ID|NAME --model-b ID|NAME [--metric ID]
         [--split NAME] [--value-name NAME] [--subsets] [--json] [--no-wait] [--timeout SECONDS]

Prints model B compared with model A as the model comparison page in the web app shows it: which
model is better on each comparison metric, the breakdown of the active metric per class (per
word for speech recognition), and how many samples, ground-truth objects, predicted objects or
masks each model is better on; with --subsets, both models on the subsets enabled for
performance. The server computes it in the background the first time it is asked for (and again
after the data changes); the command waits for it, showing progress on stderr.

  --metric ID         the active comparison metric, e.g. macro_f1_score (default: the task's first)
  --split NAME        the split compared (default 'all')
  --value-name NAME   regression: the value compared (default: every value name, averaged)
  --subsets           also print the subsets enabled for performance
  --json              print the server's answer as one JSON object instead of tables
  --no-wait           answer at once, even while computing (status and progress in --json)
  --timeout SECONDS   give up waiting after this long (default 600); exit code 1

${CONNECTION_USAGE}
`;

/** How many entities of each category the per-class (per-word) table lists, as the page does. */
export const ENTITIES_SHOWN = 5;

const SECTION_TITLES: Record<ComparisonUnit, string> = {
  sample: 'Per sample breakdown',
  mask: 'Per ground-truth mask breakdown',
  ground_truth_object: 'Ground-truth objects',
  predicted_object: 'Predicted objects',
};

const UNIT_NOUNS: Record<ComparisonUnit, string> = {
  sample: 'samples',
  mask: 'masks',
  ground_truth_object: 'objects',
  predicted_object: 'objects',
};

/**
 * Columns separated by two spaces, the first `left` left-aligned (names, labels), the others
 * right-aligned (numbers).
 */
function table(rows: string[][], left = 1): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const percentage = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/** A difference B − A in the metric's format, signed ('+' when B is higher). */
function signed(metricId: string, delta: MetricValue): string {
  if (delta === null || !Number.isFinite(delta)) return '–';
  const text = formatByType(metricId, Math.abs(delta));
  return delta > 0 ? `+${text}` : delta < 0 ? `-${text}` : formatByType(metricId, 0);
}

/** The relative delta, already a percentage of |A|, signed with 2 decimals. */
function relative(percent: MetricValue): string {
  if (percent === null || !Number.isFinite(percent)) return '–';
  const text = `${Math.abs(percent).toFixed(2)}%`;
  return percent > 0 ? `+${text}` : percent < 0 ? `-${text}` : text;
}

const BETTER = { model_a_is_better: 'Model A', model_b_is_better: 'Model B' } as const;

function breakdownText(task: TaskType, breakdown: EntityBreakdown): string {
  const labels = COMPARISON_CATEGORY_LABELS[task];
  const segments = comparisonSegments(task);
  const noun = breakdown.entity === 'class' ? 'Class' : 'Word';
  const plural = breakdown.entity === 'class' ? 'Classes' : 'Words';
  const hiddenNoun = (n: number) =>
    n === 1 ? breakdown.entity : breakdown.entity === 'class' ? 'classes' : 'words';
  const rows: string[][] = [[noun, 'Category', 'Model A', 'Model B', 'Delta']];
  let hidden = 0;
  for (const category of segments) {
    const entities = breakdown[category];
    hidden += Math.max(0, entities.length - ENTITIES_SHOWN);
    for (const e of entities.slice(0, ENTITIES_SHOWN))
      rows.push([
        e.entity,
        labels[category],
        formatByType(breakdown.metric, e.model_a),
        formatByType(breakdown.metric, e.model_b),
        signed(breakdown.metric, e.raw_delta),
      ]);
  }
  return (
    `${COMPARISON_MESSAGES.perEntityTitle(breakdown.entity)} (${metricTitle(task, breakdown.metric)})\n` +
    `${COMPARISON_MESSAGES.summary(breakdown.model_a_is_better.length, breakdown.model_b_is_better.length)}\n` +
    table([
      ['Category', plural],
      ...segments.map((c) => [labels[c], String(breakdown[c].length)]),
    ]) +
    (rows.length > 1 ? `\n\n${table(rows, 2)}` : '') +
    (hidden ? `\n${hidden} more ${hiddenNoun(hidden)} not shown (--json lists them all)` : '')
  );
}

function sectionText(task: TaskType, section: ComparisonSection): string {
  const labels = COMPARISON_CATEGORY_LABELS[task];
  const lines = [
    `${SECTION_TITLES[section.unit]} (${section.num_items} ${UNIT_NOUNS[section.unit]})\n` +
      table([
        ['Category', 'Items', 'Share'],
        ...comparisonSegments(task).map((c) => [
          labels[c],
          String(section[c].num_items),
          percentage(section[c].fraction_of_total_items),
        ]),
      ]),
  ];
  // In the order of the contracts' lists: a section holds the ground truths' four or the
  // predictions' eight.
  const order =
    section.unit === 'predicted_object' ? PREDICTION_SUBCATEGORIES : GROUND_TRUTH_SUBCATEGORIES;
  const subcategories = order.filter((s) => section.subcategories[s]);
  if (subcategories.length)
    lines.push(
      table(
        [
          ['Subcategory', 'Category', 'Items', 'Share'],
          ...subcategories.map((s) => {
            const entry = section.subcategories[s]!;
            return [
              s,
              labels[entry.category],
              String(entry.num_items),
              percentage(entry.fraction_of_total_items),
            ];
          }),
        ],
        2,
      ),
    );
  const { distribution } = section;
  lines.push(
    `${distribution.x_label}: mean ${formatMetricValue(distribution.mean ?? NaN)}, std ${formatMetricValue(distribution.std ?? NaN)}`,
  );
  return lines.join('\n\n');
}

/** The tables `loupe compare` prints (both SDKs print the same text). */
export function compareText(
  heading: { dataset: string; modelA: string; modelB: string },
  comparison: Comparison,
): string {
  const { task } = comparison;
  const title = (metricId: string) => metricTitle(task, metricId);
  const context = [`Split ${comparison.split}`, `metric ${title(comparison.metric)}`];
  if (comparison.regression_value_name !== null)
    context.push(`value name ${comparison.regression_value_name}`);
  if (comparison.iou_threshold !== null) context.push(`IoU ${comparison.iou_threshold}`);
  const parts: string[] = [
    `Comparison of model A '${heading.modelA}' and model B '${heading.modelB}' on dataset '${heading.dataset}' (${task})\n` +
      context.join(', '),
  ];
  if (comparison.status !== 'ready')
    parts.push(`Status: ${comparison.status} (${Math.round(comparison.progress * 100)}%)`);
  const overall = Object.entries(comparison.overall);
  parts.push(
    'Overall\n' +
      (overall.length === 0
        ? 'No metrics.'
        : table([
            ['Metric', 'Model A', 'Model B', 'Delta', 'Relative', 'Better'],
            ...overall.map(([metric, d]) => [
              title(metric),
              formatByType(metric, d.model_a ?? NaN),
              formatByType(metric, d.model_b ?? NaN),
              signed(metric, d.raw_delta),
              relative(d.relative_delta),
              d.better ? BETTER[d.better] : '–',
            ]),
          ])),
  );
  if (comparison.per_class_unavailable)
    parts.push(
      `${COMPARISON_MESSAGES.perClassDisabledTitle}\n${COMPARISON_MESSAGES.accuracyDisabled}\n${COMPARISON_MESSAGES.accuracyDisabledHint}`,
    );
  for (const breakdown of [comparison.per_class, comparison.per_word])
    if (breakdown) parts.push(breakdownText(task, breakdown));
  for (const section of [
    comparison.per_sample,
    comparison.per_object_gt,
    comparison.per_object_pred,
  ])
    if (section) parts.push(sectionText(task, section));
  const { subsets } = comparison;
  if (subsets) {
    const labels = COMPARISON_CATEGORY_LABELS[task];
    const entries = Object.values(subsets.comparison_per_subset);
    parts.push(
      `Subset performance in comparison (split ${comparison.split})\n` +
        (entries.length === 0
          ? 'No subset performance entries found.'
          : table(
              [
                ['Subset', 'Level', 'Metric', 'Category', 'Items', 'Model A', 'Model B', 'Delta'],
                ...entries.map((entry) => {
                  const metric = entry.metric_name;
                  const d = entry.comparison_per_metric[metric];
                  return [
                    entry.subset.name,
                    entry.subset.data_level,
                    title(metric),
                    d?.category ? labels[d.category] : '–',
                    `${entry.num_items_used}/${entry.num_items_total}`,
                    formatByType(metric, d?.model_a ?? NaN),
                    formatByType(metric, d?.model_b ?? NaN),
                    signed(metric, d?.raw_delta ?? null),
                  ];
                }),
              ],
              4,
            )) +
        (subsets.pending_subsets.length
          ? `\n${subsets.pending_subsets.length} subsets pending`
          : ''),
    );
  }
  return `${parts.join('\n\n')}\n`;
}

export const compareCommand: Command = {
  name: 'compare',
  summary: 'compare two models (overall, per class, per sample and object, subsets)',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      {
        ...CONNECTION_OPTIONS,
        dataset: { type: 'string' },
        'model-a': { type: 'string' },
        'model-b': { type: 'string' },
        metric: { type: 'string' },
        split: { type: 'string' },
        'value-name': { type: 'string' },
        ...COMPUTING_OPTIONS,
      },
      usage,
    );
    const datasetName = required(values, 'dataset', usage);
    const nameA = required(values, 'model-a', usage);
    const nameB = required(values, 'model-b', usage);
    const split = (values.split as string | undefined) ?? ALL_SPLITS;
    const timeout = timeoutSeconds(values, usage);
    const client = connect(values);
    const reporter = computingReporter('comparison', io, Boolean(process.stderr.isTTY));
    try {
      const dataset = await datasetWithSplit(client, datasetName, split);
      const modelA = await dataset.predictionSet(nameA);
      const modelB = await dataset.predictionSet(nameB);
      const comparison = await modelA.compare(modelB, {
        ...(values.metric === undefined ? {} : { metric: values.metric as string }),
        split,
        ...(values['value-name'] === undefined
          ? {}
          : { regressionValueName: values['value-name'] as string }),
        subsets: Boolean(values.subsets),
        wait: !values['no-wait'],
        timeoutMs: timeout * 1000,
        onProgress: (progress) => reporter.update(progress),
      });
      reporter.done();
      if (values.json) {
        io.stdout(
          `${JSON.stringify(
            {
              dataset: {
                id: dataset.id,
                name: dataset.info.name,
                task_type: dataset.info.task_type,
              },
              model_a: { id: modelA.id, name: modelA.info.name },
              model_b: { id: modelB.id, name: modelB.info.name },
              ...comparison,
            },
            null,
            2,
          )}\n`,
        );
      } else {
        io.stdout(
          compareText(
            { dataset: dataset.info.name, modelA: modelA.info.name, modelB: modelB.info.name },
            comparison,
          ),
        );
      }
      return 0;
    } catch (error) {
      reporter.done();
      if (error instanceof LoupeError) throw new CliError(error.message, 1);
      throw error;
    }
  },
};
