// Where a dataset's pages are and their breadcrumbs, for pages shown both under a dataset
// (/datasets/{id}/…: Datasets, the dataset) and under one of its models
// (/models/datasets/{id}/predictions/{pid}/…: Models, the dataset, the model).
import type { Crumb } from '../../../components/Page';
import { useDataset } from '../../datasets';
import { modelCrumbs } from '../modelCrumbs';
import { modelStrings as strings } from '../strings';
import { useModel } from './useModel';

/** Where a dataset's pages are: under the dataset, or under one of its models. */
export function pagesRoot(datasetId: string, predictionSetId?: string): string {
  const dataset = encodeURIComponent(datasetId);
  return predictionSetId
    ? `/models/datasets/${dataset}/predictions/${encodeURIComponent(predictionSetId)}`
    : `/datasets/${dataset}`;
}

export function useDatasetPages(datasetId: string, predictionSetId?: string) {
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
  return { dataset, model, root, crumbs };
}
