// Opening, stepping through and closing the item viewer (docs/product.md, Datasets §4): the URL
// names the open item (?item=<id>: opening pushes a history entry, stepping replaces it, closing
// removes it); its position in the result comes from the grid, the viewer or the map when they
// know it, else from looking the item up.
import type { DataLevel, ExploreComparison, ExploreItem } from '@loupe/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { itemBatchQuery, itemsQuery } from '../../../api/queries/explore';
import type { ExploreState } from '../exploreState';
import { ITEMS_BATCH } from '../gridRules';
import type { BatchContext } from './useItemBatches';
import { useOpenItemPosition } from './useOpenItem';

type Update = (change: Partial<ExploreState>, options?: { push?: boolean }) => void;

/**
 * The position the grid, the viewer or the map last reported, and the item id there: null while
 * it is not known yet, or while the URL does not name it yet (`next`, the id it is about to name).
 */
interface Known {
  id: string | null;
  position: number;
  next?: string;
}

export function useViewerNavigation(args: {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  comparison?: ExploreComparison;
  /** The open item's id, from the URL. */
  itemId: string | null;
  rows: Uint32Array | undefined;
  version: number | undefined;
  context: BatchContext | null;
  update: Update;
}) {
  const {
    datasetId,
    dataLevel,
    predictionsId,
    comparison,
    itemId,
    rows,
    version,
    context,
    update,
  } = args;
  const queryClient = useQueryClient();
  const [known, setKnown] = useState<Known | null>(null);
  // The URL now names the id the viewer stepped to: the position is that id's from here on.
  if (known?.next !== undefined && known.next === itemId) {
    setKnown({ id: itemId, position: known.position });
  }
  // The position the viewer last stepped to, or null once the viewer was opened or closed since:
  // an older step's id must not land in the URL.
  const stepping = useRef<number | null>(null);
  const openPosition = useOpenItemPosition({
    datasetId,
    dataLevel,
    predictionsId,
    comparison,
    itemId,
    rows,
    known,
  });

  const onOpen = useCallback(
    (position: number, item: ExploreItem) => {
      stepping.current = null;
      setKnown({ id: item.id, position });
      update({ item: item.id }, { push: true });
    },
    [update],
  );
  // The viewer moved: its id comes from the grid's batch holding that position.
  const onIndexChange = useCallback(
    (index: number) => {
      stepping.current = index;
      setKnown({ id: null, position: index });
      if (!context) return;
      const start = index - (index % ITEMS_BATCH);
      void queryClient
        .fetchQuery(itemBatchQuery(context, start))
        .then((items) => {
          const id = items[index - start]?.id;
          if (!id || stepping.current !== index) return;
          // The URL changes in a transition, which may commit well after this state (after
          // 'Apply changes', while the result refreshes). Until it does, the URL still names the
          // item the viewer left, perhaps deleted: tied to that id, the position would be looked
          // up and lost, and the viewer would close and reopen. So the id waits for the URL.
          setKnown({ id: null, position: index, next: id });
          update({ item: id });
        })
        .catch(() => undefined);
    },
    [context, queryClient, update],
  );
  // A point opens its item: its id comes from the items call by row (the map carries no ids).
  const onOpenPoint = useCallback(
    (row: number, pointsVersion: number) => {
      void queryClient
        .fetchQuery(
          itemsQuery(datasetId, {
            data_level: dataLevel,
            rows: [row],
            version: pointsVersion,
            predictions_id: predictionsId,
            ...(comparison ? { comparison } : {}),
          }),
        )
        .then(({ items }) => {
          const id = items[0]?.id;
          if (!id) return;
          stepping.current = null;
          const position = rows && pointsVersion === version ? rows.indexOf(row) : -1;
          setKnown(position >= 0 ? { id, position } : null);
          update({ item: id }, { push: true });
        })
        .catch(() => undefined);
    },
    [queryClient, datasetId, dataLevel, predictionsId, comparison, rows, version, update],
  );
  const onClose = useCallback(() => {
    stepping.current = null;
    setKnown(null);
    update({ item: null });
  }, [update]);

  return { openPosition, onOpen, onIndexChange, onOpenPoint, onClose };
}
