// User-facing strings of the model overview (docs/product.md, Models §2, §8); the error text is
// the spec's, the rest ours in the same voice.
export const overviewStrings = {
  overview: 'Overview',
  loadFailed: 'Unable to load Model Overview',
  dataset: 'Dataset',
  uploaded: (when: string) => `Uploaded ${when}`,
  completeness: 'Completeness',
  predicted: (present: number, total: number) =>
    `${present.toLocaleString()} of ${total.toLocaleString()} samples have a prediction`,
  performance: 'Performance',
  viewPerformance: 'View performance',
  allSplits: 'All splits',
  statisticsFailed: 'Statistics information failed to load',
  classes: 'Classes',
  values: 'Values',
  showAll: (count: number) => `Show all ${count.toLocaleString()}`,
  showFewer: 'Show fewer',
  suggestions: 'Suggestions',
  improveModel: 'Improve Model',
  improveDataset: 'Improve Dataset',
  noSuggestions: 'No suggestions yet',
  improveModelLater:
    'Suggestions for this model will come from model health checks, which this version of Loupe does not run yet.',
  improveDatasetLater:
    'Suggestions for the dataset will come from health checks and workflows, which this version of Loupe does not have yet.',
} as const;
