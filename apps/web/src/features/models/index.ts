// What other features may use of the models feature.
export { useModel } from './hooks/useModel';
export { modelCrumbs } from './modelCrumbs';
