// Query factories for datasets (docs/product.md, Datasets §7): the list, one dataset, its
// version history, thumbnail and IoU-threshold settings, and its prediction sets.
import { api } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const datasetsQuery = () =>
  queryOptions({
    queryKey: queryKeys.datasets.list(),
    queryFn: ({ signal }) => call(api.datasets.list, {}, { signal }),
  });

/** One dataset; `pollMs` re-reads it while something about it is being computed. */
export const datasetQuery = (datasetId: string, { pollMs }: { pollMs?: number } = {}) =>
  queryOptions({
    queryKey: queryKeys.datasets.detail(datasetId),
    queryFn: ({ signal }) => call(api.datasets.get, { params: { id: datasetId } }, { signal }),
    refetchInterval: pollMs ?? false,
  });

export const datasetHistoryQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.datasets.history(datasetId),
    queryFn: ({ signal }) => call(api.datasets.history, { params: { id: datasetId } }, { signal }),
  });

export const thumbnailsQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.datasets.thumbnails(datasetId),
    queryFn: ({ signal }) =>
      call(api.datasets.thumbnails, { params: { id: datasetId } }, { signal }),
  });

export const iouThresholdQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.datasets.iouThreshold(datasetId),
    queryFn: ({ signal }) =>
      call(api.datasets.iouThreshold, { params: { id: datasetId } }, { signal }),
  });

/** The prediction sets (models) of one dataset (GET /api/dataset/models). */
export const datasetModelsQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.datasets.models(datasetId),
    queryFn: ({ signal }) =>
      call(api.predictionSets.listForDataset, { query: { dataset_id: datasetId } }, { signal }),
  });
