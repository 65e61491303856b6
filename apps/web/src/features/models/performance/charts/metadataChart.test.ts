// The metadata chart's option: categories and bars per metric in the chosen split, percentages
// scaled to 0–100 on their own axis, labels cut at 25 and turned above 9 bins (with room for them
// counted once), short and distinct numeric bin labels, empty bins shown as such, the tooltip's
// counts and IoU note, and the explore target of a bar.
import type { MetadataPerformanceBin, MetadataPerformanceResponse } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { exploreConfig, metadataPerformance } from '../testData';
import {
  binLabel,
  CHART_PADDING,
  CHART_ROW_HEIGHT,
  formatBinEdge,
  metadataChart,
  rotatedLabelRoom,
  type MetadataChartInput,
} from './metadataChart';

const colors = { text: '#000', secondaryText: '#666', line: '#ddd', muted: '#bbb' };
const chart = (
  response: MetadataPerformanceResponse,
  metrics: readonly string[],
  split: string,
  task: MetadataChartInput['task'] = 'classification',
) => metadataChart({ task, response, metrics, split, colors });

type Axis = {
  data: string[];
  axisLabel: {
    rotate: number;
    formatter: (value: string) => string;
    color: (value: string, index: number) => string;
  };
};
type Series = { name: string; data: unknown[]; yAxisIndex: number };
type Tooltip = { formatter: (params: unknown) => string };

test('one category per bin and one bar series per metric, in the chosen split', () => {
  const { option } = chart(metadataPerformance(), ['accuracy', 'macro_f1_score'], 'test');
  expect((option.xAxis as Axis).data).toEqual(['sunny', 'rain']);
  const series = option.series as Series[];
  expect(series.map((entry) => entry.name)).toEqual(['Accuracy', 'Macro F1']);
  // Percentages are drawn 0–100.
  expect(series[0]!.data).toEqual([90, 60]);
  expect((series[1]!.data as number[]).map((value) => Math.round(value))).toEqual([80, 50]);
  expect(series.every((entry) => entry.yAxisIndex === 0)).toBe(true);
});

test('counts go on a second axis beside percentages; undefined values leave a gap', () => {
  const response = metadataPerformance();
  const bins = response.performance_per_bin.map((bin) => ({
    ...bin,
    metrics: [
      ...bin.metrics,
      {
        metric_name: 'tp',
        values: [
          {
            split_name: 'all',
            value: bin.bin === 'rain' ? null : 7,
            count: 10,
            explore_config: exploreConfig(bin.bin ?? ''),
          },
        ],
      },
    ],
  }));
  const { option } = chart({ ...response, performance_per_bin: bins }, ['accuracy', 'tp'], 'all');
  const series = option.series as Series[];
  expect(series.map((entry) => entry.yAxisIndex)).toEqual([0, 1]);
  expect(series[1]!.data).toEqual([7, '-']);
  expect(option.yAxis).toHaveLength(2);

  // Counts alone use the first axis.
  const alone = chart(response, ['tp'], 'all').option;
  expect((alone.series as Series[])[0]!.yAxisIndex).toBe(0);
  expect(alone.yAxis).toHaveLength(1);
});

test('bins: ranges for continuous fields, "(missing)" for missing values', () => {
  expect(binLabel({ bin: null, bin_start: 0.5, bin_end: 1.25, counts: [], metrics: [] })).toBe(
    '0.5 – 1.25',
  );
  expect(binLabel({ bin: null, counts: [], metrics: [] })).toBe('(missing)');
  expect(binLabel({ bin: 'fog', counts: [], metrics: [] })).toBe('fog');
});

function withBins(count: number): MetadataPerformanceResponse {
  const response = metadataPerformance();
  const template = response.performance_per_bin[0]!;
  return {
    ...response,
    performance_per_bin: Array.from({ length: count }, (_, i) => ({
      ...template,
      bin: `category number ${i} with a long name`,
    })),
  };
}

test('axis labels are cut at 25 characters and turned above 9 bins, which adds height', () => {
  const nine = chart(withBins(9), ['accuracy'], 'all');
  const ten = chart(withBins(10), ['accuracy'], 'all');
  const axis = ten.option.xAxis as Axis;
  expect((nine.option.xAxis as Axis).axisLabel.rotate).toBe(0);
  expect(axis.axisLabel.rotate).toBe(45);
  expect(axis.axisLabel.formatter('category number 1 with a long name')).toBe(
    'category number 1 with a ...',
  );
  expect(nine.height).toBe(CHART_PADDING + 8 * CHART_ROW_HEIGHT);
  expect(ten.height).toBeGreaterThan(nine.height);
});

test("the tooltip names the bin, its items in the split and each metric's value", () => {
  const response = { ...metadataPerformance(), iou_threshold: 0.5 };
  const { option } = chart(response, ['accuracy', 'macro_f1_score'], 'train');
  const text = (option.tooltip as Tooltip).formatter([
    { dataIndex: 1, seriesIndex: 0, marker: '*' },
    { dataIndex: 1, seriesIndex: 1, marker: '+' },
  ]);
  expect(text.split('<br/>')).toEqual([
    '<b>rain</b> · 5 items',
    '* Accuracy: 60.00%',
    '+ Macro F1: 50.00%',
    'Detection metrics of metadata bins match objects at an IoU threshold of 0.5.',
  ]);
});

test("a bar's explore target is the bin's value of that metric and split", () => {
  const drawn = chart(metadataPerformance(), ['macro_f1_score'], 'all');
  expect(drawn.exploreConfig(0, 1)).toEqual(exploreConfig('rain'));
  expect(drawn.exploreConfig(1, 1)).toBeNull();
  expect(drawn.exploreConfig(0, 5)).toBeNull();
});

/** Equal-width bins over [min, max] as the server makes them: edges min + i × width. */
function numericBins(min: number, max: number, count: number): MetadataPerformanceBin[] {
  const width = (max - min) / count;
  return Array.from({ length: count }, (_, i) => ({
    bin: null,
    bin_start: min + i * width,
    bin_end: i === count - 1 ? max : min + (i + 1) * width,
    counts: [{ split_name: 'all', count: 1 }],
    metrics: [],
  }));
}

test('numeric bin labels keep three significant digits of the bin width: short and distinct', () => {
  const labels = numericBins(30, 89, 20).map(binLabel);
  expect(labels.slice(0, 3)).toEqual(['30 – 32.95', '32.95 – 35.9', '35.9 – 38.85']);
  // 30 + 6 × 2.95 is 47.699999999999996 in floating point; 30 + 7 × 2.95 is 50.650000000000006.
  expect(labels[6]).toBe('47.7 – 50.65');
  expect(labels.at(-1)).toBe('86.05 – 89');
  expect(new Set(labels).size).toBe(20);
  expect(labels.every((label) => label.length <= 13 && !label.includes('...'))).toBe(true);

  // Any range: edges stay distinct and short, whatever the scale.
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  for (let run = 0; run < 200; run++) {
    const scale = 10 ** Math.floor(random() * 16 - 8);
    const min = (random() - 0.5) * 100 * scale;
    const max = min + (10 + random() * 40) * scale;
    const ranged = numericBins(min, max, 20).map(binLabel);
    expect(new Set(ranged).size, `${min} ${max}`).toBe(20);
    for (const label of ranged) expect(label.length, label).toBeLessThanOrEqual(24);
  }
});

test('bin edges: tiny and huge magnitudes in scientific notation, no negative zero', () => {
  expect(formatBinEdge(0.000012345, 0.000001)).toBe('1.235e-5');
  expect(formatBinEdge(1234567.89, 50000)).toBe('1.2346e+6');
  expect(formatBinEdge(-1e-17, 0.1)).toBe('0');
  expect(formatBinEdge(-0.35, 0.1)).toBe('-0.35');
  expect(formatBinEdge(12, 1)).toBe('12');
  expect(formatBinEdge(2.5, 0.5)).toBe('2.5');
  // One bin of a constant field: the value's own three significant digits.
  expect(
    binLabel({ bin: null, bin_start: 7.123456, bin_end: 7.123456, counts: [], metrics: [] }),
  ).toBe('7.12 – 7.12');
  expect(formatBinEdge(Number.NaN, 1)).toBe('–');
});

test('turned labels add their own height once: the grid holds them, the chart grows by them', () => {
  const response = { ...metadataPerformance(), performance_per_bin: numericBins(30, 89, 20) };
  const drawn = chart(response, ['accuracy'], 'all');
  const labels = (drawn.option.xAxis as Axis).data;
  expect(drawn.option.grid).toMatchObject({ bottom: 8, outerBoundsContain: 'axisLabel' });
  expect(drawn.height).toBe(CHART_PADDING + 8 * CHART_ROW_HEIGHT + rotatedLabelRoom(labels));
  // 'xx.xx – yy.yy' turned by 45° needs well under the 110 px the chart used to add on top.
  expect(rotatedLabelRoom(labels)).toBeGreaterThan(40);
  expect(rotatedLabelRoom(labels)).toBeLessThan(80);
  // The longest label (cut at 25 characters) needs more.
  expect(rotatedLabelRoom(['x'.repeat(40)])).toBeGreaterThan(rotatedLabelRoom(labels));
});

test('an empty bin shows grey placeholder bars, a muted label and "No items"', () => {
  const response = metadataPerformance();
  // 'rain' has no items in 'test' (its metrics are undefined there).
  const bins = response.performance_per_bin.map((bin) =>
    bin.bin !== 'rain'
      ? bin
      : {
          ...bin,
          counts: bin.counts.map((entry) =>
            entry.split_name === 'test' ? { ...entry, count: 0 } : entry,
          ),
          metrics: bin.metrics.map((metric) => ({
            ...metric,
            values: metric.values.map((value) =>
              value.split_name === 'test' ? { ...value, value: null, count: 0 } : value,
            ),
          })),
        },
  );
  const drawn = chart({ ...response, performance_per_bin: bins }, ['accuracy', 'tp'], 'test');
  const series = drawn.option.series as Series[];
  const placeholder = series[0]!.data[1] as { value: number; itemStyle: { color: string } };
  expect(placeholder.itemStyle.color).toBe(colors.muted);
  expect(placeholder.value).toBeGreaterThan(0);
  expect(placeholder.value).toBeLessThanOrEqual(5); // a sliver of the 0–100 axis
  expect(series[0]!.data[0]).toBe(90);
  // tp has no bar anywhere: nothing to size a sliver by, so the empty bin stays a gap.
  expect(series[1]!.data).toEqual(['-', '-']);

  const axis = drawn.option.xAxis as Axis;
  expect(axis.axisLabel.color('rain', 1)).toBe(colors.muted);
  expect(axis.axisLabel.color('sunny', 0)).toBe(colors.secondaryText);
  const text = (drawn.option.tooltip as Tooltip).formatter([
    { dataIndex: 1, seriesIndex: 0, marker: '*' },
  ]);
  expect(text).toBe('<b>rain</b> · No items');
  expect(drawn.exploreConfig(0, 1)).toBeNull();
  expect(drawn.exploreConfig(0, 0)).toEqual(exploreConfig('sunny'));

  // In a split where it has items, the same bin is drawn as usual.
  const all = chart({ ...response, performance_per_bin: bins }, ['accuracy'], 'all');
  expect((all.option.series as Series[])[0]!.data).toEqual([90, 60]);
});

test('the tooltip counts one item as "1 item"', () => {
  const response = metadataPerformance();
  const bins = response.performance_per_bin.map((bin) => ({
    ...bin,
    counts: bin.counts.map((entry) => ({ ...entry, count: 1 })),
    metrics: bin.metrics.map((metric) => ({
      ...metric,
      values: metric.values.map((value) => ({ ...value, count: 1 })),
    })),
  }));
  const { option } = chart({ ...response, performance_per_bin: bins }, ['accuracy'], 'all');
  const text = (option.tooltip as Tooltip).formatter([
    { dataIndex: 0, seriesIndex: 0, marker: '*' },
  ]);
  expect(text.split('<br/>')[0]).toBe('<b>sunny</b> · 1 item');
});
