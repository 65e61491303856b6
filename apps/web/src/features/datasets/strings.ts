// User-facing strings of the datasets list and the dataset overview, copied from
// docs/product.md, Datasets (§2, §3, §5, §8) where it gives them.
import type { HistoryRecord } from '@loupe/contracts';

export const datasetStrings = {
  datasets: 'Datasets',
  models: 'Models',
  placeholder: 'This page is part of a later release of the dataset and model pages.',
  comingSoon: 'Coming soon',

  // Datasets list
  searchPlaceholder: 'Search datasets',
  allTasks: 'All tasks',
  taskFilter: 'Task type',
  addDataset: 'Add Dataset',
  noDatasets: 'No datasets available',
  noDatasetsHint: 'Add a dataset with the SDK to see it here.',
  noMatches: (task: string | undefined, term: string) =>
    term
      ? `No ${task ? `${task} ` : ''}datasets matching "${term}" found`
      : `No ${task ?? ''} datasets found`,
  loadFailed: 'Datasets failed to load.',
  updated: (relative: string) => `Updated ${relative}`,
  samples: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'sample' : 'samples'}`,
  classes: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'class' : 'classes'}`,
  objects: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'object' : 'objects'}`,
  predictions: (count: number) =>
    `${count.toLocaleString()} ${count === 1 ? 'prediction set' : 'prediction sets'}`,
  noPreview: 'No preview',
  unableToLoadImage: 'Unable to load image',

  // Add Dataset modal
  addDatasetTitle: 'Add Dataset',
  tabs: { sdk: 'SDK', s3: 'AMAZON S3', v7: 'V7 Labs', cvat: 'CVAT' },
  setUpS3: 'Please set up your S3 credentials in Settings to add datasets.',
  setUpV7: 'Please set up your V7 credentials in Settings to add datasets.',
  setUpCvat: 'Please set up your CVAT credentials in Settings to add datasets.',
  setUpLicense: 'Please set up your license key in Settings to add datasets.',
  goToSettings: 'Go to Settings',
  sdkIntro:
    'Install the Python SDK from this instance, connect it with your API key, then create a dataset and upload its samples.',
  openSdkSetup: 'Show SDK setup',
  uploadStep: 'Create a dataset and upload samples',
  uploadStepHint:
    'Each sample needs an id and its media (a local path, bytes or a URL); labels and splits are optional. Choose your task type to see its label fields.',

  // Overview
  overview: 'Overview',
  datasetNotFound: 'Dataset not found',
  statistics: 'Statistics',
  statSamples: 'Samples',
  statClasses: 'Classes',
  statObjects: 'Ground-truth objects',
  statPredictions: 'Predictions',
  statSubsets: 'Subsets',
  classesTile: 'Classes',
  objectsTile: 'Ground-truth objects',
  moreClasses: (count: number) => `+${count} more`,
  noDescription: 'No description',
  versionHistory: 'Version History',
  historyFailed: 'History section failed to load',
  noHistory: 'There are no changes yet',
  historyItems: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'item' : 'items'}`,
  historyBy: (user: string) => `by ${user}`,
  /** An operation's name as the heading of its history record: 'uploaded items' → 'Uploaded items'. */
  historyOperation: (label: string) => label.charAt(0).toUpperCase() + label.slice(1),
  restore: 'Restore',
  restoreTitle: (count: number) =>
    `Restore ${count.toLocaleString()} ${count === 1 ? 'item' : 'items'}?`,
  restoreContent: 'The items this change deleted come back as they were.',
  restoreNeedsLicense: 'A valid license is needed to restore items.',
  restored: (count: number) =>
    `${count.toLocaleString()} ${count === 1 ? 'item' : 'items'} restored.`,
  restoreFailed: 'Failed to restore items.',
  restoredTag: 'Restored',
  showItems: 'Show items',
  healthChecks: 'Health Checks',
  noHealthChecks: 'No health checks found',
  healthChecksLater: 'Data health checks for this dataset will be listed here.',
  concepts: 'Concepts',
  noConcepts: 'There are no concepts yet',
  conceptsLater: 'Concepts you create from examples in the explorer will be listed here.',
  settings: 'Settings',

  // Settings: IoU threshold
  iouThreshold: 'IoU threshold',
  iouHelp:
    'The minimum intersection over union for a predicted object to match a ground-truth object. Between 0 and 1.',
  iouFailed: 'IoU threshold setting failed to load',
  iouRange: 'Enter a number between 0 and 1.',
  apply: 'Apply',
  iouConfirmTitle: 'Change the IoU threshold?',
  iouConfirm: (models: number) =>
    `Changing the IoU threshold invalidates results and results-related metadata for ${models} ${models === 1 ? 'model' : 'models'}.`,
  iouSaved: 'IoU threshold updated.',
  iouSaveFailed: 'Failed to update the IoU threshold.',

  // Settings: thumbnails
  thumbnails: 'Thumbnails',
  thumbnailsHelp: 'Small previews of every sample for the grid, the overview and the lists.',
  thumbnailsGenerating: 'Generating thumbnails…',
  disableThumbnailsTitle: 'Disable thumbnails?',
  disableThumbnails:
    'All thumbnails of this dataset will be deleted. You can turn them on again later; they will be generated anew.',
  disable: 'Disable',
  thumbnailsFailed: 'Failed to update the thumbnails setting.',

  // Settings: delete
  deleteDataset: 'Delete dataset',
  deleteHelp: 'Deletes the dataset with all its samples, media, prediction sets and history.',
  deleteTitle: (name: string) => `Delete dataset "${name}"?`,
  cannotBeUndone: 'This action cannot be undone.',
  typeName: (name: string) => `Type "${name}" to confirm.`,
  deleteInputLabel: 'Dataset name',
  delete: 'Delete',
  cancel: 'Cancel',
  deleted: (name: string) => `Dataset "${name}" deleted successfully!`,
  deleteFailed: (name: string) => `Failed to delete dataset "${name}".`,
} as const;

/** Words for each history operation (docs/product.md, Datasets §3). */
export const HISTORY_OPERATION_LABELS: Record<HistoryRecord['operation_type'], string> = {
  'sample:create': 'uploaded items',
  'sample:delete': 'deleted samples',
  'object:delete': 'deleted objects',
  'object:create': 'added ground-truth annotation',
  'object.label:edit': 'changed object label',
  'object.shape:edit': 'changed object shape',
  'sample.label:edit': 'changed sample label',
  'sample.split:edit': 'reassigned split',
  'sample:restore': 'restored samples',
};
