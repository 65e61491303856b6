// Overall Performance: one row per class, word or value name in the chosen split, with a chooser
// of the metrics shown; speech recognition (one row per word) is paged by 10.
import type { OverallPerformanceResponse, OverallRow, TaskType } from '@loupe/contracts';
import { metricTitle } from '@loupe/metrics';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Table } from 'antd';
import { ErrorFallback } from '../../../../components/ErrorFallback';
import { ComputingState } from '../components/ComputingState';
import { MetricChooser } from '../components/MetricChooser';
import { KEY_COLUMN_WIDTH, metricTableWidth } from '../components/metricTable';
import { SectionCard } from '../components/SectionCard';
import { useVisibleMetrics } from '../hooks/useVisibleMetrics';
import { formatMetric } from '../performanceRules';
import { performanceStrings as strings } from '../strings';

/** Speech recognition's table page size (docs/product.md, Models §9); other tasks show every row. */
export const WORD_TABLE_PAGE_SIZE = 10;

export interface OverallPerformanceSectionProps {
  task: TaskType;
  split: string;
  overall: UseQueryResult<OverallPerformanceResponse>;
}

/** Undefined values sort last whatever the direction. */
const byMetric = (id: string) => (a: OverallRow, b: OverallRow) =>
  (a.values[id] ?? -Infinity) - (b.values[id] ?? -Infinity);

export function OverallPerformanceSection({
  task,
  split,
  overall,
}: OverallPerformanceSectionProps) {
  const { visible, choices, setVisible } = useVisibleMetrics(task, 'overall');
  const data = overall.data;

  let body: React.ReactNode;
  if (overall.isError) {
    body = (
      <ErrorFallback
        title={strings.overallFailed}
        error={overall.error}
        onRetry={() => void overall.refetch()}
      />
    );
  } else if (!data || (data.status === 'computing' && data.splits.length === 0)) {
    body = <ComputingState progress={data?.progress ?? 0} />;
  } else if (data.status === 'failed') {
    // The page's banner says why; the section only shows it has nothing.
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noData} />;
  } else {
    const rows = data.splits.find((entry) => entry.split_name === split)?.rows ?? [];
    const paged = task === 'automatic_speech_recognition';
    body = (
      <Table<OverallRow>
        size="small"
        rowKey="key"
        dataSource={rows}
        data-testid="overall-table"
        locale={{ emptyText: strings.noData }}
        pagination={
          paged
            ? { pageSize: WORD_TABLE_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }
            : false
        }
        tableLayout="fixed"
        scroll={{ x: metricTableWidth(visible.length) }}
        columns={[
          {
            key: 'key',
            title: strings.primaryKey[data.primary_key],
            dataIndex: 'key',
            width: KEY_COLUMN_WIDTH,
            fixed: 'left',
            ellipsis: true,
            sorter: (a, b) => a.key.localeCompare(b.key),
          },
          ...visible.map((id) => ({
            key: id,
            title: metricTitle(task, id),
            align: 'right' as const,
            sorter: byMetric(id),
            render: (_: unknown, row: OverallRow) => formatMetric(id, row.values[id]),
          })),
        ]}
      />
    );
  }

  return (
    <SectionCard
      title={strings.overall}
      label={strings.overall}
      tools={
        <MetricChooser
          label={strings.overall}
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
