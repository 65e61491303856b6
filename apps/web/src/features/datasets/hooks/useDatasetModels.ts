// The prediction sets (models) of one dataset (GET /api/dataset/models).
import { useQuery } from '@tanstack/react-query';
import { datasetModelsQuery } from '../../../api/queries/datasets';

export function useDatasetModels(datasetId: string | undefined) {
  return useQuery({ ...datasetModelsQuery(datasetId ?? ''), enabled: Boolean(datasetId) });
}
