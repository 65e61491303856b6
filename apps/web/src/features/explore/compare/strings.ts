// User-facing strings of the explorer in a comparison of two models (docs/model-comparison.md,
// "The explorer in a comparison (web)"); the model names are the spec's 'Model A' / 'Model B'.
export const compareStrings = {
  banner: 'Comparing two models',
  modelA: 'Model A',
  modelB: 'Model B',
  showing: (key: 'A' | 'B', name: string) => `Showing the items of Model ${key} (${name})`,
  split: 'Split',
  allSplits: 'All',
  metric: 'Metric',
  valueName: 'Value',
  backToComparison: 'Back to comparison',
  leaveComparison: 'Leave comparison',
};
