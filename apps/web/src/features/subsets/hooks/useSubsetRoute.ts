// What a subsets page reads from its route, at /datasets/{id}/… and at a model's
// /models/datasets/{id}/predictions/{pid}/…: the dataset, the model (on a model route), where the
// pages are, and the breadcrumbs (Datasets or Models, the dataset, the model).
import { useParams } from 'react-router';
import type { Crumb } from '../../../components/Page';
import { useDataset } from '../../datasets';
import { modelCrumbs, useModel } from '../../models';
import { pagesRoot } from '../subsetRules';
import { subsetStrings as strings } from '../strings';

export function useSubsetRoute() {
  const { datasetId = '', subsetId, predictionSetId } = useParams();
  const dataset = useDataset(datasetId);
  const model = useModel(datasetId, predictionSetId);
  const root = pagesRoot(datasetId, predictionSetId);

  let crumbs: Crumb[];
  if (predictionSetId) {
    crumbs = modelCrumbs(datasetId, predictionSetId, {
      dataset: dataset.data?.name,
      model: model.model?.name,
    });
  } else {
    crumbs = [{ title: strings.datasets, to: '/datasets' }];
    if (dataset.data) crumbs.push({ title: dataset.data.name, to: `${root}/overview` });
  }
  return { datasetId, subsetId, predictionSetId, root, dataset, model, crumbs };
}
