// The map's data: the settings at the data level, the points for them and the filter (within
// the explorer's subset, if any) and colouring (binary: rows, coordinates, colour codes), decoded once per answer. Points older
// than the grid's item table (an upload in between) are asked for again. In a comparison of two
// models the request carries it, as the explorer's own requests do.
import type { DataLevel, ExploreComparison, Filter } from '@loupe/contracts';
import { useEffect, useMemo } from 'react';
import { decodeBinaryPoints } from '../points';
import { useEmbeddingPoints } from './useEmbeddingPoints';
import { useEmbeddingsSettings } from './useEmbeddingsSettings';

export function useMapPoints(args: {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** The explorer's comparison, whose per-item fields the filter and colour may name. */
  comparison?: ExploreComparison | undefined;
  filter?: Filter | null;
  /** Only this subset's items; part of the points request, so of its query key. */
  subsetId?: string;
  colorBy?: string | null;
  /** The grid's item-table version, when it has one. */
  tableVersion?: number;
}) {
  const {
    datasetId,
    dataLevel,
    predictionsId,
    comparison,
    filter,
    subsetId,
    colorBy,
    tableVersion,
  } = args;
  const settings = useEmbeddingsSettings(datasetId, dataLevel, predictionsId);
  const featureName = settings.data?.feature_name ?? null;
  const hasFeatures = (settings.data?.feature_names.length ?? 0) > 0;
  const pointsRequest = useMemo(
    () => ({
      data_level: dataLevel,
      predictions_id: predictionsId,
      ...(comparison ? { comparison } : {}),
      feature_name: featureName ?? undefined,
      dimensionality_reduction_setting: settings.data?.dimensionality_reduction_setting,
      filter: filter ?? null,
      ...(subsetId ? { subset_id: subsetId } : {}),
      color_by: colorBy ?? null,
      // Row indices, float32 coordinates and colour codes: a million points in ~17 MB, no ids.
      format: 'binary' as const,
    }),
    [dataLevel, predictionsId, comparison, featureName, settings.data, filter, subsetId, colorBy],
  );
  const points = useEmbeddingPoints(datasetId, pointsRequest, hasFeatures && featureName !== null);

  const ready = points.data?.status === 'ready' ? points.data : undefined;
  const parsed = useMemo(
    () => (ready?.binary ? decodeBinaryPoints(ready.binary, ready.legend?.type ?? null) : null),
    [ready],
  );

  // The grid has seen newer data than these points (an upload in between): ask again.
  const stale = parsed !== null && tableVersion !== undefined && parsed.version < tableVersion;
  const { refetch } = points;
  useEffect(() => {
    if (stale) void refetch();
  }, [stale, refetch]);

  return { settings, points, featureName, hasFeatures, ready, parsed };
}
