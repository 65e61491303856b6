// The explorer's GET-like reads (docs/product.md, Datasets §7), one query factory per call: the
// result as rows and as ids, items (by request, and in the grid's aligned batches), metadata
// info, the colour map, the dataset's features and the features of given items. Each factory
// owns its key, its fetcher, its not-found mapping and its polling; hooks only add `enabled`,
// `select` or `placeholderData` for their view.
import {
  api,
  readItemRows,
  type DataLevel,
  type ExploreComparison,
  type ItemFeaturesRequest,
  type ItemsRequest,
  type MetadataInfoResponse,
} from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../ApiError';
import { call } from '../client';
import type { ItemRows, ItemRowsQuery } from '../explore';
import { queryKeys } from '../queryKeys';

/** How often metadata info is asked again while a field is being (re)computed. */
export const METADATA_POLL_MS = 3000;

/** Positions per items batch of the grid (aligned: batch b holds positions 120·b … 120·b+119). */
export const ITEMS_BATCH = 120;

/** A query's result as row indices, with the query it answers. */
export type ItemRowsResult = ItemRows & { query: ItemRowsQuery };

export const itemRowsQuery = (datasetId: string, query: ItemRowsQuery) =>
  queryOptions({
    queryKey: queryKeys.explore.itemRows(datasetId, query),
    // Items missing a sort key are kept (they sort last), so sorting never hides items.
    // The answer carries the query it answers: while a new query runs, the previous answer is
    // shown, and its items must be fetched and cached under its own query.
    // The rows come as bytes (item_rows): millions of them cost no base64 nor JSON.
    queryFn: async ({ signal }): Promise<ItemRowsResult> => {
      const answer = await readItemRows(
        await call(
          api.explore.itemRows,
          { params: { id: datasetId }, body: { ...query, include_missing: true } },
          { signal },
        ),
      );
      return { rows: answer.rows, version: answer.version, numItems: answer.num_items, query };
    },
  });

/** The same result as item ids, aligned with its rows (Find similar sends ids). */
export const itemIdsQuery = (datasetId: string, query: ItemRowsQuery) =>
  queryOptions({
    queryKey: queryKeys.explore.itemIds(datasetId, query),
    queryFn: async ({ signal }) => {
      const answer = await call(
        api.explore.itemIds,
        { params: { id: datasetId }, body: { ...query, include_missing: true, format: 'ids' } },
        { signal },
      );
      return answer.item_ids ?? [];
    },
    staleTime: 60_000,
  });

/** Items named by a request (ids, or rows of one item-table version). */
export const itemsQuery = (datasetId: string, body: ItemsRequest) =>
  queryOptions({
    queryKey: queryKeys.explore.items(datasetId, body),
    queryFn: ({ signal }) =>
      call(api.explore.items, { params: { id: datasetId }, body }, { signal }),
    staleTime: 60_000,
  });

/** One aligned batch of the grid's result, from position `start`. */
export interface BatchContext {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** The query that produced `rows`: a stale answer (409) refetches its rows. */
  rowsQuery: ItemRowsQuery;
  rows: Uint32Array;
  version: number;
}

export const itemBatchQuery = (context: BatchContext, start: number) => {
  const { datasetId, dataLevel, predictionsId, rowsQuery, rows, version } = context;
  return queryOptions({
    queryKey: queryKeys.explore.itemBatch(datasetId, rowsQuery, version, start),
    queryFn: async ({ signal, client }) => {
      try {
        const answer = await call(
          api.explore.items,
          {
            params: { id: datasetId },
            body: {
              data_level: dataLevel,
              rows: Array.from(rows.subarray(start, start + ITEMS_BATCH)),
              version,
              predictions_id: predictionsId,
              // In a comparison, each item carries the other model's prediction too.
              ...(rowsQuery.comparison ? { comparison: rowsQuery.comparison } : {}),
            },
          },
          { signal },
        );
        return answer.items;
      } catch (error) {
        // The item table changed under these rows: ask for the rows again.
        if (error instanceof ApiError && error.status === 409) {
          void client.invalidateQueries({
            queryKey: queryKeys.explore.itemRows(datasetId, rowsQuery),
          });
        }
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
};

/** A comparison as metadata info's flat query fields (it is a GET). */
export function comparisonQueryFields(comparison: ExploreComparison | undefined) {
  if (!comparison) return {};
  return {
    comparison_a: comparison.predictions_id_a,
    comparison_b: comparison.predictions_id_b,
    ...(comparison.split ? { comparison_split: comparison.split } : {}),
    ...(comparison.metric ? { comparison_metric: comparison.metric } : {}),
    ...(comparison.regression_value_name
      ? { comparison_value_name: comparison.regression_value_name }
      : {}),
  };
}

/**
 * The metadata fields at a data level: asked again every 3 s while any field is pending; a
 * not-found answer (no fields at this level yet) is an empty list, other errors fail. In a
 * comparison of two models the answer holds the comparison's per-item fields too.
 */
export const metadataInfoQuery = (
  datasetId: string,
  dataLevel: DataLevel,
  predictionsId?: string,
  comparison?: ExploreComparison,
) =>
  queryOptions({
    queryKey: queryKeys.explore.metadataInfo(datasetId, dataLevel, predictionsId, comparison),
    queryFn: async ({ signal }): Promise<MetadataInfoResponse> => {
      try {
        return await call(
          api.explore.metadataInfo,
          {
            params: { id: datasetId },
            query: {
              data_level: dataLevel,
              predictions_id: predictionsId,
              ...comparisonQueryFields(comparison),
            },
          },
          { signal },
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { metadata_config: [] };
        throw error;
      }
    },
    refetchInterval: (query) =>
      query.state.data?.metadata_config.some((field) => field.state === 'pending')
        ? METADATA_POLL_MS
        : false,
  });

/** The dataset's class colours (label → CSS colour). */
export const colorMapQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.explore.colorMap(datasetId),
    queryFn: ({ signal }) => call(api.explore.colorMap, { params: { id: datasetId } }, { signal }),
    staleTime: 60_000,
  });

/** The dataset's features (name, type, size, how many items have them). */
export const featuresQuery = (datasetId: string) =>
  queryOptions({
    queryKey: queryKeys.explore.features(datasetId),
    queryFn: ({ signal }) => call(api.features.list, { params: { id: datasetId } }, { signal }),
  });

/** Which features the given items have. */
export const itemFeaturesQuery = (datasetId: string, body: ItemFeaturesRequest) =>
  queryOptions({
    queryKey: queryKeys.explore.itemFeatures(datasetId, body),
    queryFn: ({ signal }) =>
      call(api.explore.itemFeatures, { params: { id: datasetId }, body }, { signal }),
  });
