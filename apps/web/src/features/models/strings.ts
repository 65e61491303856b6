// User-facing strings of the models list and the Add Model modal (docs/product.md, Models §2, §8).
export const modelStrings = {
  models: 'Models',
  search: 'Search models',
  allTasks: 'All tasks',
  taskFilter: 'Task type',
  addModel: 'Add Model',
  noModels: 'No models available',
  noMatches: (task: string | undefined, term: string) =>
    `No ${task ? `${task} ` : ''}models matching "${term}" found`,
  loadFailed: 'Unable to load models',
  modelNotFound: 'Model not found',
  datasetNotFound: 'Dataset not found',
  datasets: 'Datasets',
  columns: { model: 'Model', completeness: 'Completeness', uploaded: 'Uploaded' },
  compare: 'Compare',
  // Add Model modal
  addModelTitle: 'Add Model',
  step1: 'Integrate your model',
  step1Text:
    'Install the Python SDK from this instance and connect it with your API key; the SDK documentation describes the prediction fields of every task type.',
  openSdkSetup: 'Show SDK setup',
  step2: 'Upload predictions',
  step2Text:
    'Upload your model’s predictions for a dataset you have uploaded. Each upload becomes a model you can evaluate and compare.',
  copySnippet: 'Copy: Upload predictions',
} as const;
