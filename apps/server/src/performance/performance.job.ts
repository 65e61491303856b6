// PerformanceReportComputation and FinegrainedPerformanceComputation: a prediction set's report
// (with its enabled subsets' entries) and its curves, at the data version they were enqueued for.
import type { JobContext } from '../jobs/job-types.js';
import type { PerformanceJobsService } from './performance-jobs.service.js';

export function performanceReportJob(jobs: Pick<PerformanceJobsService, 'computeReport'>) {
  return (context: JobContext<'PerformanceReportComputation'>): Promise<void> =>
    jobs.computeReport(context.payload, context.attempt, (fraction) => context.progress(fraction));
}

export function finegrainedPerformanceJob(
  jobs: Pick<PerformanceJobsService, 'computeFinegrained'>,
) {
  return (context: JobContext<'FinegrainedPerformanceComputation'>): Promise<void> =>
    jobs.computeFinegrained(context.payload, context.attempt, (fraction) =>
      context.progress(fraction),
    );
}
