// A comparison distribution as an ECharts option: one bar per bin of the difference B − A, named
// by its range; a bar is coloured by the model its items favour (the quantity's direction: a
// higher confidence or IoU is better, a lower error or error rate), the middle bin (no
// difference) in the neutral colour.
import type { ComparisonDistribution, DistributionType } from '@loupe/contracts';
import type { ChartOption } from '../../performance/charts/echarts';
import { formatBinEdge } from '../../performance/charts/metadataChart';
import { compareStrings as strings } from '../strings';

export const DISTRIBUTION_CHART_HEIGHT = 240;

const HIGHER_IS_BETTER: Record<DistributionType, boolean> = {
  confidence: true,
  iou: true,
  error: false,
  word_error_rate: false,
  match_error_rate: false,
};

export interface DistributionColors {
  model_a: string;
  model_b: string;
  neutral: string;
  text: string;
  secondaryText: string;
  line: string;
}

/** A bin's range, for its tooltip ('-0.1429 – -0.0476'). */
export function distributionBinRange(bin: { start: number; end: number }): string {
  const width = bin.end - bin.start;
  return `${formatBinEdge(bin.start, width)} – ${formatBinEdge(bin.end, width)}`;
}

/**
 * A bin's name on the axis: its centre to 2 significant digits ('-0.95', '0', '0.19'), short
 * enough for 21 bars; the middle bin, centred on 0, reads '0'.
 */
export function distributionBinLabel(bin: { start: number; end: number }): string {
  const centre = (bin.start + bin.end) / 2;
  if (Math.abs(centre) < (bin.end - bin.start) / 4) return '0';
  return String(Number(centre.toPrecision(2)));
}

/** Which model a bin's items favour: the sign of its centre read in the quantity's direction. */
export function binFavours(
  type: DistributionType,
  bin: { start: number; end: number },
): 'model_a' | 'model_b' | null {
  const centre = (bin.start + bin.end) / 2;
  if (bin.start <= 0 && bin.end >= 0 && Math.abs(centre) < (bin.end - bin.start) / 2) return null;
  const bHigher = centre > 0;
  return bHigher === HIGHER_IS_BETTER[type] ? 'model_b' : 'model_a';
}

export function distributionChart(
  distribution: ComparisonDistribution,
  colors: DistributionColors,
): ChartOption {
  const labels = distribution.bins.map(distributionBinLabel);
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 32, bottom: 56 },
    tooltip: {
      trigger: 'item',
      formatter: (params: unknown) => {
        const { dataIndex } = params as { dataIndex: number };
        const bin = distribution.bins[dataIndex];
        return bin ? `${distributionBinRange(bin)}<br/>${strings.binItems(bin.value)}` : '';
      },
    },
    xAxis: {
      type: 'category',
      data: labels,
      name: distribution.x_label,
      nameLocation: 'middle',
      nameGap: 36,
      nameTextStyle: { color: colors.secondaryText },
      axisLabel: { color: colors.secondaryText, rotate: 45, fontSize: 10 },
      axisLine: { lineStyle: { color: colors.line } },
    },
    yAxis: {
      type: 'value',
      name: distribution.y_label,
      nameTextStyle: { color: colors.secondaryText },
      axisLabel: { color: colors.secondaryText },
      splitLine: { lineStyle: { color: colors.line } },
    },
    series: [
      {
        type: 'bar',
        name: distribution.y_label,
        barCategoryGap: '10%',
        data: distribution.bins.map((bin) => {
          const side = binFavours(distribution.type, bin);
          return {
            value: bin.value,
            itemStyle: { color: side === null ? colors.neutral : colors[side] },
          };
        }),
      },
    ],
  };
}
