// User-facing strings of the item viewer, copied from docs/product.md, Datasets (§2, §8) where it
// gives them.
export const viewerStrings = {
  title: 'Item Details',
  previous: 'Previous item',
  next: 'Next item',
  close: 'Close',
  unableToLoadImage: 'Unable to load image',
  failedToLoadSample: 'Failed to load sample',
  staleResult:
    'The results changed since this list was loaded. Close the viewer and open the item again.',
  noMatches: 'No matches found.',
  loading: 'Loading item…',

  // Image tools
  rotateLeft: 'Rotate left (Shift+R)',
  rotateRight: 'Rotate right (R)',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  resetView: 'Fit to view',
  attributionOpacity: 'Attribution opacity',
  hideOverlays: 'Hide boxes and masks (B)',
  showOverlays: 'Show boxes and masks (B)',
  cropOffset: 'Bounding crop offset',
  zoomLevel: 'Zoom level',

  // Audio
  play: 'Play (Space)',
  pause: 'Pause (Space)',
  visibleDuration: 'Visible duration',
  // One decimal on the slider's 0.1 s grid; two for a clip's own length off it (0.54 s).
  seconds: (value: number) =>
    `${value.toFixed(Math.abs(value * 10 - Math.round(value * 10)) < 1e-6 ? 1 : 2)} s`,
  waveform: 'Waveform',
  spectrogram: 'Spectrogram',
  noAudio: 'No audio for this item',
  transcript: 'Transcript',
  predictedTranscript: 'Predicted transcript',
  wordErrors: 'Word errors',
  werLegend: 'I insertion · D deletion · S substitution · - correct',
  wer: (value: number) => `WER ${(value * 100).toFixed(1)}%`,
  timeAxis: 'Time',
  frequencyAxis: 'Frequency (log scale)',

  // Sidebar
  showSidebar: 'Show details',
  hideSidebar: 'Hide details',
  sample: 'Sample',
  objects: 'Objects',
  metadata: 'Metadata',
  id: 'Id',
  split: 'Split',
  label: 'Label',
  labels: 'Labels',
  values: 'Values',
  prediction: 'Prediction',
  score: 'Score',
  groundTruths: 'Ground Truths',
  predictions: 'Predictions',
  // In a comparison of two models (docs/model-comparison.md).
  modelPredictions: (key: 'A' | 'B') => `Model ${key} predictions`,
  modelPrediction: (key: 'A' | 'B') => `Model ${key}`,
  selectAll: 'Select All',
  deselectAll: 'Deselect all',
  noObjects: 'No objects',
  searchMetadata: 'Search metadata',
  metadataFailed: 'Metadata failed to load',
  pendingChanges: 'Pending changes',
  pendingCount: (n: number) => `Pending changes (${n})`,
  actions: 'Actions',

  // Curation keys: x repeats the last action, d discards (docs/curation.md)
  curationKeys: 'x repeats the last action here · d discards this item’s pending changes',
  noLastAction: 'No action to repeat yet',
  lastActionNotAvailable: 'The last action does not apply to this item',
  lastActionQueued: (description: string) => `Queued: ${description}`,
  discardedForItem: (n: number) =>
    `${n.toLocaleString()} pending ${n === 1 ? 'change' : 'changes'} of this item discarded`,
  nothingToDiscard: 'No pending changes for this item',
  filmstrip: 'Neighbouring items',
  itemAt: (position: number) => `Item ${position + 1}`,

  // Class legend (label maps and object classes)
  classLegend: 'Classes',
  groundTruthLayer: 'Ground truth',
  predictionLayer: 'Prediction',
  // In a comparison: the prediction layer names the model whose label map it draws.
  predictionLayerOf: (key: 'A' | 'B') => `Prediction (Model ${key})`,
  predictionMaskModel: 'Model of the predicted label map',
  classShare: (share: number) =>
    share > 0 && share < 0.001 ? '<0.1%' : `${(share * 100).toFixed(1)}%`,
} as const;
