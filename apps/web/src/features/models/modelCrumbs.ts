// The breadcrumbs of every model page: Models, the dataset's name, the model's name. A name not
// loaded yet leaves its crumb out rather than show an id.
import type { Crumb } from '../../components/Page';
import { modelStrings } from './strings';

export function modelCrumbs(
  datasetId: string,
  predictionSetId: string,
  names: { dataset?: string; model?: string },
): Crumb[] {
  const crumbs: Crumb[] = [{ title: modelStrings.models, to: '/models' }];
  if (names.dataset) crumbs.push({ title: names.dataset, to: `/datasets/${datasetId}/overview` });
  if (names.dataset && names.model) {
    crumbs.push({
      title: names.model,
      to: `/models/datasets/${datasetId}/predictions/${predictionSetId}/overview`,
    });
  }
  return crumbs;
}
