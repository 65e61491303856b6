// The explorer's performance sidebar under a model (docs/product.md, Datasets §2, §8): the task's
// slice metrics over the selected items, or over the current filter (and subset) when nothing is
// selected, with how many items they cover and how many of those have a prediction. It folds
// into a narrow strip; the choice is remembered in this browser.
import { BarChartOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import type {
  DataLevel,
  Dataset,
  ExploreComparison,
  Filter,
  ItemsSummaryResponse,
} from '@loupe/contracts';
import { formatByType, getMetric, PERFORMANCE_METRICS } from '@loupe/metrics';
import { Alert, Button, Card, Descriptions, Flex, Spin, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { commonStrings } from '../../../components/strings';
import { readStorage, writeStorage } from '../../../lib/storage';
import { exploreStrings as strings } from '../strings';
import { planSummary, type SummaryScope } from './selectionPerformanceRules';
import { useSelectionPerformance } from './useSelectionPerformance';

/** Width of the open sidebar (docs/product.md, Datasets §2). */
export const PERFORMANCE_SIDEBAR_WIDTH = 325;
const COLLAPSED_KEY = 'loupe.explore.performanceCollapsed';

export interface SelectionPerformanceSidebarProps {
  dataset: Dataset;
  predictionSetId: string;
  dataLevel: DataLevel;
  /** The explorer's comparison of two models, if it is in one (its filter may name its fields). */
  comparison?: ExploreComparison | undefined;
  filter: Filter | null;
  subsetId: string | null;
  selectedCount: number;
  /** The selected items (ids first) as the explorer looked them up; null while loading. */
  selectedItems: { items: readonly { id: string }[] | null; error: unknown };
}

function scopeLabel(scope: SummaryScope, selectedCount: number): string {
  if (scope === 'selection') return strings.performanceOfSelection(selectedCount);
  if (scope === 'filter') return strings.performanceOfFilter;
  if (scope === 'subset') return strings.performanceOfSubset;
  return strings.performanceOfAll;
}

export function SelectionPerformanceSidebar(props: SelectionPerformanceSidebarProps) {
  const [collapsed, setCollapsed] = useState(() => readStorage(COLLAPSED_KEY) === 'true');
  const toggle = (next: boolean) => {
    setCollapsed(next);
    writeStorage(COLLAPSED_KEY, String(next));
  };
  if (collapsed) {
    return (
      <aside aria-label={strings.performance} style={{ flex: 'none' }}>
        <Tooltip title={strings.showPerformance} placement="left">
          <Button
            icon={<BarChartOutlined />}
            aria-label={strings.showPerformance}
            onClick={() => toggle(false)}
          />
        </Tooltip>
      </aside>
    );
  }
  return (
    <aside
      aria-label={strings.performance}
      data-testid="selection-performance"
      style={{ width: PERFORMANCE_SIDEBAR_WIDTH, flex: 'none', position: 'sticky', top: 76 }}
    >
      <Card
        size="small"
        title={strings.performance}
        extra={
          <Tooltip title={strings.hidePerformance}>
            <Button
              type="text"
              size="small"
              icon={<MenuUnfoldOutlined />}
              aria-label={strings.hidePerformance}
              onClick={() => toggle(true)}
            />
          </Tooltip>
        }
      >
        <SelectionPerformanceBody {...props} />
      </Card>
    </aside>
  );
}

function SelectionPerformanceBody({
  dataset,
  predictionSetId,
  dataLevel,
  comparison,
  filter,
  subsetId,
  selectedCount,
  selectedItems,
}: SelectionPerformanceSidebarProps) {
  const selectedIds = useMemo(
    () => selectedItems.items?.map((item) => item.id) ?? null,
    [selectedItems.items],
  );
  const plan = useMemo(
    () => planSummary({ dataLevel, comparison, filter, subsetId, selectedCount, selectedIds }),
    [dataLevel, comparison, filter, subsetId, selectedCount, selectedIds],
  );
  const { summary, stale, tooMany, error, retry } = useSelectionPerformance({
    datasetId: dataset.id,
    predictionSetId,
    plan,
  });

  let body: React.ReactNode;
  if (tooMany) {
    body = <Alert type="warning" showIcon title={strings.tooManyItems} />;
  } else if (error || (selectedCount > 0 && selectedItems.error)) {
    body = (
      <Alert
        type="error"
        showIcon
        title={strings.averageMetricsFailed}
        action={
          error ? (
            <Button size="small" onClick={retry}>
              {commonStrings.retry}
            </Button>
          ) : undefined
        }
      />
    );
  } else if (!summary) {
    body = (
      <Flex justify="center" style={{ padding: 24 }}>
        <Spin />
      </Flex>
    );
  } else {
    body = <SummaryNumbers summary={summary} task={dataset.task_type} stale={stale} />;
  }
  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary" data-testid="selection-performance-scope">
        {scopeLabel(plan.scope, selectedCount)}
      </Typography.Text>
      {body}
    </Flex>
  );
}

function SummaryNumbers({
  summary,
  task,
  stale,
}: {
  summary: ItemsSummaryResponse;
  task: Dataset['task_type'];
  stale: boolean;
}) {
  // The task's slice metrics in catalogue order; any other metric the server adds follows.
  const order = PERFORMANCE_METRICS[task].slice;
  const metrics = [...summary.metrics].sort(
    (a, b) => rank(order, a.metric_name) - rank(order, b.metric_name),
  );
  return (
    <Flex
      vertical
      gap={8}
      aria-busy={stale}
      data-stale={stale}
      style={{ opacity: stale ? 0.55 : 1, transition: 'opacity 150ms' }}
    >
      <Descriptions
        size="small"
        column={1}
        items={metrics.map(({ metric_name, value }) => ({
          key: metric_name,
          label: getMetric(metric_name)?.title ?? metric_name,
          children: (
            <span data-testid={`selection-metric-${metric_name}`}>
              {value === null ? '–' : formatByType(metric_name, value)}
            </span>
          ),
        }))}
      />
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'items',
            label: strings.summaryItems,
            children: (
              <span data-testid="selection-num-items">{summary.num_items.toLocaleString()}</span>
            ),
          },
          {
            key: 'used',
            label: strings.summaryWithPrediction,
            children: (
              <span data-testid="selection-num-items-used">
                {summary.num_items_used.toLocaleString()}
              </span>
            ),
          },
        ]}
      />
      {summary.num_items > 0 && summary.num_items_used === 0 && (
        <Typography.Text type="secondary">{strings.noPredictionsInSlice}</Typography.Text>
      )}
      {summary.iou_threshold !== null && (
        <Typography.Text type="secondary">
          {strings.summaryIou(summary.iou_threshold)}
        </Typography.Text>
      )}
    </Flex>
  );
}

function rank(order: readonly string[], metric: string): number {
  const index = order.indexOf(metric);
  return index === -1 ? order.length : index;
}
