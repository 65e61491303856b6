// User-facing strings of the model features page (docs/product.md, Models §2, §8).
export const modelFeaturesStrings = {
  title: 'Features',
  loadFailed: 'Model features failed to load',
  modelFeatures: 'Model Features',
  datasetFeatures: 'Dataset Features',
  attributions: 'Attributions',
  noModelFeatures: 'No model features',
  noModelFeaturesHint:
    "Upload your model's own vectors (an embedding from its penultimate layer, say) with model.upload_features(name, vectors) in the Python SDK.",
  noDatasetFeatures: 'No dataset features',
  noAttributions: 'No attributions',
  noAttributionsHint:
    'Upload heatmaps explaining the predictions with model.upload_attributions(rows, name) in the Python SDK.',
  delete: 'Delete',
  deleteTitle: (name: string) => `Delete attribution "${name}"?`,
  deleteDescription:
    "Every sample's heatmap of this attribution is deleted, and the model's embeddings settings are reset.",
  deleted: (name: string) => `Attribution "${name}" deleted`,
  deleteFailed: 'Unable to delete the attribution',
  needsLicense: 'A valid license is needed to delete attributions.',
  actions: 'Actions',
  associatedFeatures: 'Associated features',
  noAssociatedFeatures: 'None',
  noAssociatedFeaturesHint:
    "Upload the model's own vectors of its images with model.upload_features(name, vectors) to lay out the items by them next to the heatmaps.",
} as const;
