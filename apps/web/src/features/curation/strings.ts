// User-facing strings of pending changes and item actions (docs/curation.md). The texts the
// product gives (docs/product.md, Datasets §4, §5, §8) are copied exactly; the rest are ours, in
// the same voice.
import { SUBSET_MESSAGES } from '@loupe/contracts';

const quoted = (value: string) => `"${value}"`;

export const curationStrings = {
  // Queue descriptions
  willAdd: (subset: string) => `will be added to subset ${quoted(subset)}`,
  willRemove: (subset: string) => `will be removed from subset ${quoted(subset)}`,
  willMove: (subset: string) => `will be moved to subset ${quoted(subset)}`,
  willLabel: (label: string) => `will be labelled ${quoted(label)}`,
  willSplit: (split: string) => `will be moved to split ${quoted(split)}`,
  willDelete: 'will be deleted',
  willPromote: 'will be added as ground truth',
  items: (n: number) => `${n.toLocaleString()} ${n === 1 ? 'item' : 'items'}`,
  newTag: 'new',

  // Pending changes box
  pendingChanges: 'Pending changes',
  noPendingChanges: 'No pending changes',
  applyChanges: 'Apply changes',
  applyingChanges: 'Applying changes',
  discard: 'Discard',
  discardChange: 'Discard this change',
  discardAll: 'Discard all',
  discardAllTitle: 'Discard all pending changes?',
  discardAllText: (n: number) =>
    `${n.toLocaleString()} pending ${n === 1 ? 'change is' : 'changes are'} dropped; nothing is applied.`,
  cancel: 'Cancel',
  applied: 'Changes applied successfully.',
  applyFailed: 'Failed to execute actions.',
  // Leaving with pending changes (docs/product.md, Datasets §2)
  discardChanges: 'Discard changes',
  discardAndLeave: 'Discard and leave',
  leaveText: (n: number) =>
    `${n.toLocaleString()} pending ${n === 1 ? 'change has' : 'changes have'} not been applied.`,

  // Item action messages (docs/product.md, Datasets §8)
  deleteFailed: (n: number) => `Failed to delete ${n} items`,
  deleted: (n: number) => `${n} items deleted`,
  labelFailed: (n: number, label: string) => `Failed to update ${n} items to label "${label}"`,
  addFailed: (n: number, subset: string) => `Failed adding ${n} items to ${subset}`,
  createSubsetFailed: 'Failed to create subset',
  updateSubsetFailed: 'Failed updating subset',

  // Item actions
  actions: 'Actions',
  noActions: 'No actions available for this item',
  needsLicense: 'A valid license is needed to change items.',
  addToSubset: 'Add to subset',
  moveToSubset: 'Move to subset',
  removeFromSubset: 'Remove from subset',
  updateLabel: 'Update label',
  updateSplit: 'Update split',
  delete: 'Delete',
  promote: 'Add as ground truth',
  queue: 'Add to pending changes',
  removeTitle: (n: number, subset: string) =>
    `Remove ${n.toLocaleString()} ${n === 1 ? 'item' : 'items'} from subset "${subset}"?`,
  removeText: 'The change is queued with the pending changes; the items stay in the dataset.',
  remove: 'Remove',

  // Subset chooser
  subset: 'Subset',
  chooseSubset: 'Choose a subset',
  createSubset: 'Create subset',
  newSubsetName: 'New subset name',
  levelMismatch: SUBSET_MESSAGES.levelMismatch,
  nameRequired: SUBSET_MESSAGES.nameRequired,
  nameReserved: SUBSET_MESSAGES.nameReserved,
  nameTaken: SUBSET_MESSAGES.nameTaken,
  currentSubset: 'the current subset',
  subsetsFailed: 'Subsets failed to load',

  // Split and label choosers
  split: 'Split',
  chooseSplit: 'Choose a split',
  createSplit: 'Create split',
  newSplitName: 'New split name',
  splitRequired: 'Split name is required.',
  splitTaken: 'A Split with that name already exists',
  label: 'Label',
  chooseLabel: 'Choose a label',
  noLabels: 'This dataset has no labels to choose from.',
} as const;
