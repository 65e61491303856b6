// The slice of the dataset and prediction-set summaries (shell.md §3) that the shell needs.
// TODO(datasets issue): replace with the Dataset and PredictionSet types from @loupe/contracts.
export interface DatasetSummary {
  id: string;
  name: string;
  predictions_count: number;
}

export interface PredictionSetSummary {
  id: string;
  name: string;
  added_at: string;
  num_missing: number;
  num_present: number;
}
