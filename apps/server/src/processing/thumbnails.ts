// ThumbnailGeneration: WebP thumbnails in the two sizes the web app shows — grid cards and the
// item viewer's filmstrip — for every image sample that has none yet.
import sharp from 'sharp';
import type { Repositories } from '../db/repositories.js';
import type { JobContext } from '../jobs/job-types.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaResolver } from '../storage/media.js';
import { thumbnailBase } from '../datasets/datasets.service.js';

/** Longest side of the grid thumbnail (cards are 192–400 px wide at 2× density) and filmstrip box (80×56 at 2×). */
export const THUMBNAIL_SIZES = {
  grid: { width: 512, height: 512, fit: 'inside' as const },
  filmstrip: { width: 160, height: 112, fit: 'cover' as const },
};

const BATCH = 50;

export async function renderThumbnails(
  bytes: Buffer,
): Promise<Record<keyof typeof THUMBNAIL_SIZES, Buffer>> {
  const image = sharp(bytes, { failOn: 'error' }).rotate();
  const [grid, filmstrip] = await Promise.all(
    (Object.keys(THUMBNAIL_SIZES) as (keyof typeof THUMBNAIL_SIZES)[]).map((size) =>
      image
        .clone()
        .resize({ ...THUMBNAIL_SIZES[size], withoutEnlargement: size === 'grid' })
        .webp({ quality: 78, effort: 2 })
        .toBuffer(),
    ),
  );
  return { grid: grid!, filmstrip: filmstrip! };
}

export function thumbnailJob(repos: Repositories, blobs: BlobStore, media: MediaResolver) {
  return async (context: JobContext<'ThumbnailGeneration'>): Promise<void> => {
    const datasetId = context.payload.dataset_id;
    const dataset = await repos.datasets.find(datasetId);
    if (!dataset || dataset.thumbnails_enabled !== 1) return;
    let afterSeq = -1;
    let done = 0;
    const total = dataset.samples_count || 1;
    for (;;) {
      const samples = await repos.datasets.samplesWithoutThumbnail(datasetId, afterSeq, BATCH);
      if (samples.length === 0) break;
      afterSeq = samples[samples.length - 1]!.seq;
      for (const sample of samples) {
        if (!sample.media) continue;
        try {
          const rendered = await renderThumbnails(await media.read(datasetId, sample.media));
          const base = thumbnailBase(sample.id);
          for (const [size, bytes] of Object.entries(rendered)) {
            await blobs.put(
              `datasets/${datasetId}/thumbnails/${base}-${size}.webp`,
              bytes,
              'image/webp',
            );
          }
          await repos.datasets.setSampleProcessing(datasetId, sample.id, { thumbnail: base });
        } catch {
          // Corrupt or unreachable media: the metadata job flags it; the grid shows 'Unable to load image'.
        }
        done++;
      }
      await context.progress(Math.min(0.99, done / total));
    }
  };
}
