// The metadata performance chart as an ECharts option: one category per bin, one bar series per
// chosen metric in the chosen split; percentages on the left axis (0–100), counts and errors on the
// right one. Axis labels are cut at 25 characters and turned when there are more than 9 bins
// (docs/product.md, Models §9); the tooltip names each bar's item count. A bin without items in
// the split shows thin grey bars, a muted label and 'No items', so that it reads differently from
// a bin whose metric is undefined (no bar).
import type {
  ExploreConfig,
  MetadataPerformanceBin,
  MetadataPerformanceResponse,
  TaskType,
} from '@loupe/contracts';
import { formatModelNumber, getMetric, metricTitle } from '@loupe/metrics';
import { escapeHtml, formatMetric, METADATA_LABEL_MAX, truncateLabel } from '../performanceRules';
import { performanceStrings as strings } from '../strings';
import type { ChartOption } from './echarts';

/** Height of one row of the chart's value axis, and the room for legend and axis labels. */
export const CHART_ROW_HEIGHT = 36;
export const CHART_PADDING = 62;
/** Rows of the value axis: the chart is CHART_PADDING + 8 × CHART_ROW_HEIGHT tall. */
const VALUE_AXIS_ROWS = 8;
export const METADATA_CHART_HEIGHT = CHART_PADDING + VALUE_AXIS_ROWS * CHART_ROW_HEIGHT;
/** Above this many bins the axis labels are turned. */
export const ROTATE_ABOVE = 9;
const ROTATION_DEGREES = 45;
/** A 12 px axis label: a generous width per character, and its line height. */
const LABEL_CHAR_WIDTH = 7;
const LABEL_LINE_HEIGHT = 14;
/** An empty bin's placeholder bars are this fraction of their axis tall. */
const EMPTY_BAR_FRACTION = 0.02;
/** Significant digits of the bin width that the edges of a numeric bin keep. */
const BIN_WIDTH_DIGITS = 3;

export interface ChartColors {
  text: string;
  secondaryText: string;
  line: string;
  /** Empty bins: their placeholder bars and axis labels. */
  muted: string;
}

/** Drops the zeros that end a number's fractional part ('1.50' → '1.5', '2.0e-5' → '2e-5'). */
function trimZeros(text: string): string {
  return text.replace(/(\.\d*?)0+(?=$|e)/, '$1').replace(/\.(?=$|e)/, '');
}

/**
 * A bin edge rounded to the third significant digit of the bin width, so that neighbouring edges
 * stay distinct while the floating-point noise of min + i × width goes ('50.650000001' → '50.65'
 * for a width of 2.95). As the model pages' numbers (formatModelNumber), magnitudes below 0.0001
 * are written in scientific notation, and so are those of a million and more, to stay short.
 */
export function formatBinEdge(value: number, width: number): string {
  if (!Number.isFinite(value)) return '–';
  const step = Number.isFinite(width) && width > 0 ? width : Math.abs(value);
  if (step === 0) return '0';
  // The power of ten of the width's last kept digit.
  const exponent = Math.floor(Math.log10(step)) - (BIN_WIDTH_DIGITS - 1);
  const rounded = Math.round(value / 10 ** exponent) * 10 ** exponent;
  const magnitude = Math.abs(rounded);
  if (magnitude === 0) return '0';
  if (magnitude < 1e-4 || magnitude >= 1e6) {
    const digits = Math.floor(Math.log10(magnitude)) - exponent;
    return trimZeros(rounded.toExponential(Math.min(Math.max(digits, 0), 20)));
  }
  return trimZeros(rounded.toFixed(Math.min(Math.max(-exponent, 0), 20)));
}

/** The name of a bin on the axis: its category, its range, or '(missing)'. */
export function binLabel(bin: MetadataPerformanceBin): string {
  if (bin.bin_start !== undefined && bin.bin_end !== undefined) {
    const width = bin.bin_end - bin.bin_start;
    return `${formatBinEdge(bin.bin_start, width)} – ${formatBinEdge(bin.bin_end, width)}`;
  }
  return bin.bin ?? strings.missingBin;
}

/**
 * How much taller than one line of text the turned axis labels are: the longest label (as cut)
 * turned by 45°. The chart grows by exactly this, and its grid makes room for the labels itself,
 * so the room is counted once.
 */
export function rotatedLabelRoom(labels: readonly string[]): number {
  const longest = Math.max(
    0,
    ...labels.map((label) => truncateLabel(label, METADATA_LABEL_MAX).length),
  );
  const angle = (ROTATION_DEGREES * Math.PI) / 180;
  const turned = longest * LABEL_CHAR_WIDTH * Math.sin(angle) + LABEL_LINE_HEIGHT * Math.cos(angle);
  return Math.max(0, Math.ceil(turned) - LABEL_LINE_HEIGHT);
}

const isPercentage = (id: string) => getMetric(id)?.type === 'percentage';

function binValue(bin: MetadataPerformanceBin, metric: string, split: string) {
  return bin.metrics
    .find((entry) => entry.metric_name === metric)
    ?.values.find((value) => value.split_name === split);
}

export interface MetadataChart {
  option: ChartOption;
  height: number;
  /** Where the explorer opens for a clicked bar (series = metric, data = bin). */
  exploreConfig(seriesIndex: number, dataIndex: number): ExploreConfig | null;
}

export interface MetadataChartInput {
  task: TaskType;
  response: MetadataPerformanceResponse;
  metrics: readonly string[];
  split: string;
  colors: ChartColors;
}

export function metadataChart({
  task,
  response,
  metrics,
  split,
  colors,
}: MetadataChartInput): MetadataChart {
  const bins = response.performance_per_bin;
  const labels = bins.map(binLabel);
  const countOf = (bin: MetadataPerformanceBin) =>
    bin.counts.find((entry) => entry.split_name === split)?.count ?? 0;
  const empty = bins.map((bin) => countOf(bin) === 0);
  const rotate = bins.length > ROTATE_ABOVE;
  const percentMetrics = metrics.filter(isPercentage);
  const otherMetrics = metrics.filter((id) => !isPercentage(id));
  // The left axis holds percentages when any are shown, else the other metrics.
  const axisOf = (id: string) => (isPercentage(id) || percentMetrics.length === 0 ? 0 : 1);
  const drawn = (metric: string, bin: MetadataPerformanceBin) => {
    const value = binValue(bin, metric, split)?.value;
    if (value === null || value === undefined) return null;
    return isPercentage(metric) ? value * 100 : value;
  };
  // An empty bin's bars are a sliver of their axis: of 100 for percentages, else of the
  // tallest bar of the metrics on that axis (none when they have no bar at all).
  const otherMax = Math.max(
    0,
    ...otherMetrics.flatMap((metric) => bins.map((bin) => drawn(metric, bin) ?? 0)),
  );
  const placeholder = (metric: string) =>
    isPercentage(metric) ? 100 * EMPTY_BAR_FRACTION : otherMax * EMPTY_BAR_FRACTION;
  const axisLabel = { color: colors.secondaryText };
  const splitLine = { lineStyle: { color: colors.line } };
  const yAxis: NonNullable<ChartOption['yAxis']> = [];
  if (percentMetrics.length > 0) {
    yAxis.push({
      type: 'value',
      min: 0,
      max: 100,
      axisLabel: { ...axisLabel, formatter: '{value}%' },
      splitLine,
    });
  }
  if (otherMetrics.length > 0) {
    yAxis.push({
      type: 'value',
      axisLabel: { ...axisLabel, formatter: (value: number) => formatModelNumber(value) },
      splitLine: percentMetrics.length > 0 ? { show: false } : splitLine,
    });
  }

  const option: ChartOption = {
    animation: false,
    textStyle: { color: colors.text },
    legend: { top: 0, textStyle: { color: colors.text } },
    // The grid keeps its axis labels inside the chart (turned ones too), and the chart is made
    // taller by the room they take (rotatedLabelRoom), so the value axis keeps its 8 rows.
    grid: {
      top: 36,
      left: 8,
      right: 8,
      bottom: 8,
      outerBoundsMode: 'same',
      outerBoundsContain: 'axisLabel',
    },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const points = (Array.isArray(params) ? params : [params]) as {
          dataIndex: number;
          seriesIndex: number;
          marker: string;
        }[];
        const first = points[0];
        if (!first) return '';
        const bin = bins[first.dataIndex];
        if (!bin) return '';
        const title = `<b>${escapeHtml(labels[first.dataIndex] ?? '')}</b>`;
        if (empty[first.dataIndex]) return `${title} · ${strings.noItems}`;
        const count = countOf(bin);
        const lines = [
          `${title} · ${strings.binItems(count)}`,
          ...points.map((point) => {
            const metric = metrics[point.seriesIndex] ?? '';
            const value = binValue(bin, metric, split);
            const used =
              value && value.count !== count ? ` (${strings.binItems(value.count)})` : '';
            return `${point.marker} ${escapeHtml(metricTitle(task, metric))}: ${formatMetric(metric, value?.value)}${used}`;
          }),
        ];
        if (response.iou_threshold !== null)
          lines.push(strings.metadataIou(response.iou_threshold));
        return lines.join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: labels,
      axisLabel: {
        ...axisLabel,
        color: (_value?: string | number, index?: number) =>
          index !== undefined && empty[index] ? colors.muted : colors.secondaryText,
        interval: 0,
        rotate: rotate ? ROTATION_DEGREES : 0,
        formatter: (value: string) => truncateLabel(value, METADATA_LABEL_MAX),
      },
      axisLine: { lineStyle: { color: colors.line } },
    },
    yAxis,
    series: metrics.map((metric) => ({
      type: 'bar' as const,
      name: metricTitle(task, metric),
      yAxisIndex: axisOf(metric),
      barMaxWidth: 40,
      data: bins.map((bin, index) => {
        if (empty[index]) {
          const sliver = placeholder(metric);
          return sliver > 0
            ? { value: sliver, itemStyle: { color: colors.muted }, emphasis: { disabled: true } }
            : '-';
        }
        return drawn(metric, bin) ?? '-';
      }),
    })),
  };

  return {
    option,
    height: METADATA_CHART_HEIGHT + (rotate ? rotatedLabelRoom(labels) : 0),
    exploreConfig: (seriesIndex, dataIndex) => {
      const bin = bins[dataIndex];
      const metric = metrics[seriesIndex];
      // An empty bin has nothing to explore.
      if (!bin || metric === undefined || empty[dataIndex]) return null;
      return binValue(bin, metric, split)?.explore_config ?? null;
    },
  };
}
