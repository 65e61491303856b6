// 64-bit DCT perceptual hash (pHash) for near-duplicate detection, and the Hamming distance
// between two hashes.

import {
  assertRawImage,
  THUMBNAIL_SIZE,
  thumbnail,
  type RawImage,
  type Thumbnail,
} from './raster.js';

const SIZE = 32;
const BLOCK = 8;

// cos((2x + 1)·u·π / 64) for u = 1..8, x = 0..31: the DCT-II basis rows the hash keeps.
const BASIS = (() => {
  const basis = new Float64Array(BLOCK * SIZE);
  for (let u = 0; u < BLOCK; u++) {
    for (let x = 0; x < SIZE; x++) {
      basis[u * SIZE + x] = Math.cos(((2 * x + 1) * (u + 1) * Math.PI) / (2 * SIZE));
    }
  }
  return basis;
})();

/**
 * pHash as phash.org defines it: luma area-averaged to 32×32, 2-D DCT-II, the 8×8 block of
 * frequencies 1..8 in each direction (dropping the DC row and column, so brightness and a
 * uniform gradient's offset do not count), each bit = coefficient > median of the 64.
 * Returned as 16 lowercase hex digits, bit 63 (the first) = frequency (1, 1), row-major.
 */
export function perceptualHash(image: RawImage): string {
  assertRawImage(image);
  return perceptualHashFromThumbnail(thumbnail(image));
}

/**
 * perceptualHash from the shared 64×64 thumbnail: averaging its luma over 2×2 blocks gives
 * exactly the 32×32 area average of the image's luma.
 */
export function perceptualHashFromThumbnail({ y }: Thumbnail): string {
  const small = new Float64Array(SIZE * SIZE);
  const t = THUMBNAIL_SIZE;
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const i = 2 * r * t + 2 * c;
      small[r * SIZE + c] = (y[i]! + y[i + 1]! + y[i + t]! + y[i + t + 1]!) / 4;
    }
  }
  // Rows transform: tmp[u][x] = Σ_r basis[u][r]·small[r][x]; then columns.
  const tmp = new Float64Array(BLOCK * SIZE);
  for (let u = 0; u < BLOCK; u++) {
    for (let r = 0; r < SIZE; r++) {
      const b = BASIS[u * SIZE + r]!;
      for (let x = 0; x < SIZE; x++) tmp[u * SIZE + x]! += b * small[r * SIZE + x]!;
    }
  }
  const coefficients = new Float64Array(BLOCK * BLOCK);
  for (let u = 0; u < BLOCK; u++) {
    for (let v = 0; v < BLOCK; v++) {
      let sum = 0;
      for (let x = 0; x < SIZE; x++) sum += tmp[u * SIZE + x]! * BASIS[v * SIZE + x]!;
      coefficients[u * BLOCK + v] = sum;
    }
  }
  const sorted = Float64Array.from(coefficients).sort();
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hex = '';
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) {
      value = (value << 1) | (coefficients[nibble * 4 + bit]! > median ? 1 : 0);
    }
    hex += value.toString(16);
  }
  return hex;
}

const HASH = /^[0-9a-f]{16}$/i;

/** Number of differing bits between two 16-hex-digit hashes (0–64). */
export function hammingDistance(a: string, b: string): number {
  if (!HASH.test(a) || !HASH.test(b)) {
    throw new Error(`Hashes must be 16 hexadecimal digits, got "${a}" and "${b}"`);
  }
  let distance = 0;
  for (let half = 0; half < 16; half += 8) {
    let x = (parseInt(a.slice(half, half + 8), 16) ^ parseInt(b.slice(half, half + 8), 16)) >>> 0;
    while (x !== 0) {
      x &= x - 1;
      distance++;
    }
  }
  return distance;
}
