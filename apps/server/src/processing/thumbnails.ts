// Thumbnails: the WebP picture grid cards, the item viewer's filmstrip and dataset cards show for
// a sample, rendered from decoded pixels or a file. An uploaded file that is already a grid-sized
// web image is its own thumbnail: nothing is encoded. The metadata pass and the thumbnails job
// (thumbnails/) render them here.
import sharp from 'sharp';
import type { BlobStore } from '../storage/blob-store.js';
import { BLOB_PREFIX } from '../storage/media.js';
import { ORIGINAL_THUMBNAIL, thumbnailBase, thumbnailBlobKey } from '../storage/thumbnail-refs.js';
import {
  ANALYSIS_MAX_SIDE,
  decodeAudio,
  DEFAULT_MAX_PIXELS,
  openImage,
  spectrogramPixels,
  type ComputedMedia,
  type ImageHeader,
  type ImageLimits,
} from './media-metadata.js';

/**
 * Longest side of the thumbnail. Grid cards are 120–384 px wide (192 by default), so 512 px
 * covers the default and middle sizes at 2× density; the filmstrip (80×56) and dataset cards show
 * the same file smaller. It is the analysis size, so the metadata pass's pixels are the thumbnail
 * as they are.
 */
export const THUMBNAIL_MAX_SIDE = ANALYSIS_MAX_SIDE;

/**
 * An uploaded image is shown as it is, instead of through a WebP thumbnail, when it is a file every
 * browser draws (JPEG, PNG, WebP) of at most this many pixels on its longest side — COCO, VOC and
 * most web-collected sets, where a 512 px re-encode would cost CPU and storage and lose detail
 * for a few kilobytes less — and of at most ORIGINAL_THUMBNAIL_MAX_BYTES.
 */
export const ORIGINAL_THUMBNAIL_MAX_SIDE = 640;
export const ORIGINAL_THUMBNAIL_MAX_BYTES = 200 * 1024;

export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * Whether an uploaded file can be its own grid thumbnail: a still JPEG, PNG or WebP in sRGB or
 * grey, no EXIF rotation (the thumbnail would be upright, the file is not), small in pixels and
 * bytes. Files read from a URL or a path always get a thumbnail: the grid must not fetch them.
 */
export function servesAsOwnThumbnail(media: string, header: ImageHeader, bytes: number): boolean {
  return (
    media.startsWith(BLOB_PREFIX) &&
    (header.format === 'jpeg' || header.format === 'png' || header.format === 'webp') &&
    (header.space === 'srgb' || header.space === 'b-w') &&
    (header.orientation ?? 1) === 1 &&
    (header.pages ?? 1) === 1 &&
    Math.max(header.width ?? Infinity, header.height ?? Infinity) <= ORIGINAL_THUMBNAIL_MAX_SIDE &&
    bytes <= ORIGINAL_THUMBNAIL_MAX_BYTES
  );
}

/**
 * WebP encoder settings. Effort 0 (libwebp's fastest method) encodes a 512 px thumbnail in about
 * 70 % of effort 1's time at the same quality (PSNR within 0.01 dB, files about 2 % larger): see
 * docs/performance.md.
 */
const WEBP = { quality: 78, effort: 0 } as const;

/**
 * The thumbnail from decoded (already rotated) pixels: no second decode of the file. Pixels that
 * already fit (the metadata pass decodes to that size) are encoded as they are.
 */
export async function thumbnailFromPixels(pixels: RawPixels): Promise<Buffer> {
  return sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
  })
    .resize({
      width: THUMBNAIL_MAX_SIDE,
      height: THUMBNAIL_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .webp(WEBP)
    .toBuffer();
}

/**
 * The thumbnail of a sample the metadata pass has just measured, from what it read and decoded:
 * the file itself when it qualifies, else the WebP of its pixels. Undefined without pixels.
 */
export async function thumbnailFromComputed(
  media: string,
  computed: ComputedMedia,
): Promise<Buffer | typeof ORIGINAL_THUMBNAIL | undefined> {
  if (computed.file && servesAsOwnThumbnail(media, computed.file.header, computed.file.bytes))
    return ORIGINAL_THUMBNAIL;
  return computed.pixels && thumbnailFromPixels(computed.pixels);
}

/**
 * A sample's thumbnail from its file: ORIGINAL_THUMBNAIL when the file serves as its own, else
 * the WebP of the decoded image (EXIF orientation honoured) or, for audio, of its spectrogram.
 */
export async function renderThumbnail(
  media: string,
  bytes: Buffer,
  mediaType: 'image' | 'audio' = 'image',
  limits: ImageLimits = { maxPixels: DEFAULT_MAX_PIXELS },
): Promise<Buffer | typeof ORIGINAL_THUMBNAIL> {
  if (mediaType === 'audio')
    return thumbnailFromPixels(spectrogramPixels(await decodeAudio(bytes)));
  const { image, meta } = await openImage(bytes, sharp, limits);
  if (servesAsOwnThumbnail(media, meta, bytes.length)) return ORIGINAL_THUMBNAIL;
  const { data, info } = await image
    .rotate()
    .resize({
      width: THUMBNAIL_MAX_SIDE,
      height: THUMBNAIL_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return thumbnailFromPixels({
    data,
    width: info.width,
    height: info.height,
    channels: info.channels,
  });
}

/** Stores a rendered thumbnail; answers the value of the sample's `thumbnail` column. */
export async function storeThumbnail(
  blobs: BlobStore,
  datasetId: string,
  sampleId: string,
  rendered: Buffer | typeof ORIGINAL_THUMBNAIL,
): Promise<string> {
  if (rendered === ORIGINAL_THUMBNAIL) return ORIGINAL_THUMBNAIL;
  const base = thumbnailBase(sampleId);
  await blobs.put(thumbnailBlobKey(datasetId, base), rendered, 'image/webp');
  return base;
}
