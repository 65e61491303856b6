// Media files of a dataset: uploaded one at a time as they arrive (hashed on the way to their
// content address), listed as missing for resumed uploads, and served with their thumbnails.
import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { MAX_MEDIA_BYTES } from '@loupe/contracts';
import { requireDataset, requireUploadLicense } from '../datasets/datasets.service.js';
import type { DatasetsRepository } from '../datasets/datasets.repository.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, NotFound, PayloadTooLarge, UnsupportedMediaType } from '../platform/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { BLOB_PREFIX, mediaKey } from '../storage/media.js';
import { thumbnailBlobKey } from '../storage/thumbnail-refs.js';
import type { Actor } from '../users/actor.js';
import type { MediaRepository } from './media.repository.js';

// Shared with the CLI, which checks a folder's files against it before uploading any.
export { MAX_MEDIA_BYTES };

/**
 * Media types a browser may run script from when served from our origin: SVG and other XML,
 * HTML, script. Uploads refuse them; blob responses are sandboxed besides (http/range.ts).
 */
export function isActiveContent(type: string): boolean {
  return (
    /[/+]xml$|^text\/(html|xml|javascript|ecmascript)$|^application\/(xhtml|javascript|ecmascript)/.test(
      type,
    ) || type.includes('svg')
  );
}

export interface MediaRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  media: MediaRepository;
}

export class MediaService {
  constructor(
    private readonly repos: MediaRepos,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    /** The largest media file an upload may send (LOUPE_MEDIA_LIMIT_MB). */
    private readonly mediaLimitBytes: number = MAX_MEDIA_BYTES,
  ) {}

  /** The blob key of an uploaded file of this dataset. */
  async mediaBlobKey(datasetId: string, sha: string): Promise<string> {
    const media = await this.repos.media.find(datasetId, sha);
    if (!media) throw new NotFound('No such media in this dataset.');
    return mediaKey(datasetId, sha);
  }

  async thumbnailKey(datasetId: string, base: string): Promise<string> {
    await requireDataset(this.repos.datasets, datasetId);
    return thumbnailBlobKey(datasetId, base);
  }

  /**
   * Stores one media file as it arrives: hashed while it is written to a temporary blob, then
   * moved to its content address. Nothing stays behind when the upload fails or is cut off.
   */
  async uploadMedia(
    actor: Actor,
    datasetId: string,
    body: Readable | Buffer,
    contentType: string,
    declaredBytes?: number,
  ): Promise<{ key: string; size: number }> {
    const limitMb = (this.mediaLimitBytes / 1024 / 1024).toLocaleString('en-US');
    const tooLarge = () =>
      new PayloadTooLarge(
        `The media file is larger than the media upload limit of ${limitMb} MB (LOUPE_MEDIA_LIMIT_MB).`,
      );
    await requireUploadLicense(this.license, actor);
    await requireDataset(this.repos.datasets, datasetId);
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    if (isActiveContent(type))
      throw new UnsupportedMediaType(
        `Media of type ${type} is refused: it can carry scripts. Upload images as JPEG, PNG or WebP and audio as WAV, MP3, FLAC or OGG.`,
      );
    if (declaredBytes !== undefined && declaredBytes > this.mediaLimitBytes) throw tooLarge();
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    const hash = createHash('sha256');
    let size = 0;
    const counted = source.pipe(
      new Transform({
        transform: (chunk: Buffer, _encoding, next) => {
          size += chunk.length;
          if (size > this.mediaLimitBytes) return next(tooLarge());
          hash.update(chunk);
          next(null, chunk);
        },
      }),
    );
    // A cut-off request ends the hashing stream with it, so the write below fails and cleans up.
    source.once('error', (error) => counted.destroy(error));
    source.once('aborted', () => counted.destroy(new BadRequest('The upload was cut off.')));
    const staging = `datasets/${datasetId}/uploads/${randomUUID()}`;
    await this.blobs.putStream(staging, counted, type);
    try {
      if (size === 0) throw new BadRequest('The media body is empty.');
      const sha = hash.digest('hex');
      // Content-addressed: the same bytes land on the same key, so sending them again replaces
      // an identical file (the SDKs ask /media/missing first) and records nothing new. The file
      // is in place before its record, so a recorded key always has its bytes.
      await this.blobs.move(staging, mediaKey(datasetId, sha));
      await this.repos.media.record({
        dataset_id: datasetId,
        key: sha,
        size,
        content_type: type,
        created_at: this.clock(),
      });
      return { key: `${BLOB_PREFIX}${sha}`, size };
    } finally {
      await this.blobs.delete(staging).catch(() => {});
    }
  }

  async missingMedia(datasetId: string, keys: string[]): Promise<string[]> {
    await requireDataset(this.repos.datasets, datasetId);
    const hashes = keys.map((key) =>
      key.startsWith(BLOB_PREFIX) ? key.slice(BLOB_PREFIX.length) : key,
    );
    const known = await this.repos.media.existing(datasetId, hashes);
    return keys.filter((_key, i) => !known.has(hashes[i]!));
  }

  /** Which of the blob references (`blob:<sha256>`) among `refs` the dataset has, by sha256. */
  async uploaded(datasetId: string, refs: string[]): Promise<Set<string>> {
    const hashes = refs
      .filter((ref) => ref.startsWith(BLOB_PREFIX))
      .map((ref) => ref.slice(BLOB_PREFIX.length));
    return this.repos.media.existing(datasetId, [...new Set(hashes)]);
  }
}
