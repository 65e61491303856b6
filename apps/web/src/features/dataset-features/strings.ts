// User-facing strings of the features page, copied from docs/product.md, Datasets (§2, §8) where it
// gives them.
export const featureStrings = {
  title: 'Features',
  datasets: 'Datasets',
  failed: 'Dataset features failed to load',
  datasetNotFound: 'Dataset not found',
  noFeatures: 'No features found',
  noFeaturesHint: 'You need to upload at least one feature to enable embeddings.',
  uploadFeatures: 'Upload features',
  uploadTitle: 'Upload features',
  uploadIntro:
    'Features are vectors, one per item, all of the same length: embeddings from your own model, for example. Upload them with the Python SDK:',
  uploadNotes:
    'Uploading a feature of the same name again adds or replaces vectors by id. Object ids are "{sample id}#{object id}".',
  copySnippet: 'Copy code',
  close: 'Close',
} as const;
