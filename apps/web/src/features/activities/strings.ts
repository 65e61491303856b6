// User-facing strings of the activities popover (docs/product.md, Shell §2, §8).
import type { Activity } from '@loupe/contracts';

export const activityStrings = {
  title: 'Activities',
  bell: 'Activities',
  bellWithCount: (count: number) => `Activities (${count} new)`,
  myActivities: 'My activities',
  allActivities: 'All activities',
  empty: 'No activities found',
  renderFailed: 'An internal error occurred while rendering the activities.',
  loadFailed: 'Unable to load activities.',
  status: {
    PENDING: 'Running',
    SUCCESS: 'Completed',
    FAILURE: 'Failed',
  } satisfies Record<Activity['status'], string>,
  progress: (fraction: number) => `${Math.round(fraction * 100)}%`,
  noDataset: 'Instance-wide',
  openDataset: (name: string) => `Open ${name}`,
  embeddingsDetail: (feature: string, method: string) =>
    [feature, method].filter(Boolean).join(' · '),
} as const;

/** Each job type in words. */
export const JOB_TYPE_LABELS: Record<Activity['job_type'], string> = {
  MetadataAndFeaturesComputation: 'Metadata and features computation',
  EmbeddingsComputation: 'Embeddings computation',
  QualityScoresComputation: 'Quality scores computation',
  WorkflowsComputation: 'Workflows computation',
  ThumbnailGeneration: 'Thumbnail generation',
  PerformanceReportComputation: 'Performance report computation',
  FinegrainedPerformanceComputation: 'Fine-grained performance computation',
  ModelComparisonComputation: 'Model comparison',
  IntegrationSync: 'Integration sync',
};
