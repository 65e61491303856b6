// User-facing strings of the Explore page, copied from docs/product.md, Datasets (§2, §4, §5, §8)
// where it gives them; the rest are ours, in the same voice.
import { ATTRIBUTION_MESSAGES, PERFORMANCE_MESSAGES, type DataLevel } from '@loupe/contracts';

export const exploreStrings = {
  explore: 'Explore',
  datasets: 'Datasets',
  models: 'Models',
  back: 'Back',

  // Loading and failures (§2, §8)
  loadingDataset: 'Loading dataset',
  loadingDelayed:
    'Loading datasets may take longer. Feel free to grab a coffee and come back later for the completed results.',
  loadingModel: 'Loading model',
  loadingModelDelayed:
    'Loading models may take longer. Feel free to grab a coffee and come back later for the completed results.',
  datasetNotFound: 'Dataset not found',
  modelNotFound: 'Model not found',
  subsetNotFound: 'Subset not found',
  goToHome: 'Go to home',
  pageFailed: 'Explore page failed to load',
  gridFailed: 'Grid failed to load',

  // Empty states (§2)
  noResults: 'No results match',
  clearFilters: 'Clear filters',
  noItems: "You don't have any items uploaded",
  noItemsHint: "When you do you'll see them here.",

  // Toolbar
  dataLevel: 'Data level',
  view: 'View',
  viewGrid: 'Grid',
  viewSplit: 'Split',
  viewEmbeddings: 'Embeddings',
  splitDivider: 'Resize the panes',
  splitDividerHint: 'Drag to resize; double click to reset',
  embeddingsFailed: 'Embeddings failed to load',
  findSimilar: 'Find similar',
  findSimilarNeedsLicense: 'A valid license is needed to find similar items.',
  levelLockedBySubset: 'Subset data level cannot be changed.',
  levelLockedByMap: 'Cannot change data level while exploring embeddings selection.',
  itemsCount: (shown: number, total: number) =>
    shown === total
      ? `${total.toLocaleString()} ${total === 1 ? 'item' : 'items'}`
      : `${shown.toLocaleString()} of ${total.toLocaleString()} items`,
  selected: (count: number) => `${count.toLocaleString()} selected`,
  clearSelection: 'Clear selection',
  actions: 'Actions',
  actionsFailed: 'The selected items failed to load.',
  pendingChanges: 'Pending changes',
  zoom: 'Card size',
  zoomIn: 'Larger cards',
  zoomOut: 'Smaller cards',

  // Metadata states (§4)
  recomputing: 'Recomputing',

  // Sort (§4)
  sort: 'Sort',
  sortBy: 'Sort by',
  sortTooltip: 'Sort the items by a metadata property',
  sortEditor: 'Sort editor',
  addSort: 'Add sort',
  clearSort: 'Clear',
  removeSort: 'Remove sort',
  dragSort: 'Drag to reorder',
  ascending: 'Ascending',
  descending: 'Descending',
  sortProperty: 'Sort property',
  sortDirection: 'Sort direction',
  noSort: 'No sort',

  // Filter (§4, §5, §8)
  filter: 'Filter',
  filterError: 'An internal error occurred while rendering the filters.',
  noMatchFound: 'No match found',
  searchProperties: 'Search properties',
  apply: 'Apply',
  clear: 'Clear',
  from: 'From',
  to: 'To',
  fromError: (min: string) => `From must be at least ${min} and at most To.`,
  toError: (max: string) => `To must be at most ${max} and at least From.`,
  isTrue: 'True',
  isFalse: 'False',
  anyValue: 'Any',
  chooseValues: 'Choose values',
  startDate: 'Start date',
  endDate: 'End date',
  history: 'Version history',
  historyRecord: 'History record',
  chooseHistory: 'Choose a change',
  historyDeleted: 'Cannot filter by this action - items have been deleted',
  historyOtherLevel: (level: string) =>
    `Cannot filter by this action - it was performed on ${level} data level`,
  removeFilter: 'Remove filter',

  // Colour (§5, §8)
  color: 'Color',
  colorBy: 'Color by',
  noColor: 'No color',
  colorTooManyValues: 'Cannot color due to too many unique categorical values',
  legend: 'Legend',
  missing: 'Missing',

  // Card config (§2)
  cardConfig: 'Card config',
  open: 'Open item',

  // Attributions in the display settings (§2, §4, §8, §9)
  attribution: 'Attribution',
  attributionNone: 'None',
  attributionOpacity: 'Opacity',
  attributionsNone: ATTRIBUTION_MESSAGES.none,
  attributionsLoading: ATTRIBUTION_MESSAGES.loading,
  attributionsSelectModel: ATTRIBUTION_MESSAGES.selectModel,
  attributionsPrimaryViewOnly: ATTRIBUTION_MESSAGES.primaryViewOnly,
  attributionsFailed: 'Attributions failed to load',

  // Selection performance sidebar (§2, §8)
  performance: 'Performance',
  showPerformance: 'Show performance',
  hidePerformance: 'Hide performance',
  performanceOfSelection: (count: number) =>
    `${count.toLocaleString()} selected ${count === 1 ? 'item' : 'items'}`,
  performanceOfFilter: 'Items matching the filter',
  performanceOfSubset: 'Items of the subset',
  performanceOfAll: 'All items',
  averageMetricsFailed: 'Failed to load average metrics',
  tooManyItems: PERFORMANCE_MESSAGES.tooManyItems,
  summaryItems: 'Items',
  summaryWithPrediction: 'With a prediction',
  summaryIou: (threshold: number) => `Objects matched at IoU ${threshold}`,
  noPredictionsInSlice: 'None of these items has a prediction from this model.',
} as const;

/** Level labels (docs/product.md, Datasets §1): Sample for images and audio; Object, or Class for semantic segmentation. */
export function levelLabel(level: DataLevel, taskType: string): string {
  if (level !== 'image_object') return 'Sample';
  return taskType === 'semantic_segmentation' ? 'Class' : 'Object';
}
