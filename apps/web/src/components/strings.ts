// User-facing strings of the shared building blocks (docs/product.md, Shell §8).
export const commonStrings = {
  goToHome: 'Go to home',
  downloadErrorReport: 'Download error report',
  downloadSupportReport: 'Download support report',
  internalError: 'Internal Error',
  bug: 'Oops, there seems to be a bug in our code',
  unparsable: 'The error could not be parsed or retrieved.',
  retry: 'Retry',
  cancel: 'Cancel',
  serverUnreachable: 'The server is unreachable',
  serverUnreachableDetail:
    'Loupe could not reach its server. Check your connection or ask your administrator whether the server is running, then retry.',
  copied: 'Copied!',
  copy: 'Copy',
  delayedLoading: 'This is taking longer than usual. Still loading…',
  pageNotFound: 'Page not found',
  pageNotFoundDetail: 'The page you are looking for does not exist or has moved.',
} as const;

/** Column titles of the features table (docs/product.md, Datasets §2, Models §2). */
export const featureTableStrings = {
  name: 'Name',
  type: 'Type',
  group: 'Group',
  dataLevel: 'Data level',
  present: 'Present',
  missing: 'Missing',
  size: 'Size',
} as const;

/** The metadata fields table (docs/product.md, Datasets §2, Models §2). */
export const metadataFieldStrings = {
  search: 'Search metadata',
  noMatches: 'No matches found.',
  noMetadata: 'No metadata fields',
  dataLevel: 'Data level',
  columns: {
    name: 'Name',
    type: 'Type',
    source: 'Source',
    group: 'Group',
    missing: 'Missing / Total',
  },
  count: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'field' : 'fields'}`,
} as const;

/** What a card says without a picture (docs/product.md, Datasets §2). */
export const cardPreviewStrings = {
  noPreview: 'No preview',
  unableToLoadImage: 'Unable to load image',
} as const;
