// Activities: background jobs as the user sees them (docs/product.md, Shell §3).
import { z } from 'zod';

export const JobType = z
  .enum([
    'MetadataAndFeaturesComputation',
    'EmbeddingsComputation',
    'QualityScoresComputation',
    'WorkflowsComputation',
    'ThumbnailGeneration',
    'PerformanceReportComputation',
    'FinegrainedPerformanceComputation',
    'ModelComparisonComputation',
    'IntegrationSync',
  ])
  .meta({ id: 'JobType' });
export type JobType = z.infer<typeof JobType>;

export const ActivityStatus = z.enum(['PENDING', 'SUCCESS', 'FAILURE']);
export type ActivityStatus = z.infer<typeof ActivityStatus>;

export const Activity = z
  .object({
    id: z.string(),
    type: z.literal('Job'),
    updated_at: z.number().describe('Milliseconds since the epoch'),
    job_type: JobType,
    status: ActivityStatus,
    user_id: z.string().nullable(),
    dataset_id: z.string().optional(),
    dataset_name: z.string().optional(),
    predictions_id: z.string().optional(),
    progress: z.number().min(0).max(1).optional(),
    error: z.string().optional(),
    feature_name: z.string().optional(),
    dimensionality_reduction_method: z.string().optional(),
    data_level: z.string().optional(),
  })
  .meta({ id: 'Activity' });
export type Activity = z.infer<typeof Activity>;
export const ActivityList = z.array(Activity);
export type ActivityList = z.infer<typeof ActivityList>;

export const ActivitiesQuery = z.object({
  scope: z.enum(['my', 'all']).default('my'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export type ActivitiesQuery = z.input<typeof ActivitiesQuery>;
