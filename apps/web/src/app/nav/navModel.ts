// What the main navigation shows for the current route (docs/product.md, Shell §2): the dataset group once a
// dataset is chosen, the model group when that dataset has prediction sets.
import { matchPath } from 'react-router';

export interface NavSelection {
  datasetId?: string;
  predictionSetId?: string;
}

export function selectionFromPath(pathname: string): NavSelection {
  const model = matchPath(
    { path: '/models/datasets/:datasetId/predictions/:predictionSetId', end: false },
    pathname,
  );
  if (model)
    return { datasetId: model.params.datasetId, predictionSetId: model.params.predictionSetId };
  const dataset = matchPath({ path: '/datasets/:datasetId', end: false }, pathname);
  if (dataset) return { datasetId: dataset.params.datasetId };
  const concept = matchPath({ path: '/concepts/new/:datasetId', end: false }, pathname);
  if (concept) return { datasetId: concept.params.datasetId };
  return {};
}

export const DATASET_LINKS = [
  { key: 'overview', label: 'Overview' },
  { key: 'checks', label: 'Health Checks' },
  { key: 'explore', label: 'Explore' },
  { key: 'metadata', label: 'Metadata' },
  { key: 'features', label: 'Features' },
  { key: 'subsets', label: 'Subsets' },
] as const;

export const MODEL_LINKS = [
  { key: 'overview', label: 'Overview' },
  { key: 'checks', label: 'Health Checks' },
  { key: 'performance', label: 'Performance' },
  { key: 'compare', label: 'Compare' },
  { key: 'explore', label: 'Explore' },
  { key: 'metadata', label: 'Metadata' },
  { key: 'features', label: 'Features' },
  { key: 'subsets', label: 'Subsets' },
] as const;

export function datasetPath(datasetId: string, section: string): string {
  return `/datasets/${encodeURIComponent(datasetId)}/${section}`;
}

export function modelPath(datasetId: string, predictionSetId: string, section: string): string {
  return `/models/datasets/${encodeURIComponent(datasetId)}/predictions/${encodeURIComponent(predictionSetId)}/${section}`;
}

/** The sub-page of the current path (overview, checks, …), if any. */
export function currentSection(pathname: string): string | undefined {
  const model = matchPath(
    { path: '/models/datasets/:datasetId/predictions/:predictionSetId/:section/*' },
    pathname,
  );
  if (model) return model.params.section;
  return matchPath({ path: '/datasets/:datasetId/:section/*' }, pathname)?.params.section;
}

/**
 * Where switching dataset or model leads: the same sub-page; performance and compare map to the
 * dataset overview when the model is dropped (docs/product.md, Shell §2).
 */
export function switchTarget(
  pathname: string,
  next: { datasetId: string; predictionSetId?: string },
): string {
  const section = currentSection(pathname) ?? 'overview';
  if (next.predictionSetId) return modelPath(next.datasetId, next.predictionSetId, section);
  const datasetSection = section === 'performance' || section === 'compare' ? 'overview' : section;
  return datasetPath(next.datasetId, datasetSection);
}
