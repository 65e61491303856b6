// What other features and the app shell may use of the models feature.
export { ModelComparisonRoute } from './compare/ModelComparisonRoute';
export { ModelFeaturesPage } from './features/ModelFeaturesPage';
export { pagesRoot, useDatasetPages } from './hooks/useDatasetPages';
export { useModel } from './hooks/useModel';
export { modelCrumbs } from './modelCrumbs';
export { ModelMetadataPage } from './metadata/ModelMetadataPage';
export { ModelOverviewPage } from './overview/ModelOverviewPage';
export { ModelPerformanceRoute } from './performance/ModelPerformanceRoute';
export { ModelsPage } from './ModelsPage';
export { ModelSubPage } from './ModelSubPage';
