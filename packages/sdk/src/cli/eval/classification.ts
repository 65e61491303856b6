// `loupe eval classification`: classification metrics from a labels CSV and a predictions CSV.
import { binaryCrossEntropy, classificationReport, equalErrorRate, rocAuc } from '@loupe/metrics';
import { parseOptions, required, type Command } from '../command.js';
import { columnIndex, numberCell, parseCsv, rowsById, type CsvTable } from '../csv.js';
import { CliError } from '../errors.js';
import { readText } from '../io.js';
import { printJson } from './output.js';

const usage = `Usage: loupe eval classification --labels L.csv --predictions P.csv [--positive NAME]

  --labels FILE        CSV with columns id,label
  --predictions FILE   CSV with columns id,label,score and optionally one probability column per
                       class name (needed for ROC AUC)
  --positive NAME      for two classes: the positive class; adds roc_auc, eer and
                       binary_cross_entropy
Classes are the probability columns in their order, or else the labels seen, sorted. Averages
follow scikit-learn: over the classes present in the labels or predictions; 0 on zero division.
Predictions without a label are ignored (counted in ignored_predictions).
`;

const BASE_COLUMNS = ['id', 'label', 'score'];

export const classificationEval: Command = {
  name: 'classification',
  summary: 'classification and audio classification (scikit-learn conventions)',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      { labels: { type: 'string' }, predictions: { type: 'string' }, positive: { type: 'string' } },
      usage,
    );
    const labelsPath = required(values, 'labels', usage);
    const predictionsPath = required(values, 'predictions', usage);
    const labels = parseCsv(await readText(io, labelsPath), labelsPath);
    const predictions = parseCsv(await readText(io, predictionsPath), predictionsPath);
    const labelCol = columnIndex(labels, 'label');
    const predLabelCol = columnIndex(predictions, 'label');
    const scoreCol = predictions.header.indexOf('score');
    const probabilityColumns = predictions.header.filter((h) => !BASE_COLUMNS.includes(h));
    const labelRows = rowsById(labels);
    const predRows = rowsById(predictions);

    const labelOf = (table: CsvTable, cells: string[], column: number) => cells[column]!.trim();
    let classes: string[];
    if (probabilityColumns.length > 0) classes = probabilityColumns;
    else {
      const seen = new Set<string>();
      for (const row of labels.rows) seen.add(labelOf(labels, row.cells, labelCol));
      for (const row of predictions.rows) seen.add(labelOf(predictions, row.cells, predLabelCol));
      classes = [...seen].sort();
    }
    const classIndex = new Map(classes.map((c, k) => [c, k]));
    const K = classes.length;
    const N = labelRows.size;
    const yTrue = new Int32Array(N);
    const yPred = new Int32Array(N);
    const scores = probabilityColumns.length > 0 ? new Float64Array(N * K) : undefined;
    const confidence = new Float64Array(N).fill(NaN);
    const probColumnIndex = probabilityColumns.map((name) => predictions.header.indexOf(name));
    const known = (table: CsvTable, line: number, column: string, value: string): number => {
      const k = classIndex.get(value);
      if (k === undefined) {
        throw new CliError(
          `${table.file} line ${line}, column "${column}": "${value}" is not a class (classes: ${classes.join(', ')})`,
        );
      }
      return k;
    };
    let i = 0;
    for (const [id, row] of labelRows) {
      const pred = predRows.get(id);
      if (!pred) {
        throw new CliError(
          `${predictionsPath}: no prediction for id "${id}" (${labelsPath} line ${row.line})`,
        );
      }
      yTrue[i] = known(labels, row.line, 'label', labelOf(labels, row.cells, labelCol));
      yPred[i] = known(
        predictions,
        pred.line,
        'label',
        labelOf(predictions, pred.cells, predLabelCol),
      );
      if (scoreCol >= 0) confidence[i] = numberCell(predictions, pred, scoreCol, true);
      if (scores) {
        probColumnIndex.forEach((column, k) => {
          scores[i * K + k] = numberCell(predictions, pred, column);
        });
      }
      i++;
    }
    const report = classificationReport({ numClasses: K, yTrue, yPred, scores });
    const output: Record<string, unknown> = {
      num_items: N,
      ignored_predictions: [...predRows.keys()].filter((id) => !labelRows.has(id)).length,
      classes,
      accuracy: report.accuracy,
      precision_macro: report.macro.precision,
      precision_micro: report.micro.precision,
      precision_weighted: report.weighted.precision,
      recall_macro: report.macro.recall,
      recall_micro: report.micro.recall,
      recall_weighted: report.weighted.recall,
      f1_macro: report.macro.f1,
      f1_micro: report.micro.f1,
      f1_weighted: report.weighted.f1,
      per_class: Object.fromEntries(
        report.perClass.map((c, k) => [
          classes[k],
          {
            precision: c.precision,
            recall: c.recall,
            f1: c.f1,
            support: c.support,
            tp: c.tp,
            fp: c.fp,
            fn: c.fn,
            tn: c.tn,
            specificity: c.specificity,
            sensitivity: c.sensitivity,
            false_discovery_rate: c.falseDiscoveryRate,
            false_negative_rate: c.falseNegativeRate,
            roc_auc_ovr: c.rocAucOvr,
          },
        ]),
      ),
      confusion_matrix: classes.map((_, t) =>
        Array.from(report.confusionMatrix.subarray(t * K, (t + 1) * K)),
      ),
      roc_auc_ovr_macro: report.rocAucOvrMacro,
    };
    const positive = typeof values.positive === 'string' ? values.positive : undefined;
    if (positive !== undefined) {
      if (K !== 2) {
        throw new CliError(
          `--positive needs exactly two classes, found ${K}: ${classes.join(', ')}`,
        );
      }
      const p = classIndex.get(positive);
      if (p === undefined) {
        throw new CliError(
          `--positive "${positive}" is not a class (classes: ${classes.join(', ')})`,
        );
      }
      const isPositive = Uint8Array.from(yTrue, (t) => (t === p ? 1 : 0));
      // P(positive): its probability column, or else the score of the predicted label.
      let probability: Float64Array;
      if (scores) probability = Float64Array.from({ length: N }, (_, j) => scores[j * K + p]!);
      else {
        if (scoreCol < 0 || confidence.some(Number.isNaN)) {
          throw new CliError(
            `${predictionsPath}: --positive needs a probability column per class or a score on every row`,
          );
        }
        probability = Float64Array.from(confidence, (s, j) => (yPred[j] === p ? s : 1 - s));
      }
      output.positive = positive;
      output.roc_auc = rocAuc(isPositive, probability);
      output.eer = equalErrorRate(isPositive, probability).eer;
      try {
        output.binary_cross_entropy = binaryCrossEntropy(isPositive, probability);
      } catch (error) {
        throw new CliError(`${predictionsPath}: ${(error as Error).message}`);
      }
    }
    return printJson(io, output);
  },
};
