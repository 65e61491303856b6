// User-facing strings of the SDK dialog (docs/product.md, Shell §2).
export const sdkStrings = {
  title: 'Set up SDK',
  intro: 'Connect the Python SDK to this instance to upload datasets and models.',
  step1: 'Install the SDK',
  step1Hint: 'The package is served by this instance, no internet needed (Python 3.9 or newer).',
  step2: 'Configure the SDK',
  step2Hint: 'Saves this instance’s address and your API key, and enters the license key.',
  step2HintNoLicense:
    'Saves this instance’s address and your API key. This instance has no license key yet.',
  copy: 'Copy',
  copyCommand: (step: string) => `Copy: ${step}`,
  loadFailed: 'Unable to load the SDK setup.',
  done: 'Done',
  docs: 'SDK documentation',
  docsTitle: 'Python SDK',
  docsElsewhere: (path: string) => `${path} in the Loupe repository`,
  copyCode: 'Copy code',
  step3: 'Upload a dataset',
  step3Hint:
    'Create a dataset and upload its samples; the client uses the address and key saved in step 2.',
  taskType: 'Task type',
  /** Under a snippet: where the fields of the other task types are. */
  otherTasks: 'Fields of the other task types, metadata, features and retries:',
  allFields: 'Every field, with metadata, features and retries:',
} as const;
