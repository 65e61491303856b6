// EmbeddingsComputation: one layout of the embeddings scatter plot.
import type { JobContext } from '../jobs/job-types.js';
import type { LayoutsService } from './layouts.service.js';

export function embeddingsJob(layouts: Pick<LayoutsService, 'compute'>) {
  return (context: JobContext<'EmbeddingsComputation'>): Promise<void> =>
    layouts.compute(context.payload, context.attempt, (fraction) => context.progress(fraction));
}
