// A stand-in for EChart in component tests (happy-dom has no canvas): it keeps every option it was
// given and draws one button per data point, named "<series> <category or x>", whose click is
// reported like a click on the bar or point.
import type { EChartProps } from './EChart';

export const drawnCharts: EChartProps[] = [];

interface SeriesLike {
  name?: string;
  data?: unknown[];
}

export function EChart(props: EChartProps) {
  drawnCharts.push(props);
  const series = (props.option.series ?? []) as SeriesLike[];
  const xAxis = props.option.xAxis as { data?: string[] } | undefined;
  return (
    <div role="img" aria-label={props.label}>
      {series.map((entry, seriesIndex) =>
        (entry.data ?? []).map((point, dataIndex) => {
          const x = xAxis?.data?.[dataIndex] ?? (Array.isArray(point) ? String(point[0]) : '');
          return (
            <button
              key={`${seriesIndex}-${dataIndex}`}
              type="button"
              onClick={() => props.onClick?.({ seriesIndex, dataIndex })}
            >
              {`${entry.name ?? ''} ${x}`}
            </button>
          );
        }),
      )}
    </div>
  );
}
