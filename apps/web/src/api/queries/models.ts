// Query factory for every prediction set (model) of the instance (GET /api/models).
import { api } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const modelsQuery = () =>
  queryOptions({
    queryKey: queryKeys.models.list(),
    queryFn: ({ signal }) => call(api.predictionSets.listAll, {}, { signal }),
  });
