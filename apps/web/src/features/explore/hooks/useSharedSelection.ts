// The selection shared by the grid and the map (docs/product.md, Datasets §4, §5): the grid
// selects by click, a lasso's rows replace the selection when they are rows of the grid's item
// table, and while the map's selection stands the data level is locked (as it is by a subset).
import type { DataLevel } from '@loupe/contracts';
import { useCallback } from 'react';
import { exploreStrings as strings } from '../strings';
import { useSelection } from './useSelection';

export function useSharedSelection(args: {
  rows: Uint32Array | undefined;
  version: number | undefined;
  dataLevel: DataLevel;
  subsetId: string | null;
}) {
  const { rows, version, dataLevel, subsetId } = args;
  const { selection, source, select, replace, clear, selectAll } = useSelection(
    rows,
    `${dataLevel}:${version}`,
  );
  // The map speaks rows of the same item table: a lasso's rows are the selection as they are.
  // Rows of another table version (the data changed in between) mean nothing here.
  const onMapSelection = useCallback(
    (next: number[], pointsVersion: number) => {
      if (pointsVersion === version) replace(next, 'map');
    },
    [version, replace],
  );
  const levelLock =
    subsetId !== null
      ? strings.levelLockedBySubset
      : source === 'map' && selection.rows.size > 0
        ? strings.levelLockedByMap
        : undefined;
  return { selection, select, clear, selectAll, onMapSelection, levelLock };
}
