// What a sample's `thumbnail` column holds and where that picture lives: the base name of a
// stored WebP (the SHA-1 of the sample id), or ORIGINAL_THUMBNAIL when the uploaded file is small
// enough to be shown as it is (processing/thumbnails.ts decides).
import { createHash } from 'node:crypto';
import { BLOB_PREFIX } from './media.js';

export const ORIGINAL_THUMBNAIL = 'original';

export function thumbnailBase(sampleId: string): string {
  return createHash('sha1').update(sampleId).digest('hex');
}

export function thumbnailBlobKey(datasetId: string, base: string): string {
  return `datasets/${datasetId}/thumbnails/${base}-grid.webp`;
}

/**
 * The URL the web app loads a sample's thumbnail from, or null when it has none. A file that is
 * its own thumbnail is served by its content address, which browsers may cache for good.
 */
export function thumbnailUrl(
  datasetId: string,
  sample: { thumbnail: string | null; media: string | null },
): string | null {
  if (!sample.thumbnail) return null;
  if (sample.thumbnail === ORIGINAL_THUMBNAIL)
    return sample.media?.startsWith(BLOB_PREFIX)
      ? `/api/datasets/${datasetId}/media/${sample.media.slice(BLOB_PREFIX.length)}`
      : null;
  return `/api/datasets/${datasetId}/thumbnails/${sample.thumbnail}?size=grid`;
}
