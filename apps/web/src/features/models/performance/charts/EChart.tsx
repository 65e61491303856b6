// One chart of the performance page: ECharts drawn into a block of the given height, with a click
// on a data point reported as its series and data index.
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { echarts, type ChartOption } from './echarts';

export interface ChartClick {
  seriesIndex: number;
  dataIndex: number;
}

export interface EChartProps {
  option: ChartOption;
  height: number;
  /** Names the chart for assistive technology and tests. */
  label: string;
  onClick?(target: ChartClick): void;
}

export function EChart({ option, height, label, onClick }: EChartProps) {
  const events = useMemo(
    () =>
      onClick
        ? {
            click: (params: { seriesIndex?: number; dataIndex?: number }) => {
              if (params.seriesIndex !== undefined && params.dataIndex !== undefined) {
                onClick({ seriesIndex: params.seriesIndex, dataIndex: params.dataIndex });
              }
            },
          }
        : undefined,
    [onClick],
  );
  return (
    <div role="img" aria-label={label}>
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        notMerge
        style={{ height, width: '100%', cursor: onClick ? 'pointer' : undefined }}
        onEvents={events}
      />
    </div>
  );
}
