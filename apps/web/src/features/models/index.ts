// What other features and the app shell may use of the models feature.
export { useModel } from './hooks/useModel';
export { modelCrumbs } from './modelCrumbs';
export { ModelsPage } from './ModelsPage';
export { ModelSubPage } from './ModelSubPage';
