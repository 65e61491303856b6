// What other features may use of the similar-items feature: its page and the selection route id.
export { SimilarItemsPage } from './SimilarItemsPage';
export { SELECTION_SUBSET } from './similarRules';
