// `loupe eval regression`: MSE and MAE per value name from a labels CSV and a predictions CSV.
import { regressionReport } from '@loupe/metrics';
import { parseOptions, required, type Command } from '../command.js';
import { numberCell, parseCsv, rowsById } from '../csv.js';
import { CliError } from '../errors.js';
import { readText } from '../io.js';
import { printJson } from './output.js';

const usage = `Usage: loupe eval regression --labels L.csv --predictions P.csv

  --labels FILE        CSV with columns id plus one per value name
  --predictions FILE   CSV with the same columns
An empty cell is a missing value and is skipped for that value name. Prints per_value
{name: {mse, mae, count}} and mse / mae, the unweighted means over the value names.
`;

export const regressionEval: Command = {
  name: 'regression',
  summary: 'regression (mean squared and mean absolute error per value)',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      { labels: { type: 'string' }, predictions: { type: 'string' } },
      usage,
    );
    const labelsPath = required(values, 'labels', usage);
    const predictionsPath = required(values, 'predictions', usage);
    const labels = parseCsv(await readText(io, labelsPath), labelsPath);
    const predictions = parseCsv(await readText(io, predictionsPath), predictionsPath);
    const names = labels.header.filter((h) => h !== 'id');
    if (names.length === 0) throw new CliError(`${labelsPath}: no value columns besides "id"`);
    for (const name of names) {
      if (!predictions.header.includes(name)) {
        throw new CliError(
          `${predictionsPath}: missing column "${name}" (a value of ${labelsPath})`,
        );
      }
    }
    const labelRows = rowsById(labels);
    const predRows = rowsById(predictions);
    const N = labelRows.size;
    const truth: Record<string, Float64Array> = {};
    const predicted: Record<string, Float64Array> = {};
    for (const name of names) {
      truth[name] = new Float64Array(N);
      predicted[name] = new Float64Array(N);
    }
    let i = 0;
    for (const [id, row] of labelRows) {
      const pred = predRows.get(id);
      if (!pred) {
        throw new CliError(
          `${predictionsPath}: no prediction for id "${id}" (${labelsPath} line ${row.line})`,
        );
      }
      for (const name of names) {
        truth[name]![i] = numberCell(labels, row, labels.header.indexOf(name), true);
        predicted[name]![i] = numberCell(predictions, pred, predictions.header.indexOf(name), true);
      }
      i++;
    }
    const report = regressionReport(truth, predicted);
    return printJson(io, {
      num_items: N,
      per_value: report.perValue,
      mse: report.overall.mse,
      mae: report.overall.mae,
    });
  },
};
