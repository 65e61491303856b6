// Query factories for a model's attributions (the overview the features page and the explorer's
// picker read) and a model's features beside its dataset's (docs/product.md, Models §2, §3).
import { api, type DataLevel } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const attributionsOverviewQuery = (
  datasetId: string,
  predictionSetId: string,
  dataLevel?: DataLevel,
) =>
  queryOptions({
    queryKey: queryKeys.attributions.overview(datasetId, predictionSetId, dataLevel),
    queryFn: async ({ signal }) =>
      (
        await call(
          api.attributions.overview,
          {
            params: { id: datasetId, predictionSetId },
            query: dataLevel ? { data_level: dataLevel } : {},
          },
          { signal },
        )
      ).attribution_overviews,
  });

export const modelFeaturesQuery = (datasetId: string, predictionSetId: string) =>
  queryOptions({
    queryKey: queryKeys.models.features(datasetId, predictionSetId),
    queryFn: ({ signal }) =>
      call(
        api.features.listForPredictionSet,
        { params: { id: datasetId, predictionSetId } },
        { signal },
      ),
  });
