// User-facing strings of the embeddings map (docs/product.md, Datasets §5, §8); texts copied exactly
// (those the server says too come from the contract).
import { FEATURE_NOT_AVAILABLE, NO_FEATURES_FOR_EMBEDDINGS } from '@loupe/contracts';

export const embeddingsStrings = {
  loadFailed: 'Embeddings failed to load',
  noFeaturesTitle: 'No features found',
  noFeaturesText: NO_FEATURES_FOR_EMBEDDINGS,
  failedTitle: 'Failed to compute embeddings',
  failedSuggestion:
    'Open the embeddings settings and try another dimensionality reduction method or feature.',
  computing: 'Computing embeddings…',
  computingDetail: 'The map appears as soon as the computation finishes.',
  noPoints: 'No items to show',
  numMissing: (n: number) => `${n.toLocaleString()} item(s) without an embedding are not shown`,
  webglLostTitle: 'WebGL crashed',
  webglLostText:
    'The embeddings map stopped drawing because WebGL crashed. This can happen with large datasets or many unique attribute values. Please refresh the page; if it happens again, reduce the dataset size (for example with a filter) and send us the debug information.',
  refresh: 'Refresh page',
  debugInformation: 'Download debug information',
  // Toolbar
  mouseMode: 'Mouse mode',
  panZoom: 'Pan and zoom',
  lasso: 'Lasso selection (or hold Shift while dragging)',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  resetView: 'Reset view',
  pointSize: 'Point size',
  settings: 'Embeddings settings',
  points: (n: number) => `${n.toLocaleString()} points`,
  // Selection preview
  selectionTitle: (n: number) => `${n.toLocaleString()} selected`,
  clearSelection: 'Clear selection',
  more: (n: number) => `+${n.toLocaleString()}`,
  // Legend
  missing: 'Missing',
  // Settings dialog
  settingsTitle: 'Embeddings settings',
  feature: 'Feature',
  modelFeatures: 'Model Features',
  datasetFeatures: 'Dataset Features',
  method: 'Method',
  numNeighbors: 'Number of neighbours',
  perplexity: 'Perplexity',
  apply: 'Apply',
  cancel: 'Cancel',
  featureNotAvailable: FEATURE_NOT_AVAILABLE,
  noFeaturesSettings: 'You need to upload at least one feature to enable embeddings settings',
  tsneSlow: (n: number) =>
    `t-SNE is slow above 20,000 points and this map has ${n.toLocaleString()}: expect the computation to take a while, or choose UMAP or PCA.`,
  settingsSaveFailed: 'Failed to save the embeddings settings',
  methodLabels: { UMAP: 'UMAP', TSNE: 't-SNE', PCA: 'PCA' },
} as const;
