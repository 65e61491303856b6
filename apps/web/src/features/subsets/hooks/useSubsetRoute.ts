// What a subsets page reads from its route, at /datasets/{id}/… and at a model's
// /models/datasets/{id}/predictions/{pid}/…: the dataset, the model (on a model route), where the
// pages are, and the breadcrumbs (Datasets or Models, the dataset, the model).
import { useParams } from 'react-router';
import { useDatasetPages } from '../../models';

export function useSubsetRoute() {
  const { datasetId = '', subsetId, predictionSetId } = useParams();
  const { dataset, model, root, crumbs } = useDatasetPages(datasetId, predictionSetId);
  return { datasetId, subsetId, predictionSetId, root, dataset, model, crumbs };
}
