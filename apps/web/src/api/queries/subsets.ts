// Query factories for subsets (docs/curation.md): a dataset's subsets, and one subset with its
// item ids. Writes go through the curation mutations, which invalidate queryKeys.subsets.all.
import { api } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const subsetsQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.subsets.list(datasetId),
    queryFn: ({ signal }) => call(api.subsets.list, { params: { id: datasetId } }, { signal }),
  });

export const subsetQuery = (datasetId: string, subsetId: string) =>
  queryOptions({
    queryKey: queryKeys.subsets.detail(datasetId, subsetId),
    queryFn: ({ signal }) =>
      call(api.subsets.get, { params: { id: datasetId, subsetId } }, { signal }),
  });
