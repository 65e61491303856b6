// UMAP's SGD layout on several threads (script-team.ts), deterministic for a seed whatever the
// number of threads: each epoch, every vertex is moved only by the slice that owns it, along its
// own edges, against the positions all vertices had at the start of the epoch (two buffers, read
// one and write the other); its negative samples come from a generator seeded by (seed, vertex,
// epoch). So no thread ever writes what another reads during an epoch, and what a vertex does
// does not depend on which thread ran it or when.

import { defaultThreads, ScriptTeam } from './script-team.js';

/** Directed layout edges grouped by head vertex: vertex i's edges are headStart[i]…[i+1]. */
export interface HeadEdges {
  headStart: Int32Array;
  tail: Int32Array;
  epochsPerSample: Float64Array;
}

/**
 * x^b for x > 0 from the IEEE-754 bits: 2^(e·b) · m^b with x = 2^e · m, the first factor from a
 * table and the second interpolated in a 2,048-entry table (relative error < 10⁻⁷; 16 KB each,
 * so both stay in L1). Math.pow costs ≈ 55 ns in V8 and was most of the SGD time. Falls back to
 * Math.pow on a big-endian machine. Self-contained: the layout's worker threads run its source.
 */
export function createFastPow(b: number): (x: number) => number {
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  bits[0] = 1;
  if (words[1] !== 0x3ff00000) return (x) => Math.pow(x, b);
  const exponents = new Float64Array(2048);
  for (let e = 1; e < 2047; e++) exponents[e] = Math.pow(2, (e - 1023) * b);
  const mantissas = new Float64Array(2049);
  for (let m = 0; m <= 2048; m++) mantissas[m] = Math.pow(1 + m / 2048, b);
  return (x) => {
    bits[0] = x;
    const hi = words[1]!;
    const m = (hi >>> 9) & 0x7ff;
    // The 9 remaining high-word bits place x within its table interval.
    const frac = (hi & 0x1ff) * (1 / 512);
    const lo = mantissas[m]!;
    return exponents[(hi >>> 20) & 0x7ff]! * (lo + (mantissas[m + 1]! - lo) * frac);
  };
}

interface LayoutShared {
  /** Float32 (2 · 2n): the positions at the start of even epochs, then of odd ones. */
  positions: SharedArrayBuffer;
  headStart: SharedArrayBuffer;
  tail: SharedArrayBuffer;
  epochsPerSample: SharedArrayBuffer;
  /** Float64 (4 · edges): next sample, epochs per negative sample, next negative sample. */
  schedule: SharedArrayBuffer;
  n: number;
  nEpochs: number;
  a: number;
  b: number;
  seed: number;
}

/**
 * The worker program: one kernel, `epoch(lo, hi, epoch)`, moving vertices lo…hi − 1 for one epoch.
 * umap-learn moves both ends of an edge; here each vertex moves only itself, along each of its
 * edges (the graph holds both directions of every edge), so its attraction counts twice to keep
 * umap-learn's balance between attraction and repulsion.
 */
function layoutProgram(shared: LayoutShared) {
  const { n, nEpochs, a, b, seed } = shared;
  const positions = new Float32Array(shared.positions);
  const front = positions.subarray(0, 2 * n);
  const back = positions.subarray(2 * n, 4 * n);
  const headStart = new Int32Array(shared.headStart);
  const tail = new Int32Array(shared.tail);
  const epochsPerSample = new Float64Array(shared.epochsPerSample);
  const count = tail.length;
  const schedule = new Float64Array(shared.schedule);
  const nextSample = schedule.subarray(0, count);
  const epochsPerNegative = schedule.subarray(count, 2 * count);
  const nextNegative = schedule.subarray(2 * count, 3 * count);
  const pow = createFastPow(b);
  const toIndex = n / 4294967296;
  const twoAB = 2 * a * b;
  const twoB = 2 * b;
  return {
    epoch(lo: number, hi: number, epoch: number): void {
      const read = (epoch & 1) === 0 ? front : back;
      const write = (epoch & 1) === 0 ? back : front;
      const alpha = 1 - epoch / nEpochs;
      for (let i = lo; i < hi; i++) {
        const j = 2 * i;
        let cx = read[j]!;
        let cy = read[j + 1]!;
        // xorshift32 seeded by a hash of (seed, vertex, epoch) (lowbias32's finaliser).
        let state = (seed ^ Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(epoch + 1, 0x85ebca77)) | 0;
        state = Math.imul(state ^ (state >>> 16), 0x7feb352d);
        state = Math.imul(state ^ (state >>> 15), 0x846ca68b);
        state ^= state >>> 16;
        if (state === 0) state = 1;
        for (let e = headStart[i]!, end = headStart[i + 1]!; e < end; e++) {
          if (nextSample[e]! > epoch) continue;
          const k = tail[e]! * 2;
          const dx = cx - read[k]!;
          const dy = cy - read[k + 1]!;
          const d2 = dx * dx + dy * dy;
          if (d2 > 0) {
            const pb = pow(d2);
            const coeff = (-twoAB * (pb / d2)) / (a * pb + 1);
            let gx = coeff * dx;
            let gy = coeff * dy;
            gx = gx > 4 ? 4 : gx < -4 ? -4 : gx;
            gy = gy > 4 ? 4 : gy < -4 ? -4 : gy;
            cx += 2 * gx * alpha;
            cy += 2 * gy * alpha;
          }
          nextSample[e]! += epochsPerSample[e]!;

          const negatives = Math.floor((epoch - nextNegative[e]!) / epochsPerNegative[e]!);
          for (let p = 0; p < negatives; p++) {
            state ^= state << 13;
            state ^= state >>> 17;
            state ^= state << 5;
            const other = (((state >>> 0) * toIndex) | 0) * 2;
            if (other === j) continue;
            const ox = cx - read[other]!;
            const oy = cy - read[other + 1]!;
            const o2 = ox * ox + oy * oy;
            if (o2 <= 0) continue;
            const coeff = twoB / ((0.001 + o2) * (a * pow(o2) + 1));
            let gx = coeff * ox;
            let gy = coeff * oy;
            gx = gx > 4 ? 4 : gx < -4 ? -4 : gx;
            gy = gy > 4 ? 4 : gy < -4 ? -4 : gy;
            cx += gx * alpha;
            cy += gy * alpha;
          }
          nextNegative[e]! += negatives * epochsPerNegative[e]!;
        }
        write[j] = cx;
        write[j + 1] = cy;
      }
    },
  };
}

function sharedCopy<T extends Int32Array | Float64Array | Float32Array>(
  array: T,
  make: (buffer: SharedArrayBuffer) => T,
): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(array.byteLength);
  make(buffer).set(array);
  return buffer;
}

/** Vertex slices handed out to the threads: enough that a slow thread never holds up the rest. */
const LAYOUT_SLICES = 48;

/**
 * The SGD of umap.ts on `threads` threads (default: the cores, at most 8); the same layout for
 * the same inputs and seed whatever the number of threads. Overwrites `embedding`.
 */
export function optimizeLayoutParallel(
  embedding: Float64Array,
  n: number,
  edges: HeadEdges,
  nEpochs: number,
  a: number,
  b: number,
  negativeSampleRate: number,
  seed: number,
  threads: number = defaultThreads(),
  onProgress: (fraction: number) => void = () => {},
): void {
  const count = edges.tail.length;
  const positions = new SharedArrayBuffer(4 * 4 * n);
  new Float32Array(positions, 0, 2 * n).set(embedding);
  const schedule = new SharedArrayBuffer(3 * 8 * count);
  const scheduleView = new Float64Array(schedule);
  for (let e = 0; e < count; e++) {
    const perSample = edges.epochsPerSample[e]!;
    scheduleView[e] = perSample;
    scheduleView[count + e] = perSample / negativeSampleRate;
    scheduleView[2 * count + e] = perSample / negativeSampleRate;
  }
  const shared: LayoutShared = {
    positions,
    headStart: sharedCopy(edges.headStart, (s) => new Int32Array(s)),
    tail: sharedCopy(edges.tail, (s) => new Int32Array(s)),
    epochsPerSample: sharedCopy(edges.epochsPerSample, (s) => new Float64Array(s)),
    schedule,
    n,
    nEpochs,
    a,
    b,
    seed: seed | 0,
  };
  const slices = Math.min(LAYOUT_SLICES, n);
  const bounds = Array.from({ length: slices + 1 }, (_, s) => Math.round((s * n) / slices));
  const team = new ScriptTeam(layoutProgram, shared, threads, { helpers: [createFastPow] });
  try {
    for (let epoch = 0; epoch < nEpochs; epoch++) {
      team.run(
        'epoch',
        Array.from({ length: slices }, (_, s) => [bounds[s]!, bounds[s + 1]!, epoch]),
      );
      if ((epoch & 7) === 7) onProgress((epoch + 1) / nEpochs);
    }
  } finally {
    team.close();
  }
  const last = new Float32Array(positions, (nEpochs & 1) === 0 ? 0 : 8 * n, 2 * n);
  embedding.set(last);
  onProgress(1);
}

interface ProductShared {
  rowStart: SharedArrayBuffer;
  cols: SharedArrayBuffer;
  weights: SharedArrayBuffer;
  /** Float64 (2 · 2n): two interleaved pairs of vectors, read one and write the other. */
  vectors: SharedArrayBuffer;
  n: number;
}

/** `half(lo, hi, from)`: rows lo…hi − 1 of (v + Wv) / 2 for both vectors of pair `from`. */
function productProgram(shared: ProductShared) {
  const { n } = shared;
  const rowStart = new Int32Array(shared.rowStart);
  const cols = new Int32Array(shared.cols);
  const weights = new Float64Array(shared.weights);
  const vectors = new Float64Array(shared.vectors);
  const pairs = [vectors.subarray(0, 2 * n), vectors.subarray(2 * n, 4 * n)];
  return {
    half(lo: number, hi: number, from: number): void {
      const v = pairs[from]!;
      const out = pairs[1 - from]!;
      for (let i = lo; i < hi; i++) {
        let s0 = 0;
        let s1 = 0;
        for (let t = rowStart[i]!, e = rowStart[i + 1]!; t < e; t++) {
          const j = cols[t]!;
          const w = weights[t]!;
          s0 += w * v[2 * j]!;
          s1 += w * v[2 * j + 1]!;
        }
        out[2 * i] = 0.5 * (v[2 * i]! + s0);
        out[2 * i + 1] = 0.5 * (v[2 * i + 1]! + s1);
      }
    },
  };
}

/**
 * (v + Wv) / 2 for two interleaved vectors and a sparse symmetric W in CSR form, rows split
 * across threads: the spectral initialisation's product, with the same sums in the same order
 * as on one thread. `pairs[0]` and `pairs[1]` are the two buffers; `half(from)` reads one and
 * writes the other.
 */
export class ParallelHalfProduct {
  readonly pairs: [Float64Array, Float64Array];
  private readonly team: ScriptTeam<ProductShared, ReturnType<typeof productProgram>>;
  private readonly slices: number[][];

  constructor(rowStart: Int32Array, cols: Int32Array, weights: Float64Array, threads: number) {
    const n = rowStart.length - 1;
    const vectors = new SharedArrayBuffer(8 * 4 * n);
    this.pairs = [new Float64Array(vectors, 0, 2 * n), new Float64Array(vectors, 16 * n, 2 * n)];
    const shared: ProductShared = {
      rowStart: sharedCopy(rowStart, (s) => new Int32Array(s)),
      cols: sharedCopy(cols, (s) => new Int32Array(s)),
      weights: sharedCopy(weights, (s) => new Float64Array(s)),
      vectors,
      n,
    };
    this.team = new ScriptTeam(productProgram, shared, threads);
    const slices = Math.min(LAYOUT_SLICES, n);
    this.slices = Array.from({ length: slices }, (_, s) => [
      Math.round((s * n) / slices),
      Math.round(((s + 1) * n) / slices),
    ]);
  }

  half(from: 0 | 1): void {
    this.team.run(
      'half',
      this.slices.map(([lo, hi]) => [lo!, hi!, from]),
    );
  }

  close(): void {
    this.team.close();
  }
}
