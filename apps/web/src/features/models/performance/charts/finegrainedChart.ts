// The fine-grained performance chart of one split as an ECharts option: precision-recall and ROC
// curves as lines, error, WER and IoU distributions as bars; one series per class (word, value
// name), the first 5 shown and the rest a legend click away, names cut at 20 characters with the
// curve's summary (AP, EER, AUC, mean error) beside them (docs/product.md, Models §9).
import type { FinegrainedKind, FinegrainedSeries, TaskType } from '@loupe/contracts';
import { formatModelNumber, metricTitle } from '@loupe/metrics';
import { CLASS_NAME_MAX, escapeHtml, formatMetric, truncateLabel } from '../performanceRules';
import type { ChartOption } from './echarts';
import type { ChartColors } from './metadataChart';

/** Series shown before the user turns others on in the legend. */
export const INITIAL_VISIBLE_SERIES = 5;
export const FINEGRAINED_CHART_HEIGHT = 360;
/** Distance of the axis names from their axis lines, past the tick labels. */
const X_NAME_GAP = 30;
const Y_NAME_GAP = 40;
const AVERAGE = 'Average';

const CURVES: ReadonlySet<FinegrainedKind> = new Set(['precision_recall', 'roc']);

/** A legend entry: the name cut at 20 characters, then the summary when there is one. */
export function legendLabel(task: TaskType, series: FinegrainedSeries): string {
  const name = truncateLabel(series.name, CLASS_NAME_MAX);
  if (!series.summary) return name;
  const { metric_name: metric, value } = series.summary;
  return `${name} (${metricTitle(task, metric)} ${formatMetric(metric, value)})`;
}

/**
 * The points of a precision-recall curve that the chart draws: up to the highest recall the
 * series reaches. COCO's curve (object tasks) has a precision at each of 101 recall thresholds and
 * gives 0 to the thresholds above the highest recall reached, which would draw the curve along
 * zero up to a recall of 1 as if the model had been measured there. The chart drops those
 * trailing points (precision 0 at a recall above every point of non-zero precision); the API keeps
 * COCO's array as it is. A series that never has a non-zero precision draws nothing.
 */
export function reachedPrecisionRecall(
  values: readonly (readonly [number, number])[],
): [number, number][] {
  let reached = -Infinity;
  for (const [recall, precision] of values) if (precision > 0) reached = Math.max(reached, recall);
  return values
    .filter(([recall, precision]) => !(precision === 0 && recall > reached))
    .map(([recall, precision]) => [recall, precision]);
}

export interface FinegrainedChartInput {
  task: TaskType;
  kind: FinegrainedKind;
  dimensionNames: readonly [string, string];
  performance: readonly FinegrainedSeries[];
  average: FinegrainedSeries | null;
  colorOf(name: string): string;
  colors: ChartColors;
}

export function finegrainedChart({
  task,
  kind,
  dimensionNames,
  performance,
  average,
  colorOf,
  colors,
}: FinegrainedChartInput): ChartOption {
  const curve = CURVES.has(kind);
  // The average goes first so it stays visible; series keep unique names for the legend.
  const all = average ? [{ ...average, name: AVERAGE }, ...performance] : [...performance];
  const byName = new Map(all.map((series) => [series.name, series]));
  const selected = Object.fromEntries(
    performance.map((series, index) => [series.name, index < INITIAL_VISIBLE_SERIES]),
  );
  const axis = (name: string, nameGap: number) => ({
    type: 'value' as const,
    name,
    nameLocation: 'middle' as const,
    nameGap,
    nameTextStyle: { color: colors.secondaryText },
    axisLabel: {
      color: colors.secondaryText,
      formatter: (value: number) => formatModelNumber(value),
    },
    axisLine: { lineStyle: { color: colors.line } },
    splitLine: { lineStyle: { color: colors.line } },
    scale: !curve,
    ...(curve ? { min: 0, max: 1 } : {}),
  });

  return {
    animation: false,
    textStyle: { color: colors.text },
    legend: {
      type: 'scroll',
      top: 0,
      selected,
      textStyle: { color: colors.text },
      formatter: (name: string) => {
        const series = byName.get(name);
        return series ? legendLabel(task, series) : name;
      },
      tooltip: { show: true },
    },
    // The grid keeps the axis labels and both axis names inside the chart ('all'); the names sit
    // clear of the labels (nameGap), the y name turned beside the widest tick label.
    grid: {
      top: 40,
      left: 8,
      right: 16,
      bottom: 8,
      outerBoundsMode: 'same',
      outerBoundsContain: 'all',
    },
    tooltip: {
      trigger: 'item',
      formatter: (params: unknown) => {
        const point = params as { seriesName: string; value: [number, number]; marker: string };
        const [x, y] = point.value;
        return [
          `${point.marker} ${escapeHtml(point.seriesName)}`,
          `${escapeHtml(dimensionNames[0])}: ${formatModelNumber(x)}`,
          `${escapeHtml(dimensionNames[1])}: ${formatModelNumber(y)}`,
        ].join('<br/>');
      },
    },
    xAxis: axis(dimensionNames[0], X_NAME_GAP),
    yAxis: axis(dimensionNames[1], Y_NAME_GAP),
    series: all.map((series) => {
      const isAverage = series.name === AVERAGE;
      const color = isAverage ? colors.text : colorOf(series.name);
      return curve
        ? {
            type: 'line' as const,
            name: series.name,
            data:
              kind === 'precision_recall'
                ? reachedPrecisionRecall(series.values)
                : series.values.map(([x, y]) => [x, y]),
            showSymbol: false,
            color,
            lineStyle: { width: isAverage ? 2 : 1.5, type: isAverage ? 'dashed' : 'solid' },
          }
        : {
            type: 'bar' as const,
            name: series.name,
            data: series.values.map(([x, y]) => [x, y]),
            color,
            barMaxWidth: 24,
            itemStyle: { opacity: 0.8 },
          };
    }),
  };
}
