// What other features may use of the datasets feature.
export { useDataset } from './hooks/useDataset';
export { useDatasetHistory } from './hooks/useDatasetHistory';
export { useDatasets } from './hooks/useDatasets';
export { PreviewImage } from './PreviewImage';
export { HISTORY_OPERATION_LABELS } from './strings';
