// Opening, stepping through and closing the item viewer (docs/product.md, Datasets §4): the URL
// names the open item (?item=<id>: opening pushes a history entry, stepping replaces it, closing
// removes it); its position in the result comes from the grid, the viewer or the map when they
// know it, else from looking the item up.
import type { DataLevel, ExploreItem } from '@loupe/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { itemBatchQuery, itemsQuery } from '../../../api/queries/explore';
import type { ExploreState } from '../exploreState';
import { ITEMS_BATCH } from '../gridRules';
import type { BatchContext } from './useItemBatches';
import { useOpenItemPosition } from './useOpenItem';

type Update = (change: Partial<ExploreState>, options?: { push?: boolean }) => void;

export function useViewerNavigation(args: {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** The open item's id, from the URL. */
  itemId: string | null;
  rows: Uint32Array | undefined;
  version: number | undefined;
  context: BatchContext | null;
  update: Update;
}) {
  const { datasetId, dataLevel, predictionsId, itemId, rows, version, context, update } = args;
  const queryClient = useQueryClient();
  // The position the grid, the viewer or the map last reported for an item id.
  const [known, setKnown] = useState<{ id: string | null; position: number } | null>(null);
  const openPosition = useOpenItemPosition({
    datasetId,
    dataLevel,
    predictionsId,
    itemId,
    rows,
    known,
  });

  const onOpen = useCallback(
    (position: number, item: ExploreItem) => {
      setKnown({ id: item.id, position });
      update({ item: item.id }, { push: true });
    },
    [update],
  );
  // The viewer moved: its id comes from the grid's batch holding that position.
  const onIndexChange = useCallback(
    (index: number) => {
      setKnown({ id: null, position: index });
      if (!context) return;
      const start = index - (index % ITEMS_BATCH);
      void queryClient
        .fetchQuery(itemBatchQuery(context, start))
        .then((items) => {
          const id = items[index - start]?.id;
          if (!id) return;
          setKnown({ id, position: index });
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
          }),
        )
        .then(({ items }) => {
          const id = items[0]?.id;
          if (!id) return;
          const position = rows && pointsVersion === version ? rows.indexOf(row) : -1;
          setKnown(position >= 0 ? { id, position } : null);
          update({ item: id }, { push: true });
        })
        .catch(() => undefined);
    },
    [queryClient, datasetId, dataLevel, predictionsId, rows, version, update],
  );
  const onClose = useCallback(() => {
    setKnown(null);
    update({ item: null });
  }, [update]);

  return { openPosition, onOpen, onIndexChange, onOpenPoint, onClose };
}
