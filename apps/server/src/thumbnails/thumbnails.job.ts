// ThumbnailGeneration: the thumbnails a dataset's samples are missing.
import type { JobContext } from '../jobs/job-types.js';
import type { ThumbnailsService } from './thumbnails.service.js';

export function thumbnailsJob(thumbnails: Pick<ThumbnailsService, 'generate'>) {
  return (context: JobContext<'ThumbnailGeneration'>): Promise<void> =>
    thumbnails.generate(context.payload.dataset_id, (fraction) => context.progress(fraction));
}
