// 'Per {entity} breakdown' (class, or word for speech recognition): which model is better on each
// entity and by how much. The segment bar selects a category; each category's list is
// expandable, coloured by category, sorted by |raw delta| (model B's starts collapsed), its bars
// scaled to the largest |raw delta| of all categories, 5 rows before 'Show N more'. A class name
// opens 'View objects' with both models' explore links. Accuracy has no per-class view: the
// disabled variant says so.
import { InfoCircleOutlined } from '@ant-design/icons';
import {
  COMPARISON_CATEGORY_LABELS,
  comparisonSegments,
  type ComparisonCategory,
  type EntityBreakdown,
  type EntityDelta,
  type TaskType,
} from '@loupe/contracts';
import { formatByType, metricTitle } from '@loupe/metrics';
import { Button, Collapse, Empty, Flex, Popover, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { SectionCard } from '../../performance/components/SectionCard';
import {
  barLength,
  largestAbsoluteDelta,
  LIST_ROWS_SHOWN,
  rawDeltaText,
  sortByAbsoluteDelta,
} from '../comparisonRules';
import { ExploreLinks } from '../components/ExploreLinks';
import { SegmentBar } from '../components/SegmentBar';
import { useCategoryColors } from '../hooks/useCategoryColors';
import { compareStrings as strings, ENTITY_WORDS } from '../strings';

export interface EntityBreakdownSectionProps {
  datasetId: string;
  task: TaskType;
  breakdown: EntityBreakdown;
}

/** The categories opened at first: every non-empty one except model B's, which starts collapsed. */
function initiallyOpen(task: TaskType, breakdown: EntityBreakdown): ComparisonCategory[] {
  return comparisonSegments(task).filter(
    (category) => category !== 'model_b_is_better' && breakdown[category].length > 0,
  );
}

export function EntityBreakdownSection({
  datasetId,
  task,
  breakdown,
}: EntityBreakdownSectionProps) {
  const colors = useCategoryColors();
  const labels = COMPARISON_CATEGORY_LABELS[task];
  const title = strings.perEntityTitle(breakdown.entity);
  const word = ENTITY_WORDS[breakdown.entity];
  const [open, setOpen] = useState<ComparisonCategory[]>(() => initiallyOpen(task, breakdown));
  const [active, setActive] = useState<ComparisonCategory | null>(null);
  const largest = largestAbsoluteDelta(breakdown);
  const categories = comparisonSegments(task);

  const select = (category: ComparisonCategory) => {
    setActive(category);
    setOpen((current) => (current.includes(category) ? current : [...current, category]));
  };

  return (
    <SectionCard title={title} label={title}>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          {strings.perEntityHelp(breakdown.entity)}
        </Typography.Text>
        <Flex vertical gap={2}>
          <Typography.Text data-testid="breakdown-summary">
            {strings.summary(
              breakdown.model_a_is_better.length,
              breakdown.model_b_is_better.length,
            )}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {strings.clickHint(breakdown.entity)}
          </Typography.Text>
        </Flex>
        <SegmentBar
          label={title}
          active={active}
          onSelect={select}
          segments={categories.map((category) => ({
            category,
            label: labels[category],
            count: breakdown[category].length,
            countText: word(breakdown[category].length),
          }))}
        />
        <Collapse
          size="small"
          activeKey={open}
          onChange={(keys) =>
            setOpen((Array.isArray(keys) ? keys : [keys]) as ComparisonCategory[])
          }
          items={categories.map((category) => ({
            key: category,
            collapsible: breakdown[category].length === 0 ? 'disabled' : undefined,
            label: (
              <Flex gap={8} align="center">
                <span
                  aria-hidden
                  style={{
                    width: 10,
                    height: 10,
                    borderRadius: 2,
                    background: colors[category],
                    display: 'inline-block',
                  }}
                />
                <Typography.Text strong={active === category}>{labels[category]}</Typography.Text>
                <Typography.Text type="secondary">
                  {word(breakdown[category].length)}
                </Typography.Text>
              </Flex>
            ),
            children: (
              <EntityList
                datasetId={datasetId}
                task={task}
                metric={breakdown.metric}
                entityKind={breakdown.entity}
                category={category}
                entries={sortByAbsoluteDelta(breakdown[category])}
                largest={largest}
                color={colors[category]}
              />
            ),
          }))}
        />
      </Flex>
    </SectionCard>
  );
}

interface EntityListProps {
  datasetId: string;
  task: TaskType;
  metric: string;
  entityKind: EntityBreakdown['entity'];
  category: ComparisonCategory;
  entries: EntityDelta[];
  largest: number;
  color: string;
}

function EntityList({
  datasetId,
  task,
  metric,
  entityKind,
  category,
  entries,
  largest,
  color,
}: EntityListProps) {
  const { token } = theme.useToken();
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? entries : entries.slice(0, LIST_ROWS_SHOWN);
  const hidden = entries.length - LIST_ROWS_SHOWN;
  const value = (number: number) => formatByType(metric, number);
  return (
    <Flex
      vertical
      gap={4}
      role="list"
      aria-label={category}
      data-testid={`entity-list-${category}`}
    >
      {shown.map((entry) => (
        <div
          key={entry.entity}
          role="listitem"
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(80px, 180px) minmax(0, 1fr) 90px 150px',
            gap: 12,
            alignItems: 'center',
          }}
        >
          <EntityName datasetId={datasetId} entityKind={entityKind} entry={entry} />
          <Tooltip title={strings.entityDelta(metricTitle(task, metric))}>
            <div style={{ height: 12, background: token.colorFillQuaternary, borderRadius: 2 }}>
              <div
                data-testid="entity-bar"
                style={{
                  width: `${barLength(entry.raw_delta, largest)}%`,
                  height: '100%',
                  background: color,
                  borderRadius: 2,
                }}
              />
            </div>
          </Tooltip>
          <Typography.Text style={{ fontVariantNumeric: 'tabular-nums', textAlign: 'right' }}>
            {rawDeltaText(metric, entry.raw_delta)}
          </Typography.Text>
          <Typography.Text
            type="secondary"
            style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums', textAlign: 'right' }}
          >
            {`A ${value(entry.model_a)} · B ${value(entry.model_b)}`}
          </Typography.Text>
        </div>
      ))}
      {entries.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noItems} />
      )}
      {hidden > 0 && (
        <div>
          <Button type="link" size="small" onClick={() => setExpanded((current) => !current)}>
            {expanded ? strings.showLess(hidden) : strings.showMore(hidden)}
          </Button>
        </div>
      )}
    </Flex>
  );
}

function EntityName({
  datasetId,
  entityKind,
  entry,
}: {
  datasetId: string;
  entityKind: EntityBreakdown['entity'];
  entry: EntityDelta;
}) {
  const name = (
    <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
      {entry.entity}
    </Typography.Text>
  );
  // Words have no explorer of their own; a class opens 'View objects'.
  if (entityKind !== 'class' || !entry.explore_config) return name;
  return (
    <Popover
      trigger="click"
      title={strings.viewObjects}
      content={<ExploreLinks datasetId={datasetId} config={entry.explore_config} vertical />}
    >
      <Button
        type="link"
        size="small"
        style={{ padding: 0, justifyContent: 'flex-start', maxWidth: '100%', overflow: 'hidden' }}
      >
        {entry.entity}
      </Button>
    </Popover>
  );
}

/** The disabled variant: Accuracy has no per-class breakdown. */
export function PerClassUnavailable() {
  const title = (
    <Flex gap={6} align="center">
      {strings.perClassDisabledTitle}
      <Tooltip title={strings.accuracyDisabled}>
        <InfoCircleOutlined aria-label={strings.accuracyDisabled} />
      </Tooltip>
    </Flex>
  );
  return (
    <SectionCard title={title} label={strings.perClassDisabledTitle}>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <Flex vertical>
            <Typography.Text>{strings.accuracyDisabled}</Typography.Text>
            <Typography.Text type="secondary">{strings.accuracyDisabledHint}</Typography.Text>
          </Flex>
        }
      />
    </SectionCard>
  );
}
