// The subset's items as a virtualized grid of thumbnails (docs/product.md, Datasets §9: cards at
// least 192 px wide, at least one column, 5 overscan rows), fetched by id in batches of 120.
// Click selects (Shift extends), double-click or Enter opens the item in the explorer. Announces
// each settled render as a test event.
import { CheckCircleFilled } from '@ant-design/icons';
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Typography, theme } from 'antd';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ItemThumbnail } from '../../../components/ItemThumbnail';
import { emitTestEvent } from '../../../lib/testEvents';
import { batchStarts, useSubsetItems } from '../hooks/useSubsetItems';
import type { IdSelection } from '../subsetRules';
import { VirtualGridRows } from '../../../components/VirtualGridRows';

const MIN_CARD_WIDTH = 192;
const OVERSCAN_ROWS = 5;
const GAP = 8;
const PADDING = 6;
const LABEL_LINE = 22;
/** Bottom padding of the page below the grid. */
const PAGE_BOTTOM = 24;
/** What the grid assumes before it is measured (and in tests, where nothing has a size). */
const INITIAL_RECT = { width: 1024, height: 768 };

export interface SubsetGridProps {
  subsetId: string;
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  itemIds: readonly string[];
  selection: IdSelection;
  onSelect(position: number, shift: boolean): void;
  onOpen(itemId: string): void;
  /** Items as they load, for the selection's actions. */
  onItems?(items: ReadonlyMap<string, ExploreItem>): void;
}

function useGridHeight(ref: React.RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const height = Math.max(320, window.innerHeight - rect.top - window.scrollY - PAGE_BOTTOM);
      setSize((current) =>
        current && current.width === rect.width && current.height === height
          ? current
          : { width: rect.width, height },
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref]);
  return size;
}

export function SubsetGrid({
  subsetId,
  datasetId,
  dataLevel,
  predictionsId,
  itemIds,
  selection,
  onSelect,
  onOpen,
  onItems,
}: SubsetGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const size = useGridHeight(scrollRef);
  const width = size && size.width > 0 ? size.width : INITIAL_RECT.width;
  const total = itemIds.length;
  const columns = Math.max(1, Math.floor((width + GAP) / (MIN_CARD_WIDTH + GAP)));
  const cardWidth = Math.floor((width - GAP * (columns - 1)) / columns);
  const previewHeight = Math.round((cardWidth - 2 * PADDING) * (dataLevel === 'audio' ? 0.5 : 1));
  const rowHeight = previewHeight + 2 * PADDING + LABEL_LINE;
  const rowCount = Math.ceil(total / columns);

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight + GAP,
    overscan: OVERSCAN_ROWS,
    initialRect: INITIAL_RECT,
    // An element not laid out yet (or a DOM without layout) measures 0 × 0: assume a screen.
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) =>
        callback(rect.width > 0 || rect.height > 0 ? rect : INITIAL_RECT),
      ),
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);

  const virtualRows = virtualizer.getVirtualItems();
  const firstRow = virtualRows[0]?.index ?? 0;
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? -1;
  const starts = useMemo(
    () => batchStarts(firstRow * columns, (lastRow + 1) * columns - 1, total),
    [firstRow, lastRow, columns, total],
  );
  const { items, answered, loading } = useSubsetItems({
    datasetId,
    dataLevel,
    itemIds,
    starts,
    predictionsId,
  });
  useEffect(() => onItems?.(items), [items, onItems]);

  const renderedCards = useMemo(() => {
    let count = 0;
    const end = Math.min(total, (lastRow + 1) * columns);
    for (let position = firstRow * columns; position < end; position++) {
      if (items.has(itemIds[position]!)) count++;
    }
    return count;
  }, [items, itemIds, firstRow, lastRow, columns, total]);
  useEffect(() => {
    if (loading) return;
    emitTestEvent({ type: 'subset:rendered', subsetId, cards: renderedCards, total });
  }, [loading, renderedCards, total, subsetId]);

  return (
    <div
      ref={scrollRef}
      role="grid"
      aria-rowcount={rowCount}
      aria-busy={loading}
      aria-multiselectable
      data-testid="subset-grid"
      data-rendered-cards={loading ? undefined : renderedCards}
      data-total={total}
      style={{
        height: size?.height ?? INITIAL_RECT.height,
        overflowY: 'auto',
        overflowX: 'hidden',
      }}
    >
      <VirtualGridRows
        rows={virtualRows}
        totalHeight={virtualizer.getTotalSize()}
        rowHeight={rowHeight}
        columns={columns}
        gap={GAP}
        cell={(position) => {
          const id = itemIds[position];
          if (id === undefined) return null;
          return (
            <SubsetCard
              key={id}
              id={id}
              position={position}
              item={items.get(id)}
              gone={answered.has(id) && !items.has(id)}
              width={cardWidth}
              previewHeight={previewHeight}
              selected={selection.ids.has(id)}
              onSelect={onSelect}
              onOpen={onOpen}
            />
          );
        }}
      />
    </div>
  );
}

interface SubsetCardProps {
  id: string;
  position: number;
  item: ExploreItem | undefined;
  /** The batch answered without this item: it left the dataset meanwhile. */
  gone: boolean;
  width: number;
  previewHeight: number;
  selected: boolean;
  onSelect(position: number, shift: boolean): void;
  onOpen(itemId: string): void;
}

const SubsetCard = memo(function SubsetCard({
  id,
  position,
  item,
  gone,
  width,
  previewHeight,
  selected,
  onSelect,
  onOpen,
}: SubsetCardProps) {
  const { token } = theme.useToken();
  const label = item?.label ?? item?.labels?.join(', ') ?? null;
  return (
    <div
      role="gridcell"
      tabIndex={0}
      aria-selected={selected}
      aria-label={id}
      data-testid="subset-card"
      data-item-id={id}
      onClick={(event) => onSelect(position, event.shiftKey)}
      onDoubleClick={() => onOpen(id)}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter') {
          event.preventDefault();
          onOpen(id);
        } else if (event.key === ' ') {
          event.preventDefault();
          onSelect(position, event.shiftKey);
        }
      }}
      style={{
        position: 'relative',
        width,
        height: '100%',
        boxSizing: 'border-box',
        padding: PADDING,
        borderRadius: token.borderRadiusLG,
        border: `${selected ? 2 : 1}px solid ${selected ? token.colorPrimary : token.colorBorderSecondary}`,
        background: selected ? token.colorPrimaryBg : token.colorBgContainer,
        cursor: 'pointer',
        outlineOffset: 2,
        userSelect: 'none',
        overflow: 'hidden',
        opacity: gone ? 0.5 : 1,
      }}
    >
      <div
        style={{
          height: previewHeight,
          borderRadius: token.borderRadius,
          overflow: 'hidden',
          display: 'flex',
          justifyContent: 'center',
        }}
      >
        <Thumbnail item={item} gone={gone} width={width - 2 * PADDING} height={previewHeight} />
      </div>
      <Typography.Text
        ellipsis={{ tooltip: id }}
        type={label ? undefined : 'secondary'}
        style={{ display: 'block', marginTop: 4, fontSize: token.fontSizeSM }}
      >
        {label ?? id}
      </Typography.Text>
      {selected && (
        <CheckCircleFilled
          aria-hidden
          style={{
            position: 'absolute',
            top: PADDING + 6,
            left: PADDING + 6,
            color: token.colorPrimary,
            fontSize: 18,
            background: token.colorBgContainer,
            borderRadius: '50%',
          }}
        />
      )}
    </div>
  );
});

/** The square thumbnail, stretched to the card's preview box (half height for audio). */
function Thumbnail({
  item,
  gone,
  width,
  height,
}: {
  item: ExploreItem | undefined;
  gone: boolean;
  width: number;
  height: number;
}) {
  const { token } = theme.useToken();
  if (gone) {
    return (
      <div
        style={{
          width,
          height,
          background: token.colorFillQuaternary,
          borderRadius: token.borderRadiusSM,
        }}
      />
    );
  }
  // ItemThumbnail draws a square; a wide (audio) box shows it scaled across the width.
  const side = Math.max(width, height);
  return (
    <div style={{ width, height, overflow: 'hidden', display: 'flex', alignItems: 'center' }}>
      <ItemThumbnail item={item} size={side} />
    </div>
  );
}
