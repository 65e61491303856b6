// The fine-grained chart's option: lines for curves, bars for distributions, the first 5 series
// shown, legend names cut at 20 characters with their summary, numbers by the model formatter,
// axis names kept inside the chart, precision-recall curves stopped at the last recall reached.
import type { FinegrainedSeries } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { finegrainedChart, legendLabel, reachedPrecisionRecall } from './finegrainedChart';

const colors = { text: '#000', secondaryText: '#666', line: '#ddd', muted: '#bbb' };
const series = (name: string, summary: FinegrainedSeries['summary'] = null): FinegrainedSeries => ({
  name,
  values: [
    [0, 1],
    [0.5, 0.75],
  ],
  summary,
});

type Series = { type: string; name: string; data: unknown[] };
type Legend = { selected: Record<string, boolean>; formatter: (name: string) => string };
type Axis = { axisLabel: { formatter: (value: number) => string }; name: string };

test('curves are lines; the first 5 classes are shown, the rest a legend click away', () => {
  const performance = Array.from({ length: 7 }, (_, i) => series(`class-${i}`));
  const option = finegrainedChart({
    task: 'classification',
    kind: 'roc',
    dimensionNames: ['False positive rate', 'True positive rate'],
    performance,
    average: null,
    colorOf: () => '#f00',
    colors,
  });
  const drawn = option.series as Series[];
  expect(drawn.map((entry) => entry.type)).toEqual(Array(7).fill('line'));
  expect((option.legend as Legend).selected).toEqual({
    'class-0': true,
    'class-1': true,
    'class-2': true,
    'class-3': true,
    'class-4': true,
    'class-5': false,
    'class-6': false,
  });
  expect((option.xAxis as Axis).name).toBe('False positive rate');
});

test('distributions are bars; the average is drawn and stays visible', () => {
  const option = finegrainedChart({
    task: 'automatic_speech_recognition',
    kind: 'wer_distribution',
    dimensionNames: ['WER', 'Utterances'],
    performance: [series('all utterances')],
    average: series('mean', { metric_name: 'word_error_rate', value: 0.25 }),
    colorOf: () => '#f00',
    colors,
  });
  const drawn = option.series as Series[];
  expect(drawn.map((entry) => [entry.type, entry.name])).toEqual([
    ['bar', 'Average'],
    ['bar', 'all utterances'],
  ]);
  expect((option.legend as Legend).selected.Average).toBeUndefined();
  expect((option.legend as Legend).formatter('Average')).toBe('Average (WER 25.00%)');
});

test('legend names are cut at 20 characters and carry the summary', () => {
  expect(
    legendLabel(
      'classification',
      series('a-class-with-a-long-long-name', { metric_name: 'area_under_roc', value: 0.9 }),
    ),
  ).toBe('a-class-with-a-long-... (Area under ROC 90.00%)');
  expect(
    legendLabel('classification', series('cat', { metric_name: 'equal_error_rate', value: null })),
  ).toBe('cat (EER –)');
  expect(legendLabel('classification', series('dog'))).toBe('dog');
});

test('axis numbers use the model number formatter', () => {
  const option = finegrainedChart({
    task: 'regression',
    kind: 'error_distribution',
    dimensionNames: ['Error', 'Count'],
    performance: [series('age')],
    average: null,
    colorOf: () => '#f00',
    colors,
  });
  const x = (option.xAxis as Axis).axisLabel.formatter;
  expect(x(0.00005)).toBe('5e-5');
  expect(x(0.1234567)).toBe('0.1234...');
  expect(x(12)).toBe('12');
});

test('the grid keeps both axis names inside the chart, clear of the tick labels', () => {
  const option = finegrainedChart({
    task: 'object_detection',
    kind: 'precision_recall',
    dimensionNames: ['Recall', 'Precision'],
    performance: [series('car')],
    average: null,
    colorOf: () => '#f00',
    colors,
  });
  expect(option.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'all' });
  const y = option.yAxis as Axis & { nameLocation: string; nameGap: number };
  expect(y.name).toBe('Precision');
  expect(y.nameLocation).toBe('middle');
  // Past the widest tick label of a 0–1 axis ('0.8', about 20 px) and its margin.
  expect(y.nameGap).toBeGreaterThanOrEqual(32);
});

// COCO's 101-point curve of a class whose recall stops at 0.75: precision 1 up to 0.75, then 0.
const coco = (reachedUpTo: number, precision = 1): [number, number][] =>
  Array.from({ length: 101 }, (_, i) => [i / 100, i / 100 <= reachedUpTo ? precision : 0]);

test('precision-recall curves stop at the highest recall reached', () => {
  const trimmed = reachedPrecisionRecall(coco(0.75));
  expect(trimmed).toHaveLength(76);
  expect(trimmed.at(-1)).toEqual([0.75, 1]);
  expect(trimmed.every(([, precision]) => precision === 1)).toBe(true);
  // A curve that reaches recall 1 keeps all its points.
  expect(reachedPrecisionRecall(coco(1, 0.5))).toHaveLength(101);
  // A zero precision before the last recall reached is kept: only the trailing padding goes.
  expect(
    reachedPrecisionRecall([
      [0, 1],
      [0.1, 0],
      [0.2, 0.5],
      [0.3, 0],
    ]),
  ).toEqual([
    [0, 1],
    [0.1, 0],
    [0.2, 0.5],
  ]);
  // Nothing reached: nothing drawn.
  expect(reachedPrecisionRecall(coco(-1))).toEqual([]);
});

test('the chart draws trimmed precision-recall curves but whole ROC curves', () => {
  const draw = (kind: 'precision_recall' | 'roc') =>
    finegrainedChart({
      task: 'object_detection',
      kind,
      dimensionNames: ['x', 'y'],
      performance: [{ name: 'person', values: coco(0.75), summary: null }],
      average: { name: 'average', values: coco(0.9, 0.5), summary: null },
      colorOf: () => '#f00',
      colors,
    }).series as Series[];
  const pr = draw('precision_recall');
  expect(pr.map((entry) => [entry.name, entry.data.length])).toEqual([
    ['Average', 91],
    ['person', 76],
  ]);
  expect(draw('roc').map((entry) => entry.data.length)).toEqual([101, 101]);
});
