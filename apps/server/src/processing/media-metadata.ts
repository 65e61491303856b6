// Decodes one media file and turns @loupe/analysis's measurements into metadata values and a
// default feature vector. Images are decoded once, at most ANALYSIS_MAX_SIDE px on their longest
// side (JPEG shrink-on-load makes a 24-megapixel photo cost about what a web image does); the
// statistics, hash, descriptor and both thumbnails all come from those pixels. Runs on the
// media worker threads (media.worker.ts), never on the API's event loop.
import { createHash } from 'node:crypto';
import {
  analyzeAudio,
  analyzeImage,
  boxStatistics,
  decodeWav,
  spectrogramImage,
} from '@loupe/analysis';
import type { Metadata, Sharp } from 'sharp';
import type sharpModule from 'sharp';

/**
 * Longest side of the pixels every image statistic is measured on: the grid thumbnail's size, so
 * one decode serves both. Width, height and format come from the file's header, not from these.
 */
export const ANALYSIS_MAX_SIDE = 512;

/** Default of LOUPE_MEDIA_MAX_PIXELS: 100 megapixels, e.g. 12,000 × 8,000 (a large camera's photo). */
export const DEFAULT_MAX_PIXELS = 100_000_000;

/** What an image's header may claim before it is decoded. */
export interface ImageLimits {
  maxPixels: number;
}

/**
 * Refuses an image whose header claims more than `maxPixels` pixels (a decompression bomb: a few
 * kilobytes of PNG can claim 10 gigapixels), before anything is decoded.
 */
export function checkImageSize(meta: ImageHeader, { maxPixels }: ImageLimits): void {
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > maxPixels)
    throw new Error(
      `image of ${width} × ${height} pixels is over the limit of ${maxPixels / 1e6} megapixels`,
    );
}

/**
 * An image's sharp instance, limited to `maxPixels` (libvips's own guard, also for formats whose
 * header it cannot size), and its header, refused by checkImageSize. libvips refuses an image
 * over its limit without saying its size, so a refused header is read once more to say it.
 */
export async function openImage(
  bytes: Buffer,
  sharp: typeof sharpModule,
  limits: ImageLimits,
): Promise<{ image: Sharp; meta: Metadata }> {
  const image = sharp(bytes, { failOn: 'error', limitInputPixels: limits.maxPixels });
  let meta: Metadata;
  try {
    meta = await image.metadata();
  } catch (error) {
    if (!/pixel limit/.test((error as Error).message)) throw error;
    checkImageSize(await sharp(bytes, { limitInputPixels: false }).metadata(), limits);
    throw error;
  }
  checkImageSize(meta, limits);
  return { image, meta };
}

export type MetadataValues = Record<string, number | string | boolean | null>;

export interface ComputedMedia {
  values: MetadataValues;
  vector: Float32Array | null;
  /** The decoded, rotated image (at most ANALYSIS_MAX_SIDE), for thumbnails without a second decode. */
  pixels?: { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 };
  /** An image file's header and size, for deciding whether it is its own thumbnail. */
  file?: { header: ImageHeader; bytes: number };
}

/** What a file's header says, as far as the thumbnail rule needs it (a subset of sharp's metadata()). */
export interface ImageHeader {
  format?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  orientation?: number | undefined;
  space?: string | undefined;
  pages?: number | undefined;
}

/** Hex digits of the content hash: 64 bits, so a chance collision needs ~4·10⁹ items. */
const CONTENT_HASH_HEX = 16;

/** 32-bit unsigned integers, little-endian, as the bytes a hash takes. */
function uint32s(...values: number[]): Buffer {
  const out = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => out.writeUInt32LE(v >>> 0, 4 * i));
  return out;
}

/**
 * `image.content_hash`: sha256 over the original size, the channel count and the decoded, rotated
 * analysis pixels, cut to 16 hex digits. Two files with the same picture hash alike whatever
 * their encoding (PNG and lossless WebP), so the duplicate checks find them (docs/health-checks.md).
 */
export function imageContentHash(
  width: number,
  height: number,
  pixels: { data: Uint8Array; width: number; height: number; channels: number },
): string {
  return createHash('sha256')
    .update(uint32s(width, height, pixels.width, pixels.height, pixels.channels))
    .update(pixels.data)
    .digest('hex')
    .slice(0, CONTENT_HASH_HEX);
}

/** `audio.content_hash`: sha256 over the sample rate, channel count and every channel's float samples. */
export function audioContentHash(decoded: {
  channels: Float32Array[];
  sampleRate: number;
}): string {
  const hash = createHash('sha256').update(
    uint32s(decoded.sampleRate, decoded.channels.length, decoded.channels[0]?.length ?? 0),
  );
  for (const channel of decoded.channels)
    hash.update(new Uint8Array(channel.buffer, channel.byteOffset, channel.byteLength));
  return hash.digest('hex').slice(0, CONTENT_HASH_HEX);
}

export async function computeImageMetadata(
  bytes: Buffer,
  sharp: typeof sharpModule,
  limits: ImageLimits = { maxPixels: DEFAULT_MAX_PIXELS },
): Promise<ComputedMedia> {
  // The header only (no decode): the original size and format.
  const { image, meta } = await openImage(bytes, sharp, limits);
  // EXIF orientations 5–8 swap width and height.
  const swapped = (meta.orientation ?? 1) >= 5;
  const width = (swapped ? meta.height : meta.width) ?? 0;
  const height = (swapped ? meta.width : meta.height) ?? 0;
  const { data, info } = await image
    .rotate()
    // fastShrinkOnLoad off: WebP's shrink-on-load would otherwise give other pixels than the same
    // picture in PNG, and the content hash is meant to match across lossless encodings (JPEG
    // still shrinks on load, by a smaller factor).
    .resize({
      width: ANALYSIS_MAX_SIDE,
      height: ANALYSIS_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
      fastShrinkOnLoad: false,
    })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const analysis = analyzeImage({
    data,
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3 | 4,
  });
  const s = analysis.statistics;
  const pixels = { data, width: info.width, height: info.height, channels: info.channels };
  return {
    values: {
      'image.width': width,
      'image.height': height,
      'image.aspect_ratio': height > 0 ? width / height : null,
      'image.file_size': bytes.length,
      'image.format': meta.format ?? 'unknown',
      'image.brightness': s.brightness,
      'image.contrast': s.contrast,
      'image.sharpness': s.sharpness,
      'image.colorfulness': s.colorfulness,
      'image.phash': analysis.phash,
      'image.content_hash': imageContentHash(width, height, pixels),
      'image.corrupt': false,
    },
    vector: analysis.descriptor,
    pixels,
    file: { header: meta, bytes: bytes.length },
  };
}

const isWav = (bytes: Buffer) =>
  bytes.length >= 12 &&
  bytes.toString('latin1', 0, 4) === 'RIFF' &&
  bytes.toString('latin1', 8, 12) === 'WAVE';

/** PCM channels of a WAV (our own decoder) or of MP3, FLAC, OGG/Vorbis, … (audio-decode). */
export async function decodeAudio(
  bytes: Buffer,
): Promise<{ channels: Float32Array[]; sampleRate: number }> {
  if (isWav(bytes))
    return decodeWav(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const { default: decode } = await import('audio-decode');
  const decoded = (await decode(bytes)) as { channelData?: Float32Array[]; sampleRate?: number };
  if (!decoded.channelData?.length || !decoded.sampleRate)
    throw new Error('The audio file could not be decoded');
  return { channels: decoded.channelData, sampleRate: decoded.sampleRate };
}

/** The picture audio items show where images show themselves: their spectrogram. */
export function spectrogramPixels(decoded: {
  channels: Float32Array[];
  sampleRate: number;
}): NonNullable<ComputedMedia['pixels']> {
  const image = spectrogramImage(decoded.channels, decoded.sampleRate);
  return {
    data: Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    width: image.width,
    height: image.height,
    channels: 3,
  };
}

export async function computeAudioMetadata(bytes: Buffer): Promise<ComputedMedia> {
  const decoded = await decodeAudio(bytes);
  const { statistics: s, descriptor } = analyzeAudio(decoded.channels, decoded.sampleRate);
  return {
    values: {
      'audio.duration': s.duration,
      'audio.sample_rate': s.sample_rate,
      'audio.channels': s.channels,
      'audio.file_size': bytes.length,
      'audio.rms_dbfs': s.rms_dbfs,
      'audio.peak_dbfs': s.peak_dbfs,
      'audio.clipped_fraction': s.clipped_fraction,
      'audio.silence_fraction': s.silence_fraction,
      'audio.spectral_centroid': s.spectral_centroid,
      'audio.content_hash': audioContentHash(decoded),
      'audio.corrupt': false,
    },
    vector: descriptor,
    pixels: spectrogramPixels(decoded),
  };
}

export function objectMetadata(
  object: {
    label: string;
    x: number | null;
    y: number | null;
    w: number | null;
    h: number | null;
  },
  imageWidth: number | undefined,
  imageHeight: number | undefined,
): MetadataValues {
  const values: MetadataValues = { 'object.label': object.label };
  if (object.x === null || object.y === null || object.w === null || object.h === null)
    return values;
  const w = object.w;
  const h = object.h;
  values['object.area'] = w * h;
  values['object.aspect_ratio'] = h > 0 ? w / h : null;
  if (imageWidth && imageHeight) {
    const stats = boxStatistics([object.x, object.y, w, h], imageWidth, imageHeight);
    values['object.area'] = stats.area;
    values['object.relative_area'] = stats.relative_area;
  }
  return values;
}
