// User-facing strings of the Similar items page (docs/product.md, Datasets §2, §8); texts copied exactly.
export const similarStrings = {
  title: 'Similar items',
  invalidLicense: 'Invalid License',
  invalidLicenseText: 'Finding similar items needs a valid license.',
  invalidLicenseMemberText: 'Finding similar items needs a valid license. Ask an admin to add one.',
  goToSettings: 'Go to Settings',
  noFeaturesTitle: 'No features found',
  noFeaturesText:
    'The query items have no features. Upload features for them to find similar items.',
  uploadFeatures: 'Upload Features',
  loading: 'Loading similar items...',
  firstComputation:
    'The first search with a feature builds its similarity index, so it takes longer. You can leave and come back later.',
  backTo: (subset: string) => `Back to ${subset}`,
  explore: 'Explore',
  noneFound: (level: 'samples' | 'objects') => `No similar ${level} found`,
  allInSubset: (level: 'samples' | 'objects') => `All dataset ${level} are in this subset already.`,
  settingsTitle: 'Find Similar Settings',
  feature: 'Feature',
  ignored: (n: number) => `${n} item(s) ignored`,
  ignoredTooltip: (feature: string) =>
    `These query items lack the feature "${feature}" and are left out of the search.`,
  queryItems: (n: number, total: number) => `Query items: ${n} of ${total} selected`,
  results: (n: number) => `${n.toLocaleString()} similar item(s), most similar first`,
  score: (score: number) => `Similarity ${score.toFixed(3)}`,
  noQuery: 'No query items',
  noQueryText:
    'Open this page from a selection in Explore ("Find similar"): the query items come in the sample_ids parameter.',
  subsetNotFound: 'Subset not found',
  datasetNotFound: 'Dataset not found',
  failed: 'Similar items failed to load',
  datasets: 'Datasets',
  subset: 'Subset',
  emptySubset: 'This subset has no items',
} as const;
