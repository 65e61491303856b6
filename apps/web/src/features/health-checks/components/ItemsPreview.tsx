// The failed items of a check as a compact grid (docs/health-checks.md, "Check page"): the
// explorer's item_ids with the evidence's filter and sort, then the items of the first cards,
// each with the metadata the check chose under its thumbnail. A click (or Enter / Space) on a
// card puts the item in the action card's active group or takes it out.
import type { DataLevel, ExploreItem, ItemsPreviewConfig } from '@loupe/contracts';
import { Alert, Button, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useItemPreviews } from '../../../api/hooks/useItemPreviews';
import { itemIdsQuery } from '../../../api/queries/explore';
import { ItemThumbnail } from '../../../components/ItemThumbnail';
import { groupOf, type SelectionGroup } from '../checkRules';
import { checkStrings as strings } from '../strings';

/** Cards shown at first and added by each 'Show more items' (an items call takes at most 1,000). */
export const PREVIEW_PAGE = 48;
const MAX_PREVIEW = 960;
const THUMB = 136;

export interface ItemsPreviewProps {
  datasetId: string;
  config: ItemsPreviewConfig;
  predictionsId?: string;
  groups?: readonly SelectionGroup[];
  /** Without it the cards are not clickable. */
  onToggle?(itemId: string): void;
  /** The loaded items, for the queued changes (an object's sample). */
  onItems?(items: ReadonlyMap<string, ExploreItem>): void;
  /** A card's extra control (the ignored list's Re-enable). */
  renderExtra?(itemId: string): React.ReactNode;
  /** Names of the visible fields (a check's own fields by their labels); ids show otherwise. */
  fieldLabels?: Readonly<Record<string, string>>;
  testId?: string;
}

export function useCheckItemIds(
  datasetId: string,
  config: {
    data_level: DataLevel;
    filter: ItemsPreviewConfig['filter'] | null;
    sort_by: ItemsPreviewConfig['sort_by'];
  },
  predictionsId?: string,
  enabled = true,
) {
  return useQuery({
    ...itemIdsQuery(datasetId, {
      data_level: config.data_level,
      sort: [...config.sort_by],
      filter: config.filter,
      ...(predictionsId ? { predictions_id: predictionsId } : {}),
    }),
    enabled,
  });
}

export function ItemsPreview(props: ItemsPreviewProps) {
  const { datasetId, config, predictionsId, groups = [], onToggle, onItems, renderExtra } = props;
  const [count, setCount] = useState(PREVIEW_PAGE);
  const ids = useCheckItemIds(datasetId, config, predictionsId);
  const shown = (ids.data ?? []).slice(0, count);
  const items = useItemPreviews(datasetId, config.data_level, shown, predictionsId);
  useEffect(() => {
    if (items.data) onItems?.(items.data);
  }, [items.data, onItems]);

  if (ids.isError || items.isError)
    return <Alert type="error" showIcon title={strings.itemsFailed} />;
  if (!ids.data) return <Skeleton active />;
  const total = ids.data.length;
  return (
    <Flex vertical gap={8} data-testid={props.testId ?? 'check-items'} data-total={total}>
      <Flex gap={8} wrap="wrap">
        {shown.map((id) => (
          <ItemCard
            key={id}
            id={id}
            item={items.data?.get(id)}
            visible={config.visible_metadata_ids}
            labels={props.fieldLabels ?? {}}
            group={groupOf(groups, id)}
            onToggle={onToggle}
            extra={renderExtra?.(id)}
          />
        ))}
      </Flex>
      {total > shown.length && count < MAX_PREVIEW && (
        <div>
          <Button onClick={() => setCount((n) => Math.min(MAX_PREVIEW, n + PREVIEW_PAGE))}>
            {strings.showMoreItems}
          </Button>
        </div>
      )}
    </Flex>
  );
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** A field of an item: its metadata, else the item's own field of that name (label, split). */
function fieldValue(item: ExploreItem, id: string): unknown {
  if (id in item.metadata) return item.metadata[id];
  return (item as unknown as Record<string, unknown>)[id];
}

function ItemCard({
  id,
  item,
  visible,
  labels,
  group,
  onToggle,
  extra,
}: {
  id: string;
  item: ExploreItem | undefined;
  visible: readonly string[];
  labels: Readonly<Record<string, string>>;
  group: SelectionGroup | null;
  onToggle?(itemId: string): void;
  extra?: React.ReactNode;
}) {
  const { token } = theme.useToken();
  const border =
    group === null
      ? token.colorBorderSecondary
      : group.kind === 'delete'
        ? token.colorError
        : group.kind === 'ignore'
          ? token.colorTextQuaternary
          : token.colorPrimary;
  const interactive = onToggle !== undefined;
  return (
    <div
      role={interactive ? 'button' : undefined}
      tabIndex={interactive ? 0 : undefined}
      aria-pressed={interactive ? group !== null : undefined}
      aria-label={interactive ? id : undefined}
      data-testid="check-item"
      data-item-id={id}
      data-group={group?.id ?? ''}
      onClick={interactive ? () => onToggle(id) : undefined}
      onKeyDown={(event) => {
        if (!interactive || event.target !== event.currentTarget) return;
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onToggle(id);
        }
      }}
      style={{
        width: THUMB + 14,
        padding: 6,
        borderRadius: token.borderRadiusLG,
        border: `${group ? 2 : 1}px solid ${border}`,
        background: token.colorBgContainer,
        cursor: interactive ? 'pointer' : undefined,
        userSelect: 'none',
      }}
    >
      <ItemThumbnail item={item} size={THUMB} />
      <Flex vertical style={{ marginTop: 4, minWidth: 0 }}>
        <Typography.Text ellipsis={{ tooltip: id }} style={{ fontSize: token.fontSizeSM }}>
          {id}
        </Typography.Text>
        {item &&
          visible.map((field) => (
            <Typography.Text
              key={field}
              type="secondary"
              ellipsis={{
                tooltip: `${labels[field] ?? field}: ${formatValue(fieldValue(item, field))}`,
              }}
              style={{ fontSize: token.fontSizeSM }}
            >
              {labels[field] ?? field}: {formatValue(fieldValue(item, field))}
            </Typography.Text>
          ))}
        {group && (
          <div>
            <Tag
              color={
                group.kind === 'delete'
                  ? 'error'
                  : group.kind === 'ignore'
                    ? 'default'
                    : 'processing'
              }
              style={{ marginTop: 4, marginInlineEnd: 0 }}
            >
              {group.title}
            </Tag>
          </div>
        )}
        {extra}
      </Flex>
    </div>
  );
}
