// User-facing strings of the model metadata page (docs/product.md, Models §2, §4, §8; the
// table's own: components/strings.ts).
export const modelMetadataStrings = {
  title: 'Metadata',
  loadFailed: 'Model metadata failed to load',
  recomputing: 'Recomputing',
  openHint: 'Explore the model’s items coloured and sorted by this field',
} as const;
