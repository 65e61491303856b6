// MetadataAndFeaturesComputation: the metadata pass over a dataset's new samples, then the mask
// statistics its semantic segmentation predictions still miss. A job of one prediction set
// (enqueued by an upload of its predictions, or of ground-truth masks they are compared with)
// computes that set's mask statistics only.
import type { JobContext } from '../jobs/job-types.js';
import type { MaskStatsService } from './mask-stats.service.js';
import type { MetadataService } from './metadata.service.js';

export function metadataJob(
  metadata: Pick<MetadataService, 'compute'>,
  maskStats: Pick<MaskStatsService, 'compute'>,
  /** Enqueues the health checks job once the pass is done (health-checks/enqueue.ts). */
  afterPass: (datasetId: string) => Promise<void> = async () => {},
) {
  return async (context: JobContext<'MetadataAndFeaturesComputation'>): Promise<void> => {
    const { dataset_id, prediction_set_id } = context.payload;
    const progress = (fraction: number) => context.progress(fraction);
    if (prediction_set_id !== undefined)
      return maskStats.compute(dataset_id, prediction_set_id, progress);
    await metadata.compute(dataset_id, progress);
    await maskStats.compute(dataset_id, undefined, async () => {});
    await afterPass(dataset_id);
  };
}
