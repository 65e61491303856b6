// The virtualized grid (docs/product.md, Datasets §2, §9): rows of cards, columns = floor(width / card
// width) ≥ 1, 5 overscan rows; items are fetched per visible window in batches of 120. Announces
// each settled render as a test event and on the element (data-rendered-cards).
import type { ExploreItem, MetadataFieldInfo } from '@loupe/contracts';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { theme } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { AttributionDisplay } from '../../../components/AttributionOverlay';
import type { ComparedModels } from '../../../lib/comparedModels';
import { emitTestEvent } from '../../../lib/testEvents';
import type { ColorScale } from '../colorRules';
import { OVERSCAN_ROWS, batchesFor, columnsFor, type Selection } from '../gridRules';
import { useItemBatches, type BatchContext } from '../hooks/useItemBatches';
import { CARD_META_LINE, CARD_PADDING, ItemCard } from './ItemCard';
import { itemValue } from './itemValues';
import { VirtualGridRows } from '../../../components/VirtualGridRows';

const GAP = 8;
/** Bottom padding of the page below the grid. */
const PAGE_BOTTOM = 24;
/** What the grid assumes before it is measured (and in tests, where nothing has a size). */
const INITIAL_RECT = { width: 1024, height: 768 };

export interface ExploreGridProps {
  context: BatchContext;
  cardWidth: number;
  audio: boolean;
  fields: MetadataFieldInfo[];
  colorBy: { field: MetadataFieldInfo; scale: ColorScale } | null;
  classColors: Record<string, string>;
  classes: string[];
  /** Semantic segmentation: label-map pixel value → class name. */
  labelMap?: Record<string, string>;
  selection: Selection;
  /** The previous result is shown while a new one is computed. */
  stale: boolean;
  onSelect(position: number, shift: boolean): void;
  onOpen(position: number, item: ExploreItem): void;
  onError(error: unknown): void;
  /** Changes when something above the grid changes height, so the grid re-measures. */
  layoutKey?: unknown;
  /** The attribution whose heatmaps the cards draw; none when null. */
  attribution?: AttributionDisplay | null;
  /** The comparison of two models the explorer is in: cards draw both models' predictions. */
  compared?: ComparedModels | null;
  /** Cards keep a line for the two models' label and score tags. */
  comparedTags?: boolean;
}

let firstPaintMarked = false;

function useGridSize(ref: React.RefObject<HTMLDivElement | null>, layoutKey: unknown) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const height = Math.max(240, window.innerHeight - rect.top - window.scrollY - PAGE_BOTTOM);
      const next = { width: rect.width, height };
      setSize((current) =>
        current && current.width === next.width && current.height === next.height ? current : next,
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
  }, [ref, layoutKey]);
  return size;
}

export function ExploreGrid({
  context,
  cardWidth,
  audio,
  fields,
  colorBy,
  classColors,
  classes,
  labelMap,
  selection,
  stale,
  onSelect,
  onOpen,
  onError,
  layoutKey,
  attribution = null,
  compared = null,
  comparedTags = false,
}: ExploreGridProps) {
  const { token } = theme.useToken();
  const scrollRef = useRef<HTMLDivElement>(null);
  const size = useGridSize(scrollRef, layoutKey);
  const width = size && size.width > 0 ? size.width : INITIAL_RECT.width;
  const total = context.rows.length;
  const columns = columnsFor(width, cardWidth);
  const actualWidth = Math.floor((width - GAP * (columns - 1)) / columns);
  const previewHeight = Math.round((actualWidth - 2 * CARD_PADDING) * (audio ? 0.5 : 1));
  const metaLines = fields.length + (compared && comparedTags ? 1 : 0);
  const rowHeight = previewHeight + 2 * CARD_PADDING + 8 + metaLines * CARD_META_LINE;
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
  // A new result starts at the top.
  useEffect(() => virtualizer.scrollToOffset(0), [virtualizer, context.rows]);

  const virtualRows = virtualizer.getVirtualItems();
  const firstRow = virtualRows[0]?.index ?? 0;
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? -1;
  const starts = useMemo(
    () => batchesFor(firstRow * columns, (lastRow + 1) * columns - 1, total),
    [firstRow, lastRow, columns, total],
  );
  const { items, error, loading } = useItemBatches(context, starts);
  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);

  const renderedCards = useMemo(() => {
    let count = 0;
    for (let row = firstRow; row <= lastRow; row++) {
      for (let col = 0; col < columns; col++) if (items.has(row * columns + col)) count++;
    }
    return count;
  }, [items, firstRow, lastRow, columns]);

  const settled = !loading && !stale;
  useEffect(() => {
    if (!settled) return;
    if (!firstPaintMarked && renderedCards > 0) {
      firstPaintMarked = true;
      performance.mark('loupe:grid-first-paint');
    }
    const detail = { cards: renderedCards, total };
    window.dispatchEvent(new CustomEvent('loupe:grid-rendered', { detail }));
    emitTestEvent({ type: 'grid:rendered', ...detail });
  }, [settled, renderedCards, total, context.rows]);

  const colorOf = useCallback(
    (item: ExploreItem | undefined) =>
      item && colorBy ? colorBy.scale.colorOf(itemValue(item, colorBy.field.id)) : null,
    [colorBy],
  );

  return (
    <div
      ref={scrollRef}
      role="grid"
      aria-rowcount={rowCount}
      aria-busy={!settled}
      data-testid="explore-grid"
      data-rendered-cards={settled ? renderedCards : undefined}
      data-total={total}
      style={{
        height: size?.height ?? INITIAL_RECT.height,
        overflowY: 'auto',
        overflowX: 'hidden',
        opacity: stale ? 0.6 : 1,
        transition: `opacity ${token.motionDurationMid}`,
      }}
    >
      <VirtualGridRows
        rows={virtualRows}
        totalHeight={virtualizer.getTotalSize()}
        rowHeight={rowHeight}
        columns={columns}
        gap={GAP}
        cell={(position) => {
          if (position >= total) return null;
          const item = items.get(position);
          const row = context.rows[position]!;
          return (
            <ItemCard
              key={position}
              position={position}
              item={item}
              width={actualWidth}
              previewHeight={previewHeight}
              fields={fields}
              selected={selection.rows.has(row)}
              color={colorOf(item)}
              classColors={classColors}
              classes={classes}
              labelMap={labelMap}
              attribution={attribution}
              compared={compared}
              comparedTags={comparedTags}
              onSelect={onSelect}
              onOpen={onOpen}
            />
          );
        }}
      />
    </div>
  );
}
