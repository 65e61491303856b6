// Thumbnail generation for the samples that have none: new uploads get theirs in the metadata
// pass, from pixels it has already decoded; this covers the rest (thumbnails switched back on,
// media that changed).
import type { DatasetsRepository } from '../datasets/datasets.repository.js';
import type { Transact } from '../db/transact.js';
import { forEachLimit } from '../platform/concurrency.js';
import type { MediaPool } from '../processing/media-pool.js';
import { storeThumbnail } from '../processing/thumbnails.js';
import type { SamplesRepository } from '../samples/samples.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaResolver } from '../storage/media.js';
import { ORIGINAL_THUMBNAIL } from '../storage/thumbnail-refs.js';

const BATCH = 50;
const CONCURRENCY = 4;

export interface ThumbnailsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  samples: Pick<SamplesRepository, 'withoutThumbnail'>;
}

export class ThumbnailsService {
  constructor(
    private readonly repos: ThumbnailsRepos,
    private readonly transact: Transact<{ samples: Pick<SamplesRepository, 'setThumbnails'> }>,
    private readonly blobs: BlobStore,
    private readonly media: Pick<MediaResolver, 'read'>,
    private readonly pool: Pick<MediaPool, 'run'>,
  ) {}

  /** Makes the missing thumbnails of a dataset that has them switched on; reports progress (0–1). */
  async generate(datasetId: string, progress: (fraction: number) => Promise<void>): Promise<void> {
    const dataset = await this.repos.datasets.find(datasetId);
    if (!dataset?.thumbnails_enabled) return;
    let afterSeq = -1;
    let done = 0;
    const total = dataset.samples_count || 1;
    for (;;) {
      const samples = await this.repos.samples.withoutThumbnail(datasetId, afterSeq, BATCH);
      if (samples.length === 0) break;
      afterSeq = samples[samples.length - 1]!.seq;
      const made: { id: string; thumbnail: string }[] = [];
      await forEachLimit(samples, CONCURRENCY, async (sample) => {
        if (!sample.media) return;
        try {
          // Rendered on the media pool (renderThumbnail in media.worker.ts), off the event loop.
          const { thumbnail } = await this.pool.run({
            kind: 'thumbnail',
            media: sample.media_type ?? 'image',
            ref: sample.media,
            bytes: await this.media.read(datasetId, sample.media),
          });
          if (!thumbnail) return;
          const rendered =
            thumbnail === ORIGINAL_THUMBNAIL
              ? thumbnail
              : Buffer.from(thumbnail.buffer, thumbnail.byteOffset, thumbnail.byteLength);
          made.push({
            id: sample.id,
            thumbnail: await storeThumbnail(this.blobs, datasetId, sample.id, rendered),
          });
        } catch {
          // Corrupt or unreachable media: the metadata job flags it; the grid shows 'Unable to load image'.
        }
      });
      await this.transact((tx) => tx.samples.setThumbnails(datasetId, made));
      done += samples.length;
      await progress(Math.min(0.99, done / total));
    }
  }
}
