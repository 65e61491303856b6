// Where the viewer goes after pending changes were applied in it (docs/curation.md): it stays on
// the open item if that is still in the refreshed result, else moves on to the next item of the
// old result that still is (not deleted, still matching the filter), else to the same position;
// it closes when the result is empty. The new positions come from the refreshed rows and the
// candidates' rows in the new item table.
import type { DataLevel, ExploreComparison } from '@loupe/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { itemsQuery } from '../../../api/queries/explore';
import type { ApplyResult } from '../../curation';

interface Target {
  /** The rows the result had when the changes were applied: wait until they are replaced. */
  staleRows: Uint32Array;
  /** Candidate ids in order of preference, with their rows in the new item table. */
  order: string[];
  rowOf: Map<string, number>;
}

export function useMoveAfterApply(args: {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  comparison?: ExploreComparison;
  rows: Uint32Array;
  index: number;
  onIndexChange(index: number): void;
  onClose(): void;
}) {
  const { datasetId, dataLevel, predictionsId, comparison, rows, index, onIndexChange, onClose } =
    args;
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<Target | null>(null);
  const latestRows = useRef(rows);
  latestRows.current = rows;

  useEffect(() => {
    if (!target || rows === target.staleRows) return;
    setTarget(null);
    if (rows.length === 0) {
      onClose();
      return;
    }
    for (const id of target.order) {
      const row = target.rowOf.get(id);
      const position = row === undefined ? -1 : rows.indexOf(row);
      if (position >= 0) {
        onIndexChange(position);
        return;
      }
    }
    onIndexChange(Math.min(index, rows.length - 1));
  }, [target, rows, index, onIndexChange, onClose]);

  /** `candidates`: the open item, then the items after it, as the old result had them. */
  return useCallback(
    async (result: ApplyResult, candidates: string[]) => {
      if (!result.ok && result.changedItemIds.size === 0) return; // nothing was applied
      const staleRows = latestRows.current;
      const order = candidates.filter((id) => !result.deletedItemIds.has(id));
      const rowOf = new Map<string, number>();
      if (order.length > 0) {
        try {
          const answer = await queryClient.fetchQuery({
            ...itemsQuery(datasetId, {
              data_level: dataLevel,
              item_ids: order,
              predictions_id: predictionsId,
              ...(comparison ? { comparison } : {}),
            }),
            staleTime: 0,
          });
          for (const item of answer.items) rowOf.set(item.id, item.row);
        } catch {
          // Without the candidates' rows the viewer keeps its position in the new result.
        }
      }
      setTarget({ staleRows, order, rowOf });
    },
    [queryClient, datasetId, dataLevel, predictionsId, comparison],
  );
}
