// Query factory for every prediction set (model) of the instance (GET /api/models).
import { queryOptions } from '@tanstack/react-query';
import { api } from '../endpoints';
import { queryKeys } from '../queryKeys';

export const modelsQuery = () =>
  queryOptions({
    queryKey: queryKeys.models.list(),
    queryFn: ({ signal }) => api.getModels(signal),
  });
