// ThumbnailGeneration: WebP thumbnails in the two sizes the web app shows — grid cards and the
// item viewer's filmstrip. New uploads get theirs in the metadata pass, from pixels it has
// already decoded; this job covers the rest (thumbnails switched back on, media that changed).
import sharp from 'sharp';
import type { Repositories, Transact } from '../db/repositories.js';
import type { JobContext } from '../jobs/job-types.js';
import { forEachLimit } from '../platform/concurrency.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaResolver } from '../storage/media.js';
import { thumbnailBase } from '../datasets/datasets.service.js';
import { ANALYSIS_MAX_SIDE, decodeAudio, spectrogramPixels } from './media-metadata.js';

/**
 * Longest side of the grid thumbnail (cards are 192–400 px wide at 2× density) and the filmstrip
 * box (80×56 at 2×). The grid size is the analysis size, so the metadata pass's pixels are the
 * grid thumbnail as they are.
 */
export const THUMBNAIL_SIZES = {
  grid: { width: ANALYSIS_MAX_SIDE, height: ANALYSIS_MAX_SIDE, fit: 'inside' as const },
  filmstrip: { width: 160, height: 112, fit: 'cover' as const },
};
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;

export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const BATCH = 50;
const CONCURRENCY = 4;

/**
 * WebP encoder settings of both sizes. Effort 0 (libwebp's fastest method) encodes a 512 px
 * thumbnail in about 70 % of effort 1's time at the same quality (PSNR within 0.01 dB, files
 * about 2 % larger): see docs/performance.md.
 */
const WEBP = { quality: 78, effort: 0 } as const;

/**
 * Both thumbnails from decoded (already rotated) pixels: no second decode of the file. Pixels
 * that already fit the grid size (the metadata pass decodes to it) are encoded as they are, and
 * the filmstrip is shrunk from them rather than from the original.
 */
export async function thumbnailsFromPixels(
  pixels: RawPixels,
): Promise<Record<ThumbnailSize, Buffer>> {
  const raw = { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } };
  const [grid, filmstrip] = await Promise.all([
    sharp(pixels.data, raw)
      .resize({ ...THUMBNAIL_SIZES.grid, withoutEnlargement: true })
      .webp(WEBP)
      .toBuffer(),
    sharp(pixels.data, raw).resize(THUMBNAIL_SIZES.filmstrip).webp(WEBP).toBuffer(),
  ]);
  return { grid, filmstrip };
}

/** Decodes a file (honouring EXIF orientation) and renders both thumbnails; audio shows its spectrogram. */
export async function renderThumbnails(
  bytes: Buffer,
  mediaType: 'image' | 'audio' = 'image',
): Promise<Record<ThumbnailSize, Buffer>> {
  if (mediaType === 'audio')
    return thumbnailsFromPixels(spectrogramPixels(await decodeAudio(bytes)));
  const { data, info } = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .resize({ ...THUMBNAIL_SIZES.grid, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return thumbnailsFromPixels({
    data,
    width: info.width,
    height: info.height,
    channels: info.channels,
  });
}

export async function storeThumbnails(
  blobs: BlobStore,
  datasetId: string,
  sampleId: string,
  rendered: Record<ThumbnailSize, Buffer>,
): Promise<string> {
  const base = thumbnailBase(sampleId);
  await Promise.all(
    Object.entries(rendered).map(([size, bytes]) =>
      blobs.put(`datasets/${datasetId}/thumbnails/${base}-${size}.webp`, bytes, 'image/webp'),
    ),
  );
  return base;
}

export function thumbnailJob(
  repos: Repositories,
  transact: Transact,
  blobs: BlobStore,
  media: MediaResolver,
) {
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
      const made: { id: string; thumbnail: string }[] = [];
      await forEachLimit(samples, CONCURRENCY, async (sample) => {
        if (!sample.media) return;
        try {
          const rendered = await renderThumbnails(
            await media.read(datasetId, sample.media),
            sample.media_type ?? 'image',
          );
          made.push({
            id: sample.id,
            thumbnail: await storeThumbnails(blobs, datasetId, sample.id, rendered),
          });
        } catch {
          // Corrupt or unreachable media: the metadata job flags it; the grid shows 'Unable to load image'.
        }
      });
      await transact((tx) => tx.datasets.setThumbnails(datasetId, made));
      done += samples.length;
      await context.progress(Math.min(0.99, done / total));
    }
  };
}
