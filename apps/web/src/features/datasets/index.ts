// What other features and the app shell may use of the datasets feature.
export { useDataset } from './hooks/useDataset';
export { useDatasetHistory } from './hooks/useDatasetHistory';
export { useDatasets } from './hooks/useDatasets';
export { PreviewImage } from './PreviewImage';
export { HISTORY_OPERATION_LABELS } from './strings';
export { useDatasetModels } from './hooks/useDatasetModels';
export { DatasetsPage } from './DatasetsPage';
export { DatasetOverviewPage } from './overview/DatasetOverviewPage';
export { IouThresholdSetting } from './overview/IouThresholdSetting';
export { ConceptPage, DatasetSubPage, PlaceholderPage } from './PlaceholderPage';
