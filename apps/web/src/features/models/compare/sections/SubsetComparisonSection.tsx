// Subset Performance in comparison: both models on each subset enabled for performance, in the
// chosen split, grouped by data level (audio, image, image object), 3 per level before 'Show
// more'; search by name; '+' opens the performance page's modal that enables subsets; each
// subset's metric can be changed (and with it the subset's category and the counts per group).
import {
  COMPARISON_CATEGORY_LABELS,
  comparisonSegments,
  type Dataset,
  type SubsetComparisonEntry,
  type TaskType,
} from '@loupe/contracts';
import { metricTitle, PERFORMANCE_METRICS } from '@loupe/metrics';
import { Card, Flex, Select, Tag, theme, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { SubsetLevelGroup } from '../../performance/components/SubsetLevelGroup';
import { SubsetSectionFrame } from '../../performance/components/SubsetSectionFrame';
import { useLicense } from '../../../../api/hooks/useLicense';
import { DisabledTooltip } from '../../../../components/DisabledTooltip';
import { useDatasetSubsets } from '../../performance/hooks/useDatasetSubsets';
import { useToggleSubsetPerformance } from '../../performance/hooks/useToggleSubsetPerformance';
import { modelRoot } from '../../performance/performanceRules';
import {
  COMPARISON_SUBSETS_SHOWN,
  groupSubsetComparison,
  relativeDeltaText,
  scoreText,
  subsetCategoryCounts,
} from '../comparisonRules';
import { useCategoryColors } from '../hooks/useCategoryColors';
import { useSubsetsComparison } from '../hooks/useSubsetsComparison';
import { compareStrings as strings } from '../strings';

export interface SubsetComparisonSectionProps {
  dataset: Dataset;
  modelA: string;
  modelB: string;
  split: string;
}

export function SubsetComparisonSection({
  dataset,
  modelA,
  modelB,
  split,
}: SubsetComparisonSectionProps) {
  const comparison = useSubsetsComparison(dataset.id, modelA, modelB, split);
  const subsets = useDatasetSubsets(dataset.id);
  const licensed = useLicense().data?.state === 'LICENSED';
  const colors = useCategoryColors();
  const [query, setQuery] = useState('');
  const data = comparison.data;
  const entries = data ? Object.values(data.comparison_per_subset) : [];
  const pending = data?.pending_subsets.length ?? 0;
  const groups = groupSubsetComparison(entries, query);
  const task = dataset.task_type;
  const labels = COMPARISON_CATEGORY_LABELS[task];
  const counts = subsetCategoryCounts(entries);

  return (
    <SubsetSectionFrame
      datasetId={dataset.id}
      licensed={licensed}
      query={query}
      onQuery={setQuery}
      failure={
        comparison.isError
          ? {
              title: strings.subsetsFailedToLoad,
              error: comparison.error,
              retry: () => void comparison.refetch(),
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
        {entries.length > 0 && (
          <Flex gap={4} wrap="wrap" aria-label={strings.subsetCategories} role="group">
            {comparisonSegments(task).map((category) => (
              <Tag key={category} color={colors[category]} data-testid={`subset-count-${category}`}>
                {`${labels[category]}: ${counts[category]}`}
              </Tag>
            ))}
          </Flex>
        )}
        {groups.map((group) => (
          <SubsetLevelGroup
            key={group.level}
            level={group.level}
            entries={group.entries}
            shown={COMPARISON_SUBSETS_SHOWN}
            renderCard={(entry) => (
              <SubsetCard
                entry={entry}
                datasetId={dataset.id}
                modelA={modelA}
                task={task}
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
  entry: SubsetComparisonEntry;
  datasetId: string;
  modelA: string;
  task: TaskType;
  licensed: boolean;
}

function SubsetCard({ entry, datasetId, modelA, task, licensed }: SubsetCardProps) {
  const { token } = theme.useToken();
  const colors = useCategoryColors();
  const toggle = useToggleSubsetPerformance(datasetId);
  const { subset, metric_name: metric } = entry;
  const lock = licensed ? null : strings.subsetNeedsLicense;
  const comparison = entry.comparison_per_metric[metric];
  const relative = comparison ? relativeDeltaText(comparison) : null;
  const category = comparison?.category ?? null;
  return (
    <Card size="small" data-testid="subset-comparison-card" style={{ height: '100%' }}>
      <Flex vertical gap={6}>
        <Link to={`${modelRoot(datasetId, modelA)}/subsets/${encodeURIComponent(subset.id)}`}>
          <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
            {subset.name}
          </Typography.Text>
        </Link>
        <DisabledTooltip reason={lock}>
          <Select
            size="small"
            variant="borderless"
            aria-label={strings.subsetMetric(subset.name)}
            value={metric}
            disabled={lock !== null}
            loading={toggle.isPending}
            popupMatchSelectWidth={false}
            options={PERFORMANCE_METRICS[task].slice.map((id) => ({
              value: id,
              label: metricTitle(task, id),
            }))}
            onChange={(next: string) =>
              toggle.mutate({ subsetId: subset.id, change: { metric_name: next } })
            }
          />
        </DisabledTooltip>
        <Flex gap={16} align="baseline" wrap="wrap">
          <Typography.Text>
            {`${strings.modelA} `}
            <Typography.Text strong>{scoreText(metric, comparison?.model_a)}</Typography.Text>
          </Typography.Text>
          <Typography.Text>
            {`${strings.modelB} `}
            <Typography.Text strong>{scoreText(metric, comparison?.model_b)}</Typography.Text>
          </Typography.Text>
          {relative && (
            <Typography.Text
              type={relative.improved === null ? 'secondary' : undefined}
              style={{
                color:
                  relative.improved === true
                    ? token.colorSuccess
                    : relative.improved === false
                      ? token.colorError
                      : undefined,
              }}
            >
              {`${relative.text} ${relative.arrow}`.trim()}
            </Typography.Text>
          )}
        </Flex>
        {category && (
          <div>
            <Tag color={colors[category]}>{COMPARISON_CATEGORY_LABELS[task][category]}</Tag>
          </div>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {strings.itemsUsed(entry.num_items_used, entry.num_items_total)}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
