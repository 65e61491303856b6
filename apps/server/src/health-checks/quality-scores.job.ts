// QualityScoresComputation: the dataset's health checks whose inputs changed, at the data version
// it was enqueued for (a later version reruns only what moved again).
import type { JobContext } from '../jobs/job-types.js';
import type { ChecksJobsService } from './checks-jobs.service.js';

export function qualityScoresJob(jobs: Pick<ChecksJobsService, 'compute'>) {
  return (context: JobContext<'QualityScoresComputation'>): Promise<void> =>
    jobs.compute(context.payload, (fraction) => context.progress(fraction));
}
