// What a subsets page shows when its route names no dataset or no model: the product's
// not-found text, or the failure with Retry. Null while both are fine (or still loading).
import { isNotFound, NotFoundState } from '../../../app/errors/NotFoundState';
import { ErrorFallback } from '../../../components/ErrorFallback';
import type { useSubsetRoute } from '../hooks/useSubsetRoute';
import { subsetStrings as strings } from '../strings';

export function routeProblem(route: ReturnType<typeof useSubsetRoute>): React.ReactNode {
  const { dataset, model } = route;
  if (dataset.isError) {
    return isNotFound(dataset.error) ? (
      <NotFoundState title={strings.datasetNotFound} />
    ) : (
      <ErrorFallback
        title={strings.datasetNotFound}
        error={dataset.error}
        onRetry={() => void dataset.refetch()}
      />
    );
  }
  // The model is judged once its dataset is known to exist: a missing dataset is named first.
  if (dataset.data && model.notFound) return <NotFoundState title={strings.modelNotFound} />;
  if (dataset.data && model.error) {
    return (
      <ErrorFallback title={strings.modelNotFound} error={model.error} onRetry={model.refetch} />
    );
  }
  return null;
}
