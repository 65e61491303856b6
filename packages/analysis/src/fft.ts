// Radix-2 FFT of real signals (a half-length complex FFT plus one unpacking pass), and the Hann
// window, for the audio statistics and descriptor.

export interface RealFft {
  /** Transform length (a power of two ≥ 2). */
  size: number;
  /**
   * Spectrum of `input` (length ≤ size; zero-padded) into `re`/`im` (length size/2 + 1):
   * X[k] = Σ x[n]·e^(−2πikn/N) for k = 0..N/2.
   */
  transform(input: ArrayLike<number>, re: Float64Array, im: Float64Array): void;
}

/** Smallest power of two ≥ n (and ≥ 2). */
export function nextPowerOfTwo(n: number): number {
  let size = 2;
  while (size < n) size *= 2;
  return size;
}

/** Periodic Hann window of length n (w[i] = 0.5 − 0.5·cos(2πi/n)), as used for STFTs. */
export function hannWindow(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
}

/** Plans a real FFT of length `size` (twiddles and bit reversal computed once). */
export function createRealFft(size: number): RealFft {
  if (!Number.isInteger(size) || size < 2 || (size & (size - 1)) !== 0) {
    throw new Error(`FFT size must be a power of two ≥ 2, got ${size}`);
  }
  const half = size / 2;
  const reversed = new Uint32Array(half);
  for (let i = 0, bits = Math.log2(half); i < half; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    reversed[i] = r;
  }
  // e^(−2πik/N) for k < N/2: the half-length FFT uses every other one.
  const cos = new Float64Array(half);
  const sin = new Float64Array(half);
  for (let k = 0; k < half; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / size);
    sin[k] = -Math.sin((2 * Math.PI * k) / size);
  }
  const zr = new Float64Array(half);
  const zi = new Float64Array(half);

  function transform(input: ArrayLike<number>, re: Float64Array, im: Float64Array): void {
    if (input.length > size) throw new Error(`FFT input longer than ${size}`);
    // Pack even samples as real parts and odd samples as imaginary parts, bit-reversed.
    for (let i = 0; i < half; i++) {
      const j = reversed[i]!;
      zr[j] = 2 * i < input.length ? input[2 * i]! : 0;
      zi[j] = 2 * i + 1 < input.length ? input[2 * i + 1]! : 0;
    }
    for (let span = 1; span < half; span *= 2) {
      const step = half / span; // twiddle stride in the length-N table (×2 for length N/2)
      for (let start = 0; start < half; start += 2 * span) {
        for (let k = 0; k < span; k++) {
          const wr = cos[k * step]!;
          const wi = sin[k * step]!;
          const a = start + k;
          const b = a + span;
          const tr = wr * zr[b]! - wi * zi[b]!;
          const ti = wr * zi[b]! + wi * zr[b]!;
          zr[b] = zr[a]! - tr;
          zi[b] = zi[a]! - ti;
          zr[a]! += tr;
          zi[a]! += ti;
        }
      }
    }
    // Unpack: X[k] = E[k] + W^k·O[k], E = (Z[k] + conj Z[M−k])/2, O = −i(Z[k] − conj Z[M−k])/2.
    for (let k = 0; k <= half; k++) {
      const a = k % half;
      const b = (half - k) % half;
      const er = (zr[a]! + zr[b]!) / 2;
      const ei = (zi[a]! - zi[b]!) / 2;
      const or = (zi[a]! + zi[b]!) / 2;
      const oi = -(zr[a]! - zr[b]!) / 2;
      const wr = k < half ? cos[k]! : -1;
      const wi = k < half ? sin[k]! : 0;
      re[k] = er + wr * or - wi * oi;
      im[k] = ei + wr * oi + wi * or;
    }
  }

  return { size, transform };
}
