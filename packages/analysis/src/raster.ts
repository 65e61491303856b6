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
 * For each output index along one axis, the source indices it covers and their weights: the
 * overlap of the output cell [i·s, (i+1)·s) with each source pixel, divided by s (s = in/out),
 * so weights sum to 1. Works for shrinking and enlarging alike.
 */
function areaWeights(inSize: number, outSize: number) {
  const scale = inSize / outSize;
  const offsets = new Int32Array(outSize + 1);
  const indices: number[] = [];
  const weights: number[] = [];
  for (let o = 0; o < outSize; o++) {
    const start = o * scale;
    const end = (o + 1) * scale;
    for (let s = Math.floor(start); s < Math.min(inSize, Math.ceil(end)); s++) {
      const overlap = Math.min(end, s + 1) - Math.max(start, s);
      if (overlap > 1e-9) {
        indices.push(s);
        weights.push(overlap / scale);
      }
    }
    offsets[o + 1] = indices.length;
  }
  return { offsets, indices: Int32Array.from(indices), weights: Float32Array.from(weights) };
}

/**
 * Area-averaging resize (like OpenCV's INTER_AREA / a box filter) of one channel of an
 * interleaved buffer: `stride` values per pixel, channel at `offset`. Returns outW·outH values.
 */
export function resizeArea(
  data: ArrayLike<number>,
  width: number,
  height: number,
  stride: number,
  offset: number,
  outW: number,
  outH: number,
): Float32Array {
  const wx = areaWeights(width, outW);
  const wy = areaWeights(height, outH);
  // Horizontal pass first: each source row becomes outW values.
  const rows = new Float32Array(height * outW);
  for (let y = 0; y < height; y++) {
    const rowBase = y * width;
    for (let o = 0; o < outW; o++) {
      let sum = 0;
      for (let k = wx.offsets[o]!; k < wx.offsets[o + 1]!; k++) {
        sum += wx.weights[k]! * data[(rowBase + wx.indices[k]!) * stride + offset]!;
      }
      rows[y * outW + o] = sum;
    }
  }
  const out = new Float32Array(outW * outH);
  for (let o = 0; o < outH; o++) {
    const dst = o * outW;
    for (let k = wy.offsets[o]!; k < wy.offsets[o + 1]!; k++) {
      const w = wy.weights[k]!;
      const src = wy.indices[k]! * outW;
      for (let x = 0; x < outW; x++) out[dst + x]! += w * rows[src + x]!;
    }
  }
  return out;
}
