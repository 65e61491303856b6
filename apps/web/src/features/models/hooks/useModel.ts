// One model named by the URL: found in its dataset's prediction sets (GET /api/dataset/models),
// so pages, breadcrumbs and the nav can show its name and say 'Model not found'.
import type { PredictionSet } from '@loupe/contracts';
import { isNotFound } from '../../../app/errors/NotFoundState';
import { useDatasetModels } from '../../datasets';

export interface ModelLookup {
  model: PredictionSet | undefined;
  /** The dataset answered and has no such model, or the ids cannot name one. */
  notFound: boolean;
  /** A failure that is not a missing model (worth a retry). */
  error: unknown;
  refetch: () => unknown;
}

export function useModel(datasetId: string, predictionSetId: string | undefined): ModelLookup {
  const models = useDatasetModels(predictionSetId ? datasetId : undefined);
  const model = models.data?.find((item) => item.id === predictionSetId);
  const notFound =
    Boolean(predictionSetId) &&
    ((models.data !== undefined && !model) || (models.isError && isNotFound(models.error)));
  return {
    model,
    notFound,
    error: models.isError && !notFound ? models.error : null,
    refetch: () => void models.refetch(),
  };
}
