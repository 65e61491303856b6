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

/**
 * When shrinking along an axis, each output cell as a run of whole source pixels
 * [fullStart, fullEnd) plus at most one partly covered pixel at each end (index −1 if none) with
 * its covered fraction. Summing runs needs no per-pixel weights, which keeps the hot loop tight.
 */
function shrinkRuns(inSize: number, outSize: number) {
  const scale = inSize / outSize;
  const snap = (v: number) => (Math.abs(v - Math.round(v)) < 1e-9 ? Math.round(v) : v);
  const fullStart = new Int32Array(outSize);
  const fullEnd = new Int32Array(outSize);
  const left = new Int32Array(outSize).fill(-1);
  const leftWeight = new Float64Array(outSize);
  const right = new Int32Array(outSize).fill(-1);
  const rightWeight = new Float64Array(outSize);
  for (let o = 0; o < outSize; o++) {
    const start = snap(o * scale);
    const end = Math.min(inSize, snap((o + 1) * scale));
    const i0 = Math.ceil(start);
    const i1 = Math.floor(end);
    fullStart[o] = i0;
    fullEnd[o] = Math.max(i0, i1);
    if (i0 > start) {
      left[o] = i0 - 1;
      leftWeight[o] = i0 - start;
    }
    if (end > i1 && i1 < inSize) {
      right[o] = i1;
      rightWeight[o] = end - i1;
    }
  }
  return { scale, fullStart, fullEnd, left, leftWeight, right, rightWeight };
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
  const count = channelOffsets.length;
  const cy = areaContributions(height, outH);
  // Each source row is first reduced to outW values per channel, then spread over output rows.
  const row = new Float64Array(outW * count);
  const acc = new Float64Array(outW * outH * count);
  const reduceRow =
    width >= outW
      ? shrinkRow(data, width, stride, channelOffsets, outW, row)
      : spreadRow(data, width, stride, channelOffsets, outW, row);
  for (let y = 0; y < height; y++) {
    reduceRow(y * width * stride);
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

/** Row reducer for shrinking: runs of whole pixels plus weighted edge pixels. */
function shrinkRow(
  data: ArrayLike<number>,
  width: number,
  stride: number,
  channelOffsets: readonly number[],
  outW: number,
  row: Float64Array,
): (base: number) => void {
  const runs = shrinkRuns(width, outW);
  const { fullStart, fullEnd, left, leftWeight, right, rightWeight } = runs;
  const inverse = 1 / runs.scale;
  const count = channelOffsets.length;
  const [c0 = 0, c1 = 0, c2 = 0] = channelOffsets;
  if (count === 3) {
    // Spelled out for RGB: the hot path of image analysis.
    return (base) => {
      for (let o = 0; o < outW; o++) {
        let a = 0;
        let b = 0;
        let c = 0;
        const end = base + fullEnd[o]! * stride;
        for (let p = base + fullStart[o]! * stride; p < end; p += stride) {
          a += data[p + c0]!;
          b += data[p + c1]!;
          c += data[p + c2]!;
        }
        if (left[o]! >= 0) {
          const w = leftWeight[o]!;
          const p = base + left[o]! * stride;
          a += w * data[p + c0]!;
          b += w * data[p + c1]!;
          c += w * data[p + c2]!;
        }
        if (right[o]! >= 0) {
          const w = rightWeight[o]!;
          const p = base + right[o]! * stride;
          a += w * data[p + c0]!;
          b += w * data[p + c1]!;
          c += w * data[p + c2]!;
        }
        row[3 * o] = a * inverse;
        row[3 * o + 1] = b * inverse;
        row[3 * o + 2] = c * inverse;
      }
    };
  }
  return (base) => {
    for (let o = 0; o < outW; o++) {
      for (let ch = 0; ch < count; ch++) {
        const offset = channelOffsets[ch]!;
        let sum = 0;
        const end = base + fullEnd[o]! * stride;
        for (let p = base + fullStart[o]! * stride; p < end; p += stride) sum += data[p + offset]!;
        if (left[o]! >= 0) sum += leftWeight[o]! * data[base + left[o]! * stride + offset]!;
        if (right[o]! >= 0) sum += rightWeight[o]! * data[base + right[o]! * stride + offset]!;
        row[o * count + ch] = sum * inverse;
      }
    }
  };
}

/** Row reducer for enlarging: each source pixel spread over the output cells it overlaps. */
function spreadRow(
  data: ArrayLike<number>,
  width: number,
  stride: number,
  channelOffsets: readonly number[],
  outW: number,
  row: Float64Array,
): (base: number) => void {
  const cx = areaContributions(width, outW);
  const count = channelOffsets.length;
  return (base) => {
    row.fill(0);
    for (let x = 0, p = base; x < width; x++, p += stride) {
      for (let k = cx.offsets[x]!; k < cx.offsets[x + 1]!; k++) {
        const w = cx.weights[k]!;
        const o = cx.targets[k]! * count;
        for (let c = 0; c < count; c++) row[o + c]! += w * data[p + channelOffsets[c]!]!;
      }
    }
  };
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
