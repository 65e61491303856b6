// Statistics: the task's headline metrics in every split (one row per split, the chosen split
// highlighted), with a chooser of the metrics shown.
import type { StatisticsResponse, TaskType } from '@loupe/contracts';
import { metricTitle } from '@loupe/metrics';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Table, theme } from 'antd';
import { ErrorFallback } from '../../../../components/ErrorFallback';
import { ComputingState } from '../components/ComputingState';
import { MetricChooser } from '../components/MetricChooser';
import { KEY_COLUMN_WIDTH, metricTableWidth } from '../components/metricTable';
import { SectionCard } from '../components/SectionCard';
import { useVisibleMetrics } from '../hooks/useVisibleMetrics';
import { formatMetric } from '../performanceRules';
import { performanceStrings as strings } from '../strings';

export interface StatisticsSectionProps {
  task: TaskType;
  split: string;
  statistics: UseQueryResult<StatisticsResponse>;
}

interface Row {
  split: string;
  values: Record<string, number | null>;
}

export function StatisticsSection({ task, split, statistics }: StatisticsSectionProps) {
  const { token } = theme.useToken();
  const { visible, choices, setVisible } = useVisibleMetrics(task, 'statistics');
  const data = statistics.data;

  let body: React.ReactNode;
  if (statistics.isError) {
    body = (
      <ErrorFallback
        title={strings.statisticsFailed}
        error={statistics.error}
        onRetry={() => void statistics.refetch()}
      />
    );
  } else if (!data || (data.status === 'computing' && data.statistics.length === 0)) {
    body = <ComputingState progress={data?.progress ?? 0} />;
  } else if (data.status === 'failed') {
    // The page's banner says why; the section only shows it has nothing.
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noData} />;
  } else {
    const rows: Row[] = data.splits.map((name) => ({
      split: name,
      values: Object.fromEntries(
        data.statistics.map((statistic) => [
          statistic.metric_name,
          statistic.values.find((value) => value.split_name === name)?.value ?? null,
        ]),
      ),
    }));
    body = (
      <Table<Row>
        size="small"
        rowKey="split"
        pagination={false}
        dataSource={rows}
        tableLayout="fixed"
        scroll={{ x: metricTableWidth(visible.length) }}
        data-testid="statistics-table"
        onRow={(row) =>
          row.split === split ? { style: { background: token.colorPrimaryBg } } : {}
        }
        columns={[
          {
            key: 'split',
            title: strings.splitColumn,
            dataIndex: 'split',
            width: KEY_COLUMN_WIDTH,
            render: (name: string) => (name === 'all' ? strings.splitAll : name),
          },
          ...visible.map((id) => ({
            key: id,
            title: metricTitle(task, id),
            align: 'right' as const,
            render: (_: unknown, row: Row) => formatMetric(id, row.values[id]),
          })),
        ]}
      />
    );
  }

  return (
    <SectionCard
      title={strings.statistics}
      label={strings.statistics}
      tools={
        <MetricChooser
          label={strings.statistics}
          task={task}
          choices={choices}
          visible={visible}
          onChange={setVisible}
        />
      }
    >
      {body}
    </SectionCard>
  );
}
