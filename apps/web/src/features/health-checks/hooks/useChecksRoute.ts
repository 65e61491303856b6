// What a health-check page reads from its route: the dataset, the chosen prediction set, where the
// pages are, and the breadcrumbs. Under a dataset (/datasets/{id}/checks) the prediction set of
// model checks is `?predictions_id=` (the server's newest when absent) and the crumbs are
// Datasets, the dataset; under a model (/models/datasets/{id}/predictions/{modelId}/checks) it is
// that model, choosing another opens its checks, and the crumbs are Models, the dataset, the model.
import { useCallback } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { pagesRoot, useDatasetPages } from '../../models';

export function useChecksRoute() {
  const { datasetId = '', checkId = '', predictionSetId } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { dataset, root, crumbs } = useDatasetPages(datasetId, predictionSetId);
  const predictionsId = predictionSetId ?? params.get('predictions_id') ?? undefined;
  const suffix =
    predictionsId && !predictionSetId ? `?predictions_id=${encodeURIComponent(predictionsId)}` : '';
  const listPath = `${root}/checks${suffix}`;
  const checkPath = useCallback(
    (id: string) => `${root}/checks/${encodeURIComponent(id)}${suffix}`,
    [root, suffix],
  );
  const setPredictionsId = useCallback(
    (id: string | undefined) => {
      if (predictionSetId) {
        if (id)
          void navigate(
            `${pagesRoot(datasetId, id)}/checks${checkId ? `/${encodeURIComponent(checkId)}` : ''}`,
            { replace: true },
          );
        return;
      }
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set('predictions_id', id);
          else next.delete('predictions_id');
          return next;
        },
        { replace: true },
      );
    },
    [setParams, navigate, predictionSetId, checkId, datasetId],
  );

  return {
    datasetId,
    checkId,
    dataset,
    predictionsId,
    setPredictionsId,
    root,
    listPath,
    checkPath,
    crumbs,
  };
}
