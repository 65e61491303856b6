// A subset link without a level (…/explore?subset_id=X) opens at the subset's data level: the
// level is read from the dataset's subsets and written into the URL (level=, see exploreState.ts)
// before the explorer starts, so no query runs at another level (the server refuses a subset at
// another data level). An unknown subset, or a failed list, starts the explorer as it is: its
// rows call then answers 404, the page's not-found state.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { subsetsQuery } from '../../../api/queries/subsets';
import { writeExploreState } from '../exploreState';

/** False while the subset's level is being looked up and written into the URL. */
export function useSubsetLevel(datasetId: string): boolean {
  const [params, setParams] = useSearchParams();
  const subsetId = params.get('subset_id');
  const missing = subsetId !== null && params.get('level') === null;
  // The list, not the subset's detail: it has every subset's level without its item ids.
  const subsets = useQuery({ ...subsetsQuery(datasetId), enabled: missing });
  const level = missing
    ? subsets.data?.find((subset) => subset.id === subsetId)?.data_level
    : undefined;
  useEffect(() => {
    if (level)
      setParams((current) => writeExploreState(current, { dataLevel: level }), { replace: true });
  }, [level, setParams]);
  if (!missing) return true;
  // A cached list that lacks the subset may be stale: wait for its refetch before giving up.
  return level === undefined && !subsets.isPending && !subsets.isFetching;
}
