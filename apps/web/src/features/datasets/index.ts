// What other features may use of the datasets feature.
export { useDatasets } from './hooks/useDatasets';
export { PreviewImage } from './PreviewImage';
