// What a health-check page reads from its route: the dataset, the chosen prediction set
// (`?predictions_id=`, for model checks; the server's newest when absent), where the pages are,
// and the breadcrumbs (Datasets, the dataset, Health Checks).
import { useCallback } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { Crumb } from '../../../components/Page';
import { useDataset } from '../../datasets';
import { checkStrings as strings } from '../strings';

export function useChecksRoute() {
  const { datasetId = '', checkId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const dataset = useDataset(datasetId);
  const predictionsId = params.get('predictions_id') ?? undefined;
  const root = `/datasets/${encodeURIComponent(datasetId)}`;
  const suffix = predictionsId ? `?predictions_id=${encodeURIComponent(predictionsId)}` : '';
  const listPath = `${root}/checks${suffix}`;
  const checkPath = useCallback(
    (id: string) => `${root}/checks/${encodeURIComponent(id)}${suffix}`,
    [root, suffix],
  );
  const setPredictionsId = useCallback(
    (id: string | undefined) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set('predictions_id', id);
          else next.delete('predictions_id');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const crumbs: Crumb[] = [{ title: strings.datasets, to: '/datasets' }];
  if (dataset.data) crumbs.push({ title: dataset.data.name, to: `${root}/overview` });
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
