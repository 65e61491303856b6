// n × d float32 rows, centred, as the passes of PCA need them: the sample covariance, the
// covariance applied to a few vectors, and the projection onto directions. The rows are copied
// once into the kernels' memory (stride padded to COLUMN_MULTIPLE) and centred there, and each
// pass runs over fixed slices of them on as many threads as pay; data too large for one
// memory is streamed a block at a time on the calling thread instead, with the same slices and
// blocks, so both ways give the same numbers.

import { availableParallelism } from 'node:os';
import {
  BLOCK_ROWS,
  COLUMN_MULTIPLE,
  createKernels,
  createMemory,
  simdModule,
  VECTOR_MULTIPLE,
  type Kernels,
  type RowKernel,
  type WasmMemory,
} from './kernels.js';
import { ThreadTeam } from './thread-team.js';

/** Largest copy of the rows kept in memory; beyond it, blocks are streamed from the input. */
const MAX_COPY_BYTES = 1 << 30;
/** Slices of the covariance pass, each with its own d × d float64 partial sum. */
const COVARIANCE_SLICES = 4;
/** Slices of the other passes: enough to even out threads that run at different speeds. */
const ROW_SLICES = 8;
/** Below this many multiply-adds (≈ 50 ms on one core) starting threads is not worth it. */
const MIN_THREADED_WORK = 5e8;
/** Threads beyond this many would find no covariance slice to work on. */
const MAX_THREADS = COVARIANCE_SLICES;

export interface CentredRowsOptions {
  /** Most vectors `multiplyCovariance` or `project` will be given. */
  vectors: number;
  /** Whether `covariance()` will be called. */
  covariance: boolean;
  /** Multiply-adds the caller expects to spend, to judge whether threads pay. */
  work: number;
  /** Most threads (default: one per core, up to 4). */
  threads?: number;
  /** false runs the TypeScript kernels (for tests). */
  simd?: boolean;
  /** Largest copy of the rows to keep (tests set it low to exercise streaming). */
  maxCopyBytes?: number;
}

interface Slice {
  /** First row and row count. */
  start: number;
  rows: number;
}

const roundUp = (value: number, multiple: number) => Math.ceil(value / multiple) * multiple;

/** Byte offsets of the kernels' memory regions (16-byte aligned) and its size. */
interface Layout {
  /** Whether `rows` holds a copy of all rows (else one block at a time). */
  inMemory: boolean;
  rows: number;
  /** Column means, float32. */
  mean: number;
  /** Per-slice column sums, then per-slice sums of squares (float64). */
  sums: number;
  /** Vectors to multiply or project onto (float32, rows of dp). */
  vectors: number;
  /** Per-slice scratch of the covariance product. */
  scratch: number;
  /** Per-slice covariance products (float64). */
  partials: number;
  /** Per-slice covariances (float64). */
  covariance: number;
  /** Projections (float32). */
  out: number;
  bytes: number;
}

function layout(n: number, dp: number, vp: number, covariance: boolean, inMemory: boolean): Layout {
  const blocks = inMemory ? Math.ceil(n / BLOCK_ROWS) : 1;
  let bytes = 0;
  const region = (size: number) => {
    const start = bytes;
    bytes += roundUp(size, 16);
    return start;
  };
  const regions = {
    inMemory,
    rows: region(blocks * BLOCK_ROWS * dp * 4),
    mean: region(dp * 4),
    sums: region(2 * ROW_SLICES * dp * 8),
    vectors: region(vp * dp * 4),
    scratch: region(ROW_SLICES * BLOCK_ROWS * vp * 4),
    partials: region(ROW_SLICES * vp * dp * 8),
    covariance: region(covariance ? COVARIANCE_SLICES * dp * dp * 8 : 0),
    out: region(blocks * BLOCK_ROWS * vp * 4),
  };
  return { ...regions, bytes };
}

export class CentredRows {
  /** Column means (float64 sums of the float32 values). */
  readonly mean: Float64Array;
  /** Sum of the per-column sample variances (divided by n − 1). */
  readonly totalVariance: number;
  private readonly dp: number;
  private readonly kernels: Kernels;
  private readonly team: ThreadTeam | null;
  private readonly f32: Float32Array;
  private readonly f64: Float64Array;
  private readonly scale: number;
  private readonly vectorRows: number;
  private readonly at: Layout;

  constructor(
    private readonly data: Float32Array,
    private readonly n: number,
    private readonly d: number,
    options: CentredRowsOptions,
  ) {
    const dp = roundUp(d, COLUMN_MULTIPLE);
    const vp = roundUp(Math.max(1, options.vectors), VECTOR_MULTIPLE);
    this.dp = dp;
    this.vectorRows = vp;
    this.scale = 1 / Math.max(1, n - 1);
    const copyBytes = Math.ceil(n / BLOCK_ROWS) * BLOCK_ROWS * dp * 4;
    let at = layout(
      n,
      dp,
      vp,
      options.covariance,
      copyBytes <= (options.maxCopyBytes ?? MAX_COPY_BYTES),
    );
    let memory: WasmMemory;
    try {
      memory = createMemory(at.bytes);
    } catch (error) {
      // No room for a copy of the rows: stream them instead.
      if (!at.inMemory) throw error;
      at = layout(n, dp, vp, options.covariance, false);
      memory = createMemory(at.bytes);
    }
    this.at = at;
    const simd = options.simd ?? true;
    this.kernels = createKernels(memory, simd);
    this.f32 = new Float32Array(memory.buffer);
    this.f64 = new Float64Array(memory.buffer);
    const threads = Math.min(MAX_THREADS, options.threads ?? availableParallelism());
    this.team =
      simd && at.inMemory && threads > 1 && options.work >= MIN_THREADED_WORK
        ? new ThreadTeam(this.kernels, simdModule(), memory, threads)
        : null;

    try {
      if (this.at.inMemory) this.copyRows(0, n, this.at.rows);
      const sums = this.at.sums;
      const squares = sums + ROW_SLICES * dp * 8;
      const sliced = this.slices(ROW_SLICES);
      this.f64.fill(0, sums / 8, sums / 8 + 2 * ROW_SLICES * dp);
      this.pass('columnSums', sliced, (s) => [dp, sums + s * dp * 8, squares + s * dp * 8], {
        centre: false,
      });
      this.mean = new Float64Array(d);
      for (let s = 0; s < sliced.length; s++) {
        for (let j = 0; j < d; j++) this.mean[j]! += this.f64[sums / 8 + s * dp + j]!;
      }
      for (let j = 0; j < d; j++) {
        this.mean[j]! /= n;
        this.f32[this.at.mean / 4 + j] = this.mean[j]!;
      }
      if (this.at.inMemory)
        this.pass('centre', sliced, () => [dp, this.at.mean], { centre: false });
      // Squares of the centred values: the total variance, exact to float32 rounding.
      this.f64.fill(0, sums / 8, sums / 8 + 2 * ROW_SLICES * dp);
      this.pass('columnSums', sliced, (s) => [dp, sums + s * dp * 8, squares + s * dp * 8]);
      let total = 0;
      for (let s = 0; s < sliced.length; s++) {
        for (let j = 0; j < d; j++) total += this.f64[squares / 8 + s * dp + j]!;
      }
      this.totalVariance = total * this.scale;
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Threads the passes run on. */
  get threads(): number {
    return this.team?.threads ?? 1;
  }

  /** The d × d sample covariance, row-major. */
  covariance(): Float64Array {
    const { d, dp } = this;
    const sliced = this.slices(COVARIANCE_SLICES);
    const at = this.at.covariance;
    this.f64.fill(0, at / 8, at / 8 + sliced.length * dp * dp);
    this.pass('covariance', sliced, (s) => [dp, at + s * dp * dp * 8]);
    const covariance = new Float64Array(d * d);
    for (let i = 0; i < d; i++) {
      for (let j = i; j < d; j++) {
        let sum = 0;
        for (let s = 0; s < sliced.length; s++) sum += this.f64[at / 8 + s * dp * dp + i * dp + j]!;
        covariance[i * d + j] = sum * this.scale;
        covariance[j * d + i] = sum * this.scale;
      }
    }
    return covariance;
  }

  /**
   * The covariance applied to l vectors (the rows of z, l × d), as l × d rows. The vectors are
   * used rounded to float32.
   */
  multiplyCovariance(z: Float64Array, l: number): Float64Array {
    const { d, dp } = this;
    const lp = this.writeVectors(z, l);
    const sliced = this.slices(ROW_SLICES);
    const at = this.at.partials;
    this.f64.fill(0, at / 8, at / 8 + sliced.length * lp * dp);
    this.pass('applyCovariance', sliced, (s) => [
      dp,
      this.at.vectors,
      lp,
      this.at.scratch + s * BLOCK_ROWS * lp * 4,
      at + s * lp * dp * 8,
    ]);
    const w = new Float64Array(l * d);
    for (let s = 0; s < sliced.length; s++) {
      const partial = at / 8 + s * lp * dp;
      for (let a = 0; a < l; a++) {
        for (let j = 0; j < d; j++) w[a * d + j]! += this.f64[partial + a * dp + j]!;
      }
    }
    for (let i = 0; i < w.length; i++) w[i]! *= this.scale;
    return w;
  }

  /** n × k coordinates of the centred rows along the k directions (rows of `directions`). */
  project(directions: Float64Array, k: number): Float32Array {
    const { n, dp } = this;
    const kp = this.writeVectors(directions, k);
    const out = new Float32Array(n * k);
    const copyOut = (start: number, rows: number, from: number) => {
      for (let r = 0; r < rows; r++) {
        const o = from / 4 + r * kp;
        for (let c = 0; c < k; c++) out[(start + r) * k + c] = this.f32[o + c]!;
      }
    };
    const sliced = this.slices(ROW_SLICES);
    if (this.at.inMemory) {
      this.pass('project', sliced, (s) => [
        dp,
        this.at.vectors,
        kp,
        this.at.out + sliced[s]!.start * kp * 4,
      ]);
      copyOut(0, n, this.at.out);
    } else {
      for (const slice of sliced) {
        this.overBlocks(slice, (start, rows) => {
          this.kernels.centre(this.at.rows, rows, dp, this.at.mean);
          this.kernels.project(this.at.rows, rows, dp, this.at.vectors, kp, this.at.out);
          copyOut(start, rows, this.at.out);
        });
      }
    }
    return out;
  }

  /** Ends the worker threads, if any. */
  close(): void {
    this.team?.close();
  }

  /** Writes `count` vectors (rows of d) as float32 rows of dp, zero-padded to a whole tile. */
  private writeVectors(vectors: Float64Array, count: number): number {
    const { d, dp } = this;
    const padded = roundUp(count, VECTOR_MULTIPLE);
    if (padded > this.vectorRows) throw new Error(`At most ${this.vectorRows} vectors`);
    const at = this.at.vectors / 4;
    this.f32.fill(0, at, at + padded * dp);
    for (let a = 0; a < count; a++) {
      for (let j = 0; j < d; j++) this.f32[at + a * dp + j] = vectors[a * d + j]!;
    }
    return padded;
  }

  /** Up to `count` runs of whole blocks covering the rows (the last may be short). */
  private slices(count: number): Slice[] {
    const blocks = Math.ceil(this.n / BLOCK_ROWS);
    const perSlice = Math.ceil(blocks / count);
    const out: Slice[] = [];
    for (let block = 0; block < blocks; block += perSlice) {
      const start = block * BLOCK_ROWS;
      out.push({ start, rows: Math.min(this.n, (block + perSlice) * BLOCK_ROWS) - start });
    }
    return out;
  }

  /**
   * Runs a kernel on every slice: `kernel(rows pointer, row count, ...extra(slice))`. Streaming,
   * each block is copied in (and centred, unless told not to) first.
   */
  private pass(
    kernel: RowKernel,
    sliced: Slice[],
    extra: (slice: number) => number[],
    { centre = true }: { centre?: boolean } = {},
  ): void {
    if (this.at.inMemory) {
      const args = sliced.map((slice, s) => [
        this.at.rows + slice.start * this.dp * 4,
        slice.rows,
        ...extra(s),
      ]);
      if (this.team) this.team.run(kernel, args);
      else for (const a of args) (this.kernels[kernel] as (...args: number[]) => void)(...a);
      return;
    }
    sliced.forEach((slice, s) => {
      const rest = extra(s);
      this.overBlocks(slice, (start, rows) => {
        if (centre) this.kernels.centre(this.at.rows, rows, this.dp, this.at.mean);
        (this.kernels[kernel] as (...args: number[]) => void)(this.at.rows, rows, ...rest);
      });
    });
  }

  /** Streaming: copies each block of the slice into the rows region, then calls `body`. */
  private overBlocks(slice: Slice, body: (start: number, rows: number) => void): void {
    for (let start = slice.start; start < slice.start + slice.rows; start += BLOCK_ROWS) {
      const rows = Math.min(BLOCK_ROWS, slice.start + slice.rows - start);
      this.copyRows(start, rows, this.at.rows);
      body(start, rows);
    }
  }

  /** Copies rows [start, start + rows) of the input to `at`, dp floats apart. */
  private copyRows(start: number, rows: number, at: number): void {
    const { d, dp, data } = this;
    if (d === dp) {
      this.f32.set(data.subarray(start * d, (start + rows) * d), at / 4);
      return;
    }
    for (let r = 0; r < rows; r++) {
      const from = (start + r) * d;
      this.f32.set(data.subarray(from, from + d), at / 4 + r * dp);
    }
  }
}
