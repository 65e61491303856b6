// Decoded-image plumbing shared by the image statistics, perceptual hash and descriptor:
// input validation, Rec. 601 luma and area-averaging resampling of one channel.

/** Decoded pixels, interleaved, row-major, 8 bits per channel (sharp's `raw()` output). */
export interface RawImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  /** 1 = grey, 3 = RGB, 4 = RGBA (alpha is ignored everywhere). */
  channels: 1 | 3 | 4;
}

/** Rec. 601 luma weights, as JPEG and most "brightness" measures use. */
export const LUMA_WEIGHTS = { r: 0.299, g: 0.587, b: 0.114 } as const;

/** Throws an Error naming the problem when the image's size and buffer do not agree. */
export function assertRawImage(image: RawImage): void {
  const { data, width, height, channels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`Image size must be positive integers, got ${width}×${height}`);
  }
  if (channels !== 1 && channels !== 3 && channels !== 4) {
    throw new Error(`Image channels must be 1, 3 or 4, got ${String(channels)}`);
  }
  if (data.length !== width * height * channels) {
    throw new Error(
      `Image buffer holds ${data.length} bytes, expected ${width}×${height}×${channels} = ${width * height * channels}`,
    );
  }
}

/** Luma (0–255) of every pixel, row-major. Grey images are their own luma. */
export function luma(image: RawImage): Float32Array {
  const { data, width, height, channels } = image;
  const n = width * height;
  const out = new Float32Array(n);
  if (channels === 1) {
    for (let i = 0; i < n; i++) out[i] = data[i]!;
    return out;
  }
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    out[i] =
      LUMA_WEIGHTS.r * data[p]! + LUMA_WEIGHTS.g * data[p + 1]! + LUMA_WEIGHTS.b * data[p + 2]!;
  }
  return out;
}

/**
 * Along one axis, for each source index the output cells it overlaps and its weight in each:
 * overlap of the source pixel with the output cell [o·s, (o+1)·s) divided by s (s = in/out), so
 * every output cell's weights sum to 1. Works for shrinking and enlarging alike.
 */
function areaContributions(inSize: number, outSize: number) {
  const scale = inSize / outSize;
  const offsets = new Int32Array(inSize + 1);
  const targets: number[] = [];
  const weights: number[] = [];
  for (let s = 0; s < inSize; s++) {
    for (let o = Math.floor(s / scale); o < outSize && o * scale < s + 1; o++) {
      const overlap = Math.min(s + 1, (o + 1) * scale) - Math.max(s, o * scale);
      if (overlap > 1e-9) {
        targets.push(o);
        weights.push(overlap / scale);
      }
    }
    offsets[s + 1] = targets.length;
  }
  return { offsets, targets: Int32Array.from(targets), weights: Float64Array.from(weights) };
}

/** First and second output offset (×stride) and second weight per source index (≤ 2 each). */
function contributionPairs(
  contributions: ReturnType<typeof areaContributions>,
  inSize: number,
  stride: number,
) {
  const { offsets, targets, weights } = contributions;
  const first = new Int32Array(inSize);
  const second = new Int32Array(inSize);
  const secondWeight = new Float64Array(inSize);
  for (let s = 0; s < inSize; s++) {
    const k = offsets[s]!;
    first[s] = targets[k]! * stride;
    const hasSecond = offsets[s + 1]! - k > 1;
    second[s] = (hasSecond ? targets[k + 1]! : targets[k]!) * stride;
    secondWeight[s] = hasSecond ? weights[k + 1]! : 0;
  }
  return { first, second, secondWeight };
}

/**
 * Area-averaging resize (a box filter, like OpenCV's INTER_AREA when shrinking) of some channels
 * of an interleaved buffer with `stride` values per pixel, in one pass over the source.
 * Returns one outW·outH plane per entry of `channelOffsets`.
 */
export function resizeAreaChannels(
  data: ArrayLike<number>,
  width: number,
  height: number,
  stride: number,
  channelOffsets: readonly number[],
  outW: number,
  outH: number,
): Float32Array[] {
  const cx = areaContributions(width, outW);
  const cy = areaContributions(height, outH);
  const count = channelOffsets.length;
  // Each source row is first reduced to outW values per channel, then spread over output rows.
  const row = new Float64Array(outW * count);
  const acc = new Float64Array(outW * outH * count);
  const [c0 = 0, c1 = 0, c2 = 0] = channelOffsets;
  // When shrinking, a source column meets at most two output cells: unroll that case.
  const pairs = width >= outW ? contributionPairs(cx, width, count) : undefined;
  for (let y = 0; y < height; y++) {
    row.fill(0);
    const base = y * width * stride;
    // The one- and three-channel loops are spelled out: they are the hot path of image analysis.
    if (count === 3 && pairs !== undefined) {
      const { first, second, secondWeight } = pairs;
      for (let x = 0, p = base; x < width; x++, p += stride) {
        const v0 = data[p + c0]!;
        const v1 = data[p + c1]!;
        const v2 = data[p + c2]!;
        const w2 = secondWeight[x]!;
        const w1 = cx.weights[cx.offsets[x]!]!;
        const o1 = first[x]!;
        const o2 = second[x]!;
        row[o1]! += w1 * v0;
        row[o1 + 1]! += w1 * v1;
        row[o1 + 2]! += w1 * v2;
        row[o2]! += w2 * v0;
        row[o2 + 1]! += w2 * v1;
        row[o2 + 2]! += w2 * v2;
      }
    } else if (count === 1) {
      for (let x = 0, p = base + c0; x < width; x++, p += stride) {
        const v = data[p]!;
        for (let k = cx.offsets[x]!; k < cx.offsets[x + 1]!; k++) {
          row[cx.targets[k]!]! += cx.weights[k]! * v;
        }
      }
    } else {
      for (let x = 0, p = base; x < width; x++, p += stride) {
        for (let k = cx.offsets[x]!; k < cx.offsets[x + 1]!; k++) {
          const w = cx.weights[k]!;
          const o = cx.targets[k]! * count;
          for (let c = 0; c < count; c++) row[o + c]! += w * data[p + channelOffsets[c]!]!;
        }
      }
    }
    for (let k = cy.offsets[y]!; k < cy.offsets[y + 1]!; k++) {
      const w = cy.weights[k]!;
      const o = cy.targets[k]! * outW * count;
      for (let i = 0; i < outW * count; i++) acc[o + i]! += w * row[i]!;
    }
  }
  return channelOffsets.map((_, c) => {
    const plane = new Float32Array(outW * outH);
    for (let i = 0; i < outW * outH; i++) plane[i] = acc[i * count + c]!;
    return plane;
  });
}

/** resizeAreaChannels for the single channel at `offset`. */
export function resizeArea(
  data: ArrayLike<number>,
  width: number,
  height: number,
  stride: number,
  offset: number,
  outW: number,
  outH: number,
): Float32Array {
  return resizeAreaChannels(data, width, height, stride, [offset], outW, outH)[0]!;
}

/** Side of the square thumbnail that the hash and the descriptor are computed from. */
export const THUMBNAIL_SIZE = 64;

/** An image area-averaged to THUMBNAIL_SIZE² (grey images: r, g and b are the same plane). */
export interface Thumbnail {
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  /** Rec. 601 luma of the thumbnail (= the area average of the image's luma, luma being linear). */
  y: Float32Array;
}

/** The shared 64×64 thumbnail of the perceptual hash and the descriptor. */
export function thumbnail(image: RawImage): Thumbnail {
  const { data, width, height, channels } = image;
  const size = THUMBNAIL_SIZE;
  const offsets = channels === 1 ? [0] : [0, 1, 2];
  const [r, g = r, b = r] = resizeAreaChannels(
    data,
    width,
    height,
    channels,
    offsets,
    size,
    size,
  ) as [Float32Array, Float32Array?, Float32Array?];
  const y = channels === 1 ? r : new Float32Array(size * size);
  if (channels !== 1) {
    for (let i = 0; i < size * size; i++) {
      y[i] = LUMA_WEIGHTS.r * r[i]! + LUMA_WEIGHTS.g * g[i]! + LUMA_WEIGHTS.b * b[i]!;
    }
  }
  return { r, g, b, y };
}
