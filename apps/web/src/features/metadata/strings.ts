// User-facing strings of the metadata page, copied from docs/product.md, Datasets (§2, §4, §8) where
// the product gives them.
import type { DataLevel, MetadataFieldInfo } from '@loupe/contracts';

export const metadataStrings = {
  title: 'Metadata',
  datasets: 'Datasets',
  failed: 'Dataset metadata failed to load',
  datasetNotFound: 'Dataset not found',
  search: 'Search metadata',
  noMatches: 'No matches found.',
  noMetadata: 'No metadata fields',
  dataLevel: 'Data level',
  recomputing: 'Recomputing',
  available: 'Available',
  columns: {
    name: 'Name',
    type: 'Type',
    source: 'Source',
    group: 'Group',
    missing: 'Missing / Total',
    state: 'State',
  },
  count: (count: number) => `${count.toLocaleString()} ${count === 1 ? 'field' : 'fields'}`,
} as const;

export const DATA_LEVEL_LABELS: Record<DataLevel, string> = {
  image: 'Images',
  image_object: 'Objects',
  audio: 'Audio',
};

export const SOURCE_LABELS: Record<MetadataFieldInfo['source'], string> = {
  builtin: 'Built-in',
  uploaded: 'Uploaded',
  computed: 'Computed',
  prediction: 'Prediction',
};

export const TYPE_LABELS: Record<MetadataFieldInfo['type'], string> = {
  numeric: 'Numeric',
  string: 'String',
  boolean: 'Boolean',
  timestamp: 'Timestamp',
};
