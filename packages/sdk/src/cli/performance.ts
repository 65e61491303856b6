// `loupe performance`: a model's performance as its page shows it (docs/model-performance.md):
// statistics per split, the table per class, word or value name of one split and, with
// --subsets, the enabled subsets. Waits while the server computes it, with progress on stderr.
// The text is the same as the Python SDK's `loupe performance` prints.
import { ALL_SPLITS, type PrimaryKey, type TaskType } from '@loupe/contracts';
import { formatByType, metricTitle } from '@loupe/metrics';
import { LoupeError } from '../client/errors.js';
import type { Performance } from '../client/performance.js';
import { parseOptions, required, type Command } from './command.js';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connect } from './connection.js';
import { CliError } from './errors.js';
import {
  COMPUTING_OPTIONS,
  computingReporter,
  datasetWithSplit,
  timeoutSeconds,
} from './computing.js';

const usage = `Usage: loupe performance --dataset ID|NAME --model ID|NAME [--split NAME] [--subsets]
         [--json] [--no-wait] [--timeout SECONDS]

Prints a model's performance as its page in the web app shows it: the statistics in every split,
the performance per class (word, value name) in one split and, with --subsets, the performance
of the subsets enabled for performance in that split. The server computes it in the background
the first time it is asked for (and again after the data changes); the command waits for it,
showing progress on stderr.

  --split NAME        the split of the per-class table and of --subsets (default 'all')
  --subsets           also print the subsets enabled for performance
  --json              print the server's answers as one JSON object instead of tables
  --no-wait           answer at once, even while computing (status and progress in --json)
  --timeout SECONDS   give up waiting after this long (default 600); exit code 1

${CONNECTION_USAGE}
`;

const KEY_TITLES: Record<PrimaryKey, string> = {
  class: 'Class',
  word: 'Word',
  value_name: 'Value name',
};

const value = (metricId: string, v: number | null | undefined) => formatByType(metricId, v ?? NaN);

/** Columns separated by two spaces; the first left-aligned, the others right-aligned. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The tables `loupe performance` prints (both SDKs print the same text). */
export function performanceText(
  heading: { dataset: string; model: string; task: TaskType },
  performance: Performance,
  split: string,
): string {
  const { statistics, overall, subsets } = performance;
  // The task names some metrics better than the catalogue does ('count' of classification).
  const title = (metricId: string) => metricTitle(heading.task, metricId);
  const parts: string[] = [
    `Performance of model '${heading.model}' on dataset '${heading.dataset}' (${heading.task})\n` +
      `${statistics.num_items} items, ${statistics.num_missing} without a prediction`,
  ];
  if (statistics.status !== 'ready' || overall.status !== 'ready')
    parts.push(
      `Status: ${statistics.status} (${Math.round(Math.min(statistics.progress, overall.progress) * 100)}%)`,
    );
  const splits = statistics.splits;
  parts.push(
    'Statistics\n' +
      table([
        ['Metric', ...splits],
        ...statistics.statistics.map((statistic) => [
          title(statistic.metric_name),
          ...splits.map((name) =>
            value(
              statistic.metric_name,
              statistic.values.find((v) => v.split_name === name)?.value,
            ),
          ),
        ]),
      ]),
  );
  const rows = overall.splits.find((s) => s.split_name === split)?.rows ?? [];
  const noun = KEY_TITLES[overall.primary_key];
  parts.push(
    `Overall performance per ${noun.toLowerCase()} (split ${split})\n` +
      (rows.length === 0
        ? 'No rows.'
        : table([
            [noun, ...overall.metrics.map(title)],
            ...rows.map((row) => [
              row.key,
              ...overall.metrics.map((metric) => value(metric, row.values[metric])),
            ]),
          ])),
  );
  if (subsets) {
    const entries = Object.values(subsets.performance_per_subset);
    const metrics = [...new Set(entries.flatMap((e) => Object.keys(e.performance_per_metric)))];
    parts.push(
      `Subset performance (split ${split})\n` +
        (entries.length === 0
          ? 'No subset performance entries found.'
          : table([
              ['Subset', 'Level', 'Items', ...metrics.map(title)],
              ...entries.map((entry) => [
                entry.subset.name,
                entry.subset.data_level,
                `${entry.num_items_used}/${entry.num_items_total}`,
                ...metrics.map((metric) => value(metric, entry.performance_per_metric[metric])),
              ]),
            ])) +
        (subsets.pending_subsets.length
          ? `\n${subsets.pending_subsets.length} subsets pending`
          : ''),
    );
  }
  return `${parts.join('\n\n')}\n`;
}

export const performanceCommand: Command = {
  name: 'performance',
  summary: "print a model's performance (statistics, per class, subsets)",
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      {
        ...CONNECTION_OPTIONS,
        dataset: { type: 'string' },
        model: { type: 'string' },
        split: { type: 'string' },
        ...COMPUTING_OPTIONS,
      },
      usage,
    );
    const datasetName = required(values, 'dataset', usage);
    const modelName = required(values, 'model', usage);
    const split = (values.split as string | undefined) ?? ALL_SPLITS;
    const timeout = timeoutSeconds(values, usage);
    const client = connect(values);
    const reporter = computingReporter('performance', io, Boolean(process.stderr.isTTY));
    try {
      const dataset = await datasetWithSplit(client, datasetName, split);
      const model = await dataset.predictionSet(modelName);
      const performance = await model.performance({
        wait: !values['no-wait'],
        timeoutMs: timeout * 1000,
        subsets: Boolean(values.subsets),
        split,
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
              model: { id: model.id, name: model.info.name },
              split,
              ...performance,
            },
            null,
            2,
          )}\n`,
        );
      } else {
        io.stdout(
          performanceText(
            { dataset: dataset.info.name, model: model.info.name, task: dataset.info.task_type },
            performance,
            split,
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
