// The viewer's sidebar (360 px, collapsible): Sample, Objects (Ground Truths and Predictions,
// each with Select All / Deselect all), searchable Metadata grouped with 'Card config' first,
// the item's actions and the pending-changes box (both from the curation feature). In a
// comparison of two models: both models' predictions, and their objects in two groups.
import type { ExploreItem, ExploreObject, MetadataFieldInfo } from '@loupe/contracts';
import {
  Button,
  Checkbox,
  Collapse,
  Descriptions,
  Empty,
  Flex,
  Input,
  Space,
  Typography,
  theme,
} from 'antd';
import { useState } from 'react';
import { comparedSides, predictionText, type ComparedModels } from '../../../lib/comparedModels';
import { formatMetadataValue, groupMetadata } from '../lib/formatMetadata';
import { viewerStrings as strings } from '../strings';

export const SIDEBAR_WIDTH = 360;

const score = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : formatMetadataValue(value, 'numeric');

function SampleSection({ item, compared }: { item: ExploreItem; compared: ComparedModels | null }) {
  const rows: { key: string; label: string; children: React.ReactNode }[] = [
    {
      key: 'id',
      label: strings.id,
      children: <Typography.Text copyable>{item.id}</Typography.Text>,
    },
  ];
  if (item.split) rows.push({ key: 'split', label: strings.split, children: item.split });
  if (item.label) rows.push({ key: 'label', label: strings.label, children: item.label });
  if (item.labels?.length)
    rows.push({ key: 'labels', label: strings.labels, children: item.labels.join(', ') });
  if (item.values) {
    rows.push({
      key: 'values',
      label: strings.values,
      children: Object.entries(item.values)
        .map(([name, value]) => `${name}: ${score(value)}`)
        .join(', '),
    });
  }
  if (item.transcript !== null) {
    rows.push({ key: 'transcript', label: strings.transcript, children: item.transcript });
  }
  // In a comparison each model's prediction has its row (transcripts are aligned under the audio).
  if (compared) {
    for (const side of comparedSides(item, compared)) {
      const text = predictionText(side.prediction) ?? side.prediction?.transcript;
      if (!text) continue;
      rows.push({
        key: `prediction-${side.model.key}`,
        label: strings.modelPrediction(side.model.key),
        children: (
          <Typography.Text data-testid={`sidebar-prediction-${side.model.key}`}>
            {text}
          </Typography.Text>
        ),
      });
    }
    return <Descriptions size="small" column={1} items={rows} data-testid="sample-section" />;
  }
  const prediction = item.prediction;
  if (prediction?.label) {
    rows.push({ key: 'prediction', label: strings.prediction, children: prediction.label });
    rows.push({ key: 'score', label: strings.score, children: score(prediction.score) });
  }
  if (prediction?.values) {
    rows.push({
      key: 'predicted-values',
      label: strings.prediction,
      children: Object.entries(prediction.values)
        .map(([name, value]) => `${name}: ${score(value)}`)
        .join(', '),
    });
  }
  if (prediction?.transcript !== null && prediction?.transcript !== undefined) {
    rows.push({
      key: 'predicted-transcript',
      label: strings.predictedTranscript,
      children: prediction.transcript,
    });
  }
  return <Descriptions size="small" column={1} items={rows} data-testid="sample-section" />;
}

interface ObjectsProps {
  objects: ExploreObject[];
  colorOf: (label: string) => string;
  hidden: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  onToggleVisible: (id: string) => void;
  onGroupVisible: (ids: string[], visible: boolean) => void;
  onSelect: (id: string, toggle: boolean) => void;
}

function ObjectGroup({
  title,
  objects,
  color,
  ...props
}: ObjectsProps & { title: string; /** The model's colour, in a comparison. */ color?: string }) {
  const { token } = theme.useToken();
  const ids = objects.map((object) => object.id);
  return (
    <section aria-label={title} data-testid={`object-group-${title}`}>
      <Flex align="center" gap={4} style={{ marginBottom: 4 }}>
        <Typography.Text strong>
          {title} ({objects.length})
        </Typography.Text>
        <Space size={0} style={{ marginLeft: 'auto' }}>
          <Button
            size="small"
            type="link"
            onClick={() => props.onGroupVisible(ids, true)}
            disabled={!objects.length}
          >
            {strings.selectAll}
          </Button>
          <Button
            size="small"
            type="link"
            onClick={() => props.onGroupVisible(ids, false)}
            disabled={!objects.length}
          >
            {strings.deselectAll}
          </Button>
        </Space>
      </Flex>
      {objects.length === 0 && (
        <Typography.Text type="secondary">{strings.noObjects}</Typography.Text>
      )}
      {objects.map((object) => {
        const isSelected = props.selected.has(object.id);
        return (
          <Flex
            key={object.id}
            align="center"
            gap={8}
            data-testid="object-row"
            data-object-id={object.id}
            style={{
              padding: '2px 6px',
              borderRadius: token.borderRadiusSM,
              background: isSelected ? token.controlItemBgActive : undefined,
            }}
          >
            <Checkbox
              checked={!props.hidden.has(object.id)}
              onChange={() => props.onToggleVisible(object.id)}
              aria-label={`${object.label} ${object.id}`}
            />
            <span
              style={{
                width: 12,
                height: 12,
                flexShrink: 0,
                borderRadius: 2,
                border: `2px ${object.type === 'pred' ? 'dashed' : 'solid'} ${color ?? props.colorOf(object.label)}`,
              }}
            />
            <Typography.Link
              onClick={(event) =>
                props.onSelect(object.id, event.metaKey || event.ctrlKey || event.shiftKey)
              }
              style={{ color: token.colorText, flex: 1, minWidth: 0 }}
              ellipsis
            >
              {object.label}
            </Typography.Link>
            {object.score !== undefined && (
              <Typography.Text type="secondary">{score(object.score)}</Typography.Text>
            )}
          </Flex>
        );
      })}
    </section>
  );
}

function MetadataSection({
  item,
  fields,
  failed,
  cardConfigIds,
}: {
  item: ExploreItem;
  fields: MetadataFieldInfo[] | undefined;
  failed: boolean;
  cardConfigIds: string[];
}) {
  const [search, setSearch] = useState('');
  if (failed) return <Typography.Text type="danger">{strings.metadataFailed}</Typography.Text>;
  const groups = groupMetadata(fields ?? [], item.metadata, cardConfigIds, search);
  return (
    <Flex vertical gap={8}>
      <Input.Search
        allowClear
        placeholder={strings.searchMetadata}
        aria-label={strings.searchMetadata}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {groups.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noMatches} />
      ) : (
        groups.map((group) => (
          <section key={group.name} aria-label={group.name} data-testid="metadata-group">
            <Typography.Text strong>{group.name}</Typography.Text>
            <Descriptions
              size="small"
              column={1}
              items={group.rows.map((row) => ({
                key: row.id,
                label: row.label,
                children: row.value,
              }))}
            />
          </section>
        ))
      )}
    </Flex>
  );
}

export interface ViewerSidebarProps extends Omit<ObjectsProps, 'objects'> {
  item: ExploreItem;
  /** The comparison of two models the explorer is in. */
  compared?: ComparedModels | null;
  metadataFields: MetadataFieldInfo[] | undefined;
  metadataFailed: boolean;
  cardConfigIds: string[];
  /** Tasks with objects show the section even for an item without any. */
  showObjects: boolean;
  /** The item's actions, which queue pending changes. */
  actions: React.ReactNode;
  /** The pending-changes box, and how many changes it holds. */
  pendingChanges: React.ReactNode;
  pendingCount: number;
}

export function ViewerSidebar({
  item,
  compared = null,
  metadataFields,
  metadataFailed,
  cardConfigIds,
  showObjects,
  actions,
  pendingChanges,
  pendingCount,
  ...objects
}: ViewerSidebarProps) {
  const groundTruths = item.objects.filter((object) => object.type === 'gt');
  const predictions = item.objects.filter((object) => object.type === 'pred');
  const sides = compared ? comparedSides(item, compared) : null;
  const predictionGroups = sides
    ? sides.map((side) => (
        <ObjectGroup
          key={side.model.key}
          title={strings.modelPredictions(side.model.key)}
          objects={side.objects}
          color={side.model.color}
          {...objects}
        />
      ))
    : [<ObjectGroup key="pred" title={strings.predictions} objects={predictions} {...objects} />];
  const sections = [
    { key: 'actions', label: strings.actions, children: actions },
    {
      key: 'pending',
      label: pendingCount > 0 ? strings.pendingCount(pendingCount) : strings.pendingChanges,
      children: pendingChanges,
    },
    {
      key: 'sample',
      label: strings.sample,
      children: <SampleSection item={item} compared={compared} />,
    },
    ...(item.objects.length > 0 || showObjects
      ? [
          {
            key: 'objects',
            label: strings.objects,
            children: (
              <Flex vertical gap={12}>
                <ObjectGroup title={strings.groundTruths} objects={groundTruths} {...objects} />
                {predictionGroups}
              </Flex>
            ),
          },
        ]
      : []),
    {
      key: 'metadata',
      label: strings.metadata,
      children: (
        <MetadataSection
          item={item}
          fields={metadataFields}
          failed={metadataFailed}
          cardConfigIds={cardConfigIds}
        />
      ),
    },
  ];
  return (
    <Collapse
      size="small"
      ghost
      defaultActiveKey={['actions', 'pending', 'sample', 'objects', 'metadata']}
      items={sections}
    />
  );
}
