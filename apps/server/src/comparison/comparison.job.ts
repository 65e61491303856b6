// ModelComparisonComputation: two prediction sets compared on one split, metric and value name,
// at the data version it was enqueued for.
import type { JobContext } from '../jobs/job-types.js';
import type { ComparisonJobsService } from './comparison-jobs.service.js';

export function modelComparisonJob(jobs: Pick<ComparisonJobsService, 'computeComparison'>) {
  return (context: JobContext<'ModelComparisonComputation'>): Promise<void> =>
    jobs.computeComparison(context.payload, context.attempt, (fraction) =>
      context.progress(fraction),
    );
}
