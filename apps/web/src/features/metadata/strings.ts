// User-facing strings of the metadata page, copied from docs/product.md, Datasets (§2, §4, §8) where
// the product gives them (the table's own: components/strings.ts).
export const metadataStrings = {
  title: 'Metadata',
  datasets: 'Datasets',
  failed: 'Dataset metadata failed to load',
  datasetNotFound: 'Dataset not found',
  recomputing: 'Recomputing',
  available: 'Available',
  columns: {
    state: 'State',
  },
} as const;
