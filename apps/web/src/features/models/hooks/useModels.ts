// Every prediction set (model) of the instance (GET /api/models).
import { useQuery } from '@tanstack/react-query';
import { modelsQuery } from '../../../api/queries/models';

export function useModels() {
  return useQuery(modelsQuery());
}
