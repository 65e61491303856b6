// User-facing strings of the dataset and model pages that the shell already shows.
export const datasetStrings = {
  datasets: 'Datasets',
  models: 'Models',
  noDatasets: 'There are no datasets yet',
  noModels: 'There are no models yet',
  noDatasetsHint:
    'Datasets are uploaded with the Loupe SDK. Open Help → Set up SDK to connect it to this instance.',
  instructionsTitle: 'Add a dataset',
  instructions:
    'Install the Python SDK from this instance, then upload your images or audio clips with their labels. An uploaded dataset appears here as soon as its first items are processed.',
  modelInstructionsTitle: 'Add a model',
  modelInstructions:
    'Upload a model’s predictions for one of your datasets with the Loupe SDK. Each upload becomes a model you can evaluate and compare.',
  placeholder: 'This page is part of a later release of the dataset and model pages.',
  comingSoon: 'Coming soon',
  loadFailed: 'Unable to load datasets',
  modelsLoadFailed: 'Unable to load models',
  issues: (count: number) => `${count} failed ${count === 1 ? 'check' : 'checks'}`,
  counts: (samples: number, models: number) =>
    `${samples.toLocaleString()} ${samples === 1 ? 'sample' : 'samples'} · ${models} ${models === 1 ? 'model' : 'models'}`,
  modelName: 'Model',
  dataset: 'Dataset',
  added: 'Added',
} as const;
