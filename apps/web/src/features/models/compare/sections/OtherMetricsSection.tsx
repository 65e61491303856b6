// Other metrics: every comparison metric of the task other than the active one, with both
// models' values, the difference B − A and the relative delta.
import type { MetricDelta, TaskType } from '@loupe/contracts';
import { metricTitle } from '@loupe/metrics';
import { Table, Typography, theme } from 'antd';
import { SectionCard } from '../../performance/components/SectionCard';
import { rawDeltaText, relativeDeltaText, scoreText } from '../comparisonRules';
import { compareStrings as strings } from '../strings';

interface Row {
  metric: string;
  delta: MetricDelta;
}

export function OtherMetricsSection({
  task,
  metrics,
}: {
  task: TaskType;
  metrics: Record<string, MetricDelta>;
}) {
  const { token } = theme.useToken();
  const rows: Row[] = Object.entries(metrics).map(([metric, delta]) => ({ metric, delta }));
  return (
    <SectionCard title={strings.otherMetrics} label={strings.otherMetrics}>
      <Table<Row>
        size="small"
        rowKey="metric"
        pagination={false}
        dataSource={rows}
        data-testid="other-metrics-table"
        columns={[
          {
            key: 'metric',
            title: strings.otherColumns.metric,
            render: (_, row) => metricTitle(task, row.metric),
          },
          {
            key: 'a',
            title: strings.otherColumns.a,
            align: 'right',
            render: (_, row) => scoreText(row.metric, row.delta.model_a),
          },
          {
            key: 'b',
            title: strings.otherColumns.b,
            align: 'right',
            render: (_, row) => scoreText(row.metric, row.delta.model_b),
          },
          {
            key: 'delta',
            title: strings.otherColumns.delta,
            align: 'right',
            render: (_, row) => {
              const relative = relativeDeltaText(row.delta);
              const color =
                relative.improved === true
                  ? token.colorSuccess
                  : relative.improved === false
                    ? token.colorError
                    : undefined;
              return (
                <Typography.Text style={{ color }}>
                  {`${rawDeltaText(row.metric, row.delta.raw_delta)} (${relative.text}) ${relative.arrow}`.trim()}
                </Typography.Text>
              );
            },
          },
        ]}
      />
    </SectionCard>
  );
}
