// User-facing strings of the Model performance page (docs/product.md, Models §2, §5, §8, §9).
// The shared texts (missing predictions, computing, one metric at least) come from the contracts.
import { PERFORMANCE_MESSAGES, type DataLevel } from '@loupe/contracts';

/** '1 item', '2 items', '1,000 items'. */
export const itemCount = (count: number) =>
  `${count.toLocaleString()} ${count === 1 ? 'item' : 'items'}`;

export const performanceStrings = {
  title: 'Performance',
  split: 'Split',
  splitAll: 'All',
  iouThreshold: 'IoU threshold',
  // Banners
  ...PERFORMANCE_MESSAGES,
  progress: (percent: number) => `${percent}% done`,
  // Sections
  statistics: 'Statistics',
  overall: 'Overall Performance',
  finegrained: 'Fine-grained Performance',
  subsets: 'Subset Performance',
  metadata: 'Metadata Performance',
  // Metric choosers
  metrics: 'Metrics',
  chooseMetrics: 'Choose the metrics to show',
  // Load failures
  statisticsFailed: 'Statistics information failed to load',
  overallFailed: 'Model overall performance failed to load.',
  finegrainedFailed: 'Fine-grained performance failed to load.',
  subsetsFailed: 'Subset performance failed to load.',
  metadataFailed: 'Metadata performance failed to load.',
  computingSection: 'Computing…',
  noData: 'No data to show',
  // Statistics
  splitColumn: 'Split',
  // Overall
  primaryKey: { class: 'Class', word: 'Word', value_name: 'Value name' } as const,
  // Subsets
  searchSubsets: 'Search subsets',
  enableSubsets: 'Enable subsets in performance',
  enableSubsetsTitle: 'Subsets in performance and comparison',
  pending: (count: number) => `${count} ${count === 1 ? 'subset' : 'subsets'} pending`,
  noSubsets: 'No subsets available',
  noSubsetMatches: (query: string) => `No subsets matching "${query}" found`,
  noSubsetEntries: 'No subset performance entries found',
  noSubsetEntriesHint: 'Use the + button to enable subsets in performance and comparison.',
  showMore: (count: number) => `Show ${count} more`,
  showLess: 'Show less',
  itemsUsed: (used: number, total: number) =>
    used === total
      ? itemCount(total)
      : `${used.toLocaleString()} of ${itemCount(total)} with predictions`,
  subsetMetric: (name: string) => `Metric of ${name}`,
  otherMetrics: (name: string) => `Other metrics of ${name}`,
  subsetColumns: { name: 'Subset', level: 'Data level', items: 'Items', enabled: 'Enabled' },
  toggleSubset: (name: string) => `Show the performance of ${name}`,
  toggleFailed: 'Failed to update the subset.',
  needsLicense: 'A valid license is needed to change which subsets show performance.',
  levels: { audio: 'Audio', image: 'Images', image_object: 'Objects' } satisfies Record<
    DataLevel,
    string
  >,
  // Metadata
  metadataField: 'Metadata field',
  dataLevel: 'Data level',
  noMetadata: 'This data level has no metadata fields yet.',
  metadataIou: (iou: number) =>
    `Detection metrics of metadata bins match objects at an IoU threshold of ${iou}.`,
  missingBin: '(missing)',
  binItems: itemCount,
  noItems: 'No items',
  exploreBin: 'Click a bar to explore its items.',
} as const;
