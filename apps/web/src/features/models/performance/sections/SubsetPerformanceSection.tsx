// Subset Performance (docs/product.md, Models §2): the enabled subsets' metrics in the chosen
// split, grouped by data level (audio, image, image object), 4 per level before 'Show more';
// search by name; '+' opens the modal that enables subsets; each subset's metric can be changed.
import type { Dataset, SubsetPerformanceEntry, TaskType } from '@loupe/contracts';
import { metricTitle, PERFORMANCE_METRICS } from '@loupe/metrics';
import { Card, Flex, Select, theme, Typography } from 'antd';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { SubsetLevelGroup } from '../components/SubsetLevelGroup';
import { SubsetSectionFrame } from '../components/SubsetSectionFrame';
import { useLicense } from '../../../../api/hooks/useLicense';
import { DisabledTooltip } from '../../../../components/DisabledTooltip';
import { useDatasetSubsets } from '../hooks/useDatasetSubsets';
import { useSubsetsPerformance } from '../hooks/useSubsetsPerformance';
import { useToggleSubsetPerformance } from '../hooks/useToggleSubsetPerformance';
import { formatMetric, groupSubsetEntries, modelRoot, SUBSETS_SHOWN } from '../performanceRules';
import { performanceStrings as strings } from '../strings';

export interface SubsetPerformanceSectionProps {
  dataset: Dataset;
  predictionSetId: string;
  split: string;
}

export function SubsetPerformanceSection({
  dataset,
  predictionSetId,
  split,
}: SubsetPerformanceSectionProps) {
  const performance = useSubsetsPerformance(dataset.id, predictionSetId, split);
  const subsets = useDatasetSubsets(dataset.id);
  const licensed = useLicense().data?.state === 'LICENSED';
  const [query, setQuery] = useState('');
  const data = performance.data;
  const entries = data ? Object.values(data.performance_per_subset) : [];
  const pending = data?.pending_subsets.length ?? 0;
  const groups = groupSubsetEntries(entries, query);

  return (
    <SubsetSectionFrame
      datasetId={dataset.id}
      licensed={licensed}
      query={query}
      onQuery={setQuery}
      failure={
        performance.isError
          ? {
              title: strings.subsetsFailed,
              error: performance.error,
              retry: () => void performance.refetch(),
            }
          : null
      }
      loaded={data !== undefined}
      noSubsets={subsets.data?.length === 0}
      entries={entries.length}
      pending={pending}
      matching={groups.length}
    >
      <Flex vertical gap={16}>
        {groups.map((group) => (
          <SubsetLevelGroup
            key={group.level}
            level={group.level}
            entries={group.entries}
            shown={SUBSETS_SHOWN}
            renderCard={(entry) => (
              <SubsetCard
                entry={entry}
                root={modelRoot(dataset.id, predictionSetId)}
                datasetId={dataset.id}
                task={dataset.task_type}
                metrics={PERFORMANCE_METRICS[dataset.task_type].slice}
                licensed={licensed}
              />
            )}
          />
        ))}
      </Flex>
    </SubsetSectionFrame>
  );
}

interface SubsetCardProps {
  entry: SubsetPerformanceEntry;
  root: string;
  datasetId: string;
  task: TaskType;
  metrics: readonly string[];
  licensed: boolean;
}

function SubsetCard({ entry, root, datasetId, task, metrics, licensed }: SubsetCardProps) {
  const { token } = theme.useToken();
  const toggle = useToggleSubsetPerformance(datasetId);
  const { subset, metric_name: metric } = entry;
  const lock = licensed ? null : strings.needsLicense;
  const others = Object.entries(entry.performance_per_metric).filter(([id]) => id !== metric);
  return (
    <Card size="small" data-testid="subset-performance-card" style={{ height: '100%' }}>
      <Flex vertical gap={6}>
        <Link to={`${root}/subsets/${encodeURIComponent(subset.id)}`}>
          <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
            {subset.name}
          </Typography.Text>
        </Link>
        <Flex align="baseline" gap={8} wrap="wrap">
          <Typography.Text style={{ fontSize: 22, fontWeight: 600 }}>
            {formatMetric(metric, entry.performance_per_metric[metric])}
          </Typography.Text>
          <DisabledTooltip reason={lock}>
            <Select
              size="small"
              variant="borderless"
              aria-label={strings.subsetMetric(subset.name)}
              value={metric}
              disabled={lock !== null}
              loading={toggle.isPending}
              popupMatchSelectWidth={false}
              options={metrics.map((id) => ({ value: id, label: metricTitle(task, id) }))}
              onChange={(next: string) =>
                toggle.mutate({ subsetId: subset.id, change: { metric_name: next } })
              }
            />
          </DisabledTooltip>
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {strings.itemsUsed(entry.num_items_used, entry.num_items_total)}
        </Typography.Text>
        {others.length > 0 && (
          // One metric a line, names left and values right-aligned, the same in every card.
          <dl
            aria-label={strings.otherMetrics(subset.name)}
            style={{
              display: 'grid',
              gridTemplateColumns: 'minmax(0, 1fr) auto',
              columnGap: 12,
              rowGap: 2,
              margin: 0,
              paddingTop: 6,
              borderTop: `1px solid ${token.colorBorderSecondary}`,
              fontSize: 12,
              color: token.colorTextSecondary,
            }}
          >
            {others.map(([id, value]) => (
              <Fragment key={id}>
                <dt style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {metricTitle(task, id)}
                </dt>
                <dd style={{ margin: 0, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                  {formatMetric(id, value)}
                </dd>
              </Fragment>
            ))}
          </dl>
        )}
      </Flex>
    </Card>
  );
}
