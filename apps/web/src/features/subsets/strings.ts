// User-facing strings of the subsets table and the subset page (docs/curation.md); the texts the
// product gives (docs/product.md, Datasets §2, §8) are copied exactly, the rest are ours.
import { SUBSET_MESSAGES } from '@loupe/contracts';

export const subsetStrings = {
  subsets: 'Subsets',
  subset: 'Subset',

  // Table page
  search: 'Search subsets',
  loadFailed: 'Subsets failed to load',
  noSubsets: 'There are no subsets yet',
  noSubsetsHint:
    'Select items in the explorer and add them to a subset; your subsets will be listed here.',
  noMatches: (term: string) => `No subsets matching "${term}"`,
  exploreDataset: 'Explore Dataset',
  count: (shown: number, total: number) =>
    shown === total
      ? `${total.toLocaleString()} ${total === 1 ? 'subset' : 'subsets'}`
      : `${shown.toLocaleString()} of ${total.toLocaleString()} subsets`,
  columns: {
    name: 'Name',
    dataLevel: 'Data level',
    items: 'Items',
    created: 'Created',
    updated: 'Updated',
    performance: 'Performance',
    actions: 'Actions',
  },
  performanceHelp: 'Show this subset in the model performance pages',
  performanceToggle: (name: string) => `Use ${name} for performance`,

  // Row actions
  edit: 'Rename',
  editTitle: (name: string) => `Rename subset "${name}"`,
  name: 'Name',
  description: 'Description',
  save: 'Save',
  cancel: 'Cancel',
  nameRequired: SUBSET_MESSAGES.nameRequired,
  nameReserved: SUBSET_MESSAGES.nameReserved,
  nameTaken: SUBSET_MESSAGES.nameTaken,
  delete: 'Delete',
  deleteTitle: (name: string) => `Delete subset "${name}"?`,
  deleteText: 'The subset is deleted; its items stay in the dataset.',
  deleted: (name: string) => `Subset "${name}" deleted`,
  deleteFailed: 'Failed deleting subset',
  updateFailed: 'Failed updating subset',
  needsLicense: 'A valid license is needed to change subsets.',
  exportNeedsLicense: 'A valid license is needed to export subsets.',
  similarNeedsLicense: 'A valid license is needed to find similar items.',

  // Subset page
  loading: 'Loading subset',
  notFound: SUBSET_MESSAGES.notFound,
  /** The model routes' breadcrumb for a subset that does not exist (Models §2). */
  notFoundCrumb: 'Subset Not Found',
  datasetNotFound: 'Dataset not found',
  modelNotFound: 'Model not found',
  loadSubsetFailed: 'Subset failed to load',
  deleteAll: 'Delete All',
  deleteAllTitle: (name: string) => `Remove every item from "${name}"?`,
  deleteAllText: (n: number) =>
    `${n.toLocaleString()} ${n === 1 ? 'item is' : 'items are'} removed from the subset; they stay in the dataset.`,
  removeOk: 'Remove',
  findSimilarToAll: 'Find Similar Items to All',
  previewInEmbeddings: 'Preview All in Embeddings',
  openInExplorer: 'Open in Explorer',
  export: 'Export',
  exportCoco: 'coco',
  exportCsv: 'csv',
  cocoNeedsObjects: 'COCO exports are for object detection and instance segmentation datasets.',
  empty: 'This subset has no items',
  emptyHint: "When you add you'll see them here.",
  itemsCount: (n: number) => `${n.toLocaleString()} ${n === 1 ? 'item' : 'items'}`,
  levelLocked: SUBSET_MESSAGES.levelFixed,
  created: (when: string) => `Created ${when}`,

  // Selection
  pendingChanges: 'Pending changes',
  selected: (n: number) => `${n.toLocaleString()} selected`,
  clearSelection: 'Clear selection',
  findSimilar: 'Find similar',
  removed: (n: number, name: string) =>
    `${n.toLocaleString()} ${n === 1 ? 'item' : 'items'} removed from "${name}"`,
  open: 'Open in the explorer',
  gridFailed: 'Items failed to load',
} as const;

/** The data level in the product's words (docs/product.md, Datasets §1). */
export const LEVEL_LABELS = {
  sample: 'Sample',
  object: 'Object',
  class: 'Class',
} as const;
