// MetadataAndFeaturesComputation: the metadata pass over a dataset's new samples.
import type { JobContext } from '../jobs/job-types.js';
import type { MetadataService } from './metadata.service.js';

export function metadataJob(metadata: Pick<MetadataService, 'compute'>) {
  return (context: JobContext<'MetadataAndFeaturesComputation'>): Promise<void> =>
    metadata.compute(context.payload.dataset_id, (fraction) => context.progress(fraction));
}
