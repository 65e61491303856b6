// User-facing strings of the main navigation (docs/product.md, Shell §2, §4, §8).
export const navStrings = {
  datasets: 'Datasets',
  models: 'Models',
  dataset: 'Dataset',
  model: 'Model',
  help: 'Help',
  settings: 'Settings',
  collapse: 'Collapse navigation (Ctrl+/)',
  expand: 'Show navigation (Ctrl+/)',
  validatingLicense: 'Validating license...',
  licensed: 'Licensed',
  unlicensed: 'Unlicensed',
  licenseExpired: 'License expired',
  unlicensedCompany: 'unlicensed',
  licensedTo: (company: string) => `Licensed to ${company}`,
  licenseFetchFailed: 'Unable to fetch license information.',
  evaluationUntil: (date: string) =>
    `Evaluation license until ${date}. Enter a license key in Settings → License to keep uploading after it ends.`,
  licenseAdminHint: 'Uploading datasets needs a license key. Click to enter one.',
  licenseMemberHint:
    'Uploading datasets needs a license key. Please contact your instance administrator.',
  chooseModel: 'Choose model',
  chooseModelText: 'Choose which model of this dataset to open.',
  noModels: 'There are no models yet',
  mainNavigation: 'Main navigation',
} as const;
