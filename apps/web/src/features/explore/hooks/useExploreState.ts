// The explorer's state, read from and written to the URL query (see exploreState.ts).
import type { DataLevel } from '@loupe/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readExploreState, writeExploreState, type ExploreState } from '../exploreState';

export function useExploreState(levels: DataLevel[]) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readExploreState(params, levels), [params, levels]);
  const update = useCallback(
    (change: Partial<ExploreState>, { push = false }: { push?: boolean } = {}) =>
      setParams((current) => writeExploreState(current, change), { replace: !push }),
    [setParams],
  );
  return { state, update, subsetId: params.get('subset_id') };
}
