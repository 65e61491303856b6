// The loops PCA spends its time in, as WebAssembly SIMD emitted at run time: the passes over
// float32 rows (covariance, covariance times a block of vectors, projection, column sums,
// centring; four float32 lanes) and the float64 steps of the symmetric eigensolver (two lanes),
// with a plain TypeScript twin of the same arithmetic where WebAssembly SIMD is missing. Every
// pointer is a byte offset into one memory, 16-byte aligned for the row passes; every count is
// in elements.
//
// Shapes: rows are `dp` floats apart, dp a multiple of COLUMN_MULTIPLE (padding columns zero);
// vector blocks (z, dirs) are `dp` floats apart and come in multiples of VECTOR_MULTIPLE. Rows
// are consumed BLOCK_ROWS at a time, so each block's float32 partial sums are added into
// float64 accumulators before the next.

import { F64, FunctionBuilder, I32, moduleBytes, V128 } from './wasm-emitter.js';

/** Rows per block: float32 sums run over at most this many rows before joining a float64. */
export const BLOCK_ROWS = 128;
/** Row stride (dp) and column count granularity. */
export const COLUMN_MULTIPLE = 8;
/** Granularity of the number of vectors (l, k) a product takes. */
export const VECTOR_MULTIPLE = 4;

export interface Kernels {
  /** c (dp × dp float64, upper triangle and some of the lower) += xᵀx over `rows` rows. */
  covariance(x: number, rows: number, dp: number, c: number): void;
  /**
   * w (lp × dp float64) += (x·zᵀ)ᵀ·x: the covariance operator applied to the lp vectors of z,
   * without forming it. y is scratch of BLOCK_ROWS × lp float32.
   */
  applyCovariance(
    x: number,
    rows: number,
    dp: number,
    z: number,
    lp: number,
    y: number,
    w: number,
  ): void;
  /** out (rows × kp float32, rows rounded up to even) = x·dirsᵀ. */
  project(x: number, rows: number, dp: number, dirs: number, kp: number, out: number): void;
  /** sums[j] += Σ x[r][j] and squares[j] += Σ x[r][j]² (float64). */
  columnSums(x: number, rows: number, dp: number, sums: number, squares: number): void;
  /** x[r][j] −= mean[j] (float32 mean). */
  centre(x: number, rows: number, dp: number, mean: number): void;
  /**
   * Householder step, float64, over the trailing block [start, d)² of a symmetric d × d matrix
   * `a` whose upper triangle is current: p[c] += Σ_r a[r][c]·v[r] (p for c ≥ start).
   */
  symmetricProduct(a: number, d: number, start: number, v: number, p: number): void;
  /** The upper triangle of the same block −= v·wᵀ + w·vᵀ. */
  symmetricRankTwo(a: number, d: number, start: number, v: number, w: number): void;
  /**
   * x_c −= β·(v·x_c)·v for each of the k rows x_c of x (d float64 each), over entries
   * [start, d): a Householder reflector; β is the float64 at `beta`.
   */
  reflect(v: number, start: number, d: number, beta: number, x: number, k: number): void;
}

/** The passes over rows, which worker threads run slice by slice (named by index). */
export const ROW_KERNELS = [
  'covariance',
  'applyCovariance',
  'project',
  'columnSums',
  'centre',
] as const;
export type RowKernel = (typeof ROW_KERNELS)[number];

// Register tiles: dot-product tiles of NT_ROWS × NT_COLUMNS and outer-product tiles of
// NN_ROWS × (4 · NN_VECTORS) keep every accumulator in one of the 16 vector registers
// (larger tiles spill and ran slower).
const NT_ROWS = 2;
const NT_COLUMNS = 4;
const NN_ROWS = 4;
const NN_VECTORS = 2;
const NN_COLUMNS = 4 * NN_VECTORS;

// Function indices inside the module (the kernels call the two tile loops).
const DOTS = 0;
const OUTER = 1;

/**
 * dots(a, lda, m, b, ldb, nn, len, c, ldc): c[i][j] (float32) = Σ_t a[i][t]·b[j][t] for i < m
 * (a multiple of NT_ROWS), j < nn (a multiple of NT_COLUMNS), t < len (a multiple of 4).
 */
function emitDots(): FunctionBuilder {
  const f = new FunctionBuilder('dots', 9);
  const [a, lda, m, b, ldb, nn, len, c, ldc] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const i = f.local(I32);
  const j = f.local(I32);
  const p = f.local(I32);
  const end = f.local(I32);
  const rowStep = f.local(I32);
  const columnStep = f.local(I32);
  const aRow = f.local(I32);
  const offsets = Array.from({ length: NT_COLUMNS }, () => f.local(I32));
  const acc = Array.from({ length: NT_ROWS * NT_COLUMNS }, () => f.local(V128));
  const xs = Array.from({ length: NT_ROWS }, () => f.local(V128));
  const y = f.local(V128);

  f.get(lda).i32(2).shl().set(rowStep);
  f.get(ldb).i32(2).shl().set(columnStep);
  f.i32(0).set(i);
  f.block().loop();
  {
    f.get(i).get(m).geU().brIf(1);
    f.get(a).get(i).get(rowStep).mul().add().set(aRow);
    f.i32(0).set(j);
    f.block().loop();
    {
      f.get(j).get(nn).geU().brIf(1);
      for (const r of acc) f.v128Zero().set(r);
      // offsets[jj]: from a's row i to b's row j + jj, so one pointer walks both.
      f.get(b).get(j).get(columnStep).mul().add().get(aRow).sub().set(offsets[0]!);
      for (let jj = 1; jj < NT_COLUMNS; jj++) {
        f.get(offsets[jj - 1]!)
          .get(columnStep)
          .add()
          .set(offsets[jj]!);
      }
      f.get(aRow).set(p);
      f.get(aRow).get(len).i32(2).shl().add().set(end);
      f.block().loop();
      {
        f.get(p).get(end).geU().brIf(1);
        for (let ii = 0; ii < NT_ROWS; ii++) {
          f.get(p);
          for (let step = 0; step < ii; step++) f.get(rowStep).add();
          f.v128Load().set(xs[ii]!);
        }
        for (let jj = 0; jj < NT_COLUMNS; jj++) {
          f.get(p).get(offsets[jj]!).add().v128Load().set(y);
          for (let ii = 0; ii < NT_ROWS; ii++) {
            const r = acc[ii * NT_COLUMNS + jj]!;
            f.get(r).get(xs[ii]!).get(y).f32x4Mul().f32x4Add().set(r);
          }
        }
        f.get(p).i32(16).add().set(p);
        f.br(0);
      }
      f.end().end();
      for (let ii = 0; ii < NT_ROWS; ii++) {
        for (let jj = 0; jj < NT_COLUMNS; jj++) {
          const r = acc[ii * NT_COLUMNS + jj]!;
          f.get(c).get(i).i32(ii).add().get(ldc).mul().get(j).add().i32(2).shl().add();
          f.get(r).f32x4ExtractLane(0).get(r).f32x4ExtractLane(1).f32Add();
          f.get(r).f32x4ExtractLane(2).get(r).f32x4ExtractLane(3).f32Add().f32Add();
          f.f32Store(jj * 4);
        }
      }
      f.get(j).i32(NT_COLUMNS).add().set(j);
      f.br(0);
    }
    f.end().end();
    f.get(i).i32(NT_ROWS).add().set(i);
    f.br(0);
  }
  f.end().end();
  return f;
}

/**
 * outer(a, ai, at, m, b, ldb, nn, len, c, ldc, upper): c[i][j] (float64) += Σ_t A(i, t)·b[t][j]
 * with A(i, t) = a[i·ai + t·at] (float32), for i < m (a multiple of NN_ROWS), j < nn (a
 * multiple of NN_COLUMNS), t < len; `upper` skips the tiles wholly below the diagonal.
 */
function emitOuter(): FunctionBuilder {
  const f = new FunctionBuilder('outer', 11);
  const [a, ai, at, m, b, ldb, nn, len, c, ldc, upper] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const i = f.local(I32);
  const j = f.local(I32);
  const t = f.local(I32);
  const pa = f.local(I32);
  const pb = f.local(I32);
  const aStep = f.local(I32);
  const tStep = f.local(I32);
  const bStep = f.local(I32);
  const out = f.local(I32);
  const acc = Array.from({ length: NN_ROWS * NN_VECTORS }, () => f.local(V128));
  const ys = Array.from({ length: NN_VECTORS }, () => f.local(V128));
  const x = f.local(V128);

  f.get(ai).i32(2).shl().set(aStep);
  f.get(at).i32(2).shl().set(tStep);
  f.get(ldb).i32(2).shl().set(bStep);
  f.i32(0).set(i);
  f.block().loop();
  {
    f.get(i).get(m).geU().brIf(1);
    f.get(upper).ifI32().get(i).i32(-NN_COLUMNS).and().else().i32(0).end().set(j);
    f.block().loop();
    {
      f.get(j).get(nn).geU().brIf(1);
      for (const r of acc) f.v128Zero().set(r);
      f.get(a).get(i).get(aStep).mul().add().set(pa);
      f.get(b).get(j).i32(2).shl().add().set(pb);
      f.i32(0).set(t);
      f.block().loop();
      {
        f.get(t).get(len).geU().brIf(1);
        for (let v = 0; v < NN_VECTORS; v++)
          f.get(pb)
            .v128Load(16 * v)
            .set(ys[v]!);
        for (let ii = 0; ii < NN_ROWS; ii++) {
          f.get(pa);
          for (let step = 0; step < ii; step++) f.get(aStep).add();
          f.v128Load32Splat().set(x);
          for (let v = 0; v < NN_VECTORS; v++) {
            const r = acc[ii * NN_VECTORS + v]!;
            f.get(r).get(x).get(ys[v]!).f32x4Mul().f32x4Add().set(r);
          }
        }
        f.get(pa).get(tStep).add().set(pa);
        f.get(pb).get(bStep).add().set(pb);
        f.get(t).i32(1).add().set(t);
        f.br(0);
      }
      f.end().end();
      for (let ii = 0; ii < NN_ROWS; ii++) {
        f.get(c).get(i).i32(ii).add().get(ldc).mul().get(j).add().i32(3).shl().add().set(out);
        for (let v = 0; v < NN_VECTORS; v++) {
          const r = acc[ii * NN_VECTORS + v]!;
          for (let lane = 0; lane < 4; lane++) {
            const offset = (v * 4 + lane) * 8;
            f.get(out).get(out).f64Load(offset).get(r).f32x4ExtractLane(lane).f64PromoteF32();
            f.f64Add().f64Store(offset);
          }
        }
      }
      f.get(j).i32(NN_COLUMNS).add().set(j);
      f.br(0);
    }
    f.end().end();
    f.get(i).i32(NN_ROWS).add().set(i);
    f.br(0);
  }
  f.end().end();
  return f;
}

/**
 * A loop over the rows' blocks: `count` = rows in this block (≤ BLOCK_ROWS) and `block` = its
 * first row's pointer are set before `body` runs.
 */
function overBlocks(
  f: FunctionBuilder,
  x: number,
  rows: number,
  dp: number,
  body: (block: number, count: number) => void,
): void {
  const start = f.local(I32);
  const count = f.local(I32);
  const block = f.local(I32);
  const step = f.local(I32);
  f.get(dp)
    .i32(BLOCK_ROWS * 4)
    .mul()
    .set(step);
  f.get(x).set(block);
  f.i32(0).set(start);
  f.block().loop();
  {
    f.get(start).get(rows).geU().brIf(1);
    f.i32(BLOCK_ROWS).get(rows).get(start).sub().tee(count);
    f.get(count).i32(BLOCK_ROWS).gtU().select().set(count);
    body(block, count);
    f.get(block).get(step).add().set(block);
    f.get(start).i32(BLOCK_ROWS).add().set(start);
    f.br(0);
  }
  f.end().end();
}

function emitCovariance(): FunctionBuilder {
  const f = new FunctionBuilder('covariance', 4);
  const [x, rows, dp, c] = [0, 1, 2, 3];
  overBlocks(f, x, rows, dp, (block, count) => {
    f.get(block).i32(1).get(dp).get(dp).get(block).get(dp).get(dp).get(count);
    f.get(c).get(dp).i32(1).call(OUTER);
  });
  return f;
}

function emitApplyCovariance(): FunctionBuilder {
  const f = new FunctionBuilder('applyCovariance', 7);
  const [x, rows, dp, z, lp, y, w] = [0, 1, 2, 3, 4, 5, 6];
  overBlocks(f, x, rows, dp, (block, count) => {
    // y = block · zᵀ (rows rounded up to even: the extra row's y is never read) …
    f.get(block).get(dp).get(count).i32(1).add().i32(-2).and();
    f.get(z).get(dp).get(lp).get(dp).get(y).get(lp).call(DOTS);
    // … then w += yᵀ · block.
    f.get(y).i32(1).get(lp).get(lp).get(block).get(dp).get(dp).get(count);
    f.get(w).get(dp).i32(0).call(OUTER);
  });
  return f;
}

function emitProject(): FunctionBuilder {
  const f = new FunctionBuilder('project', 6);
  const [x, rows, dp, dirs, kp, out] = [0, 1, 2, 3, 4, 5];
  f.get(x).get(dp).get(rows).i32(1).add().i32(-2).and();
  f.get(dirs).get(dp).get(kp).get(dp).get(out).get(kp).call(DOTS);
  return f;
}

/** A loop over `rows` rows of `dp` floats: `row` points at each row's first float. */
function overRows(
  f: FunctionBuilder,
  x: number,
  rows: number,
  dp: number,
  body: (row: number) => void,
): void {
  const row = f.local(I32);
  const end = f.local(I32);
  f.get(x).set(row);
  f.get(x).get(rows).get(dp).mul().i32(2).shl().add().set(end);
  f.block().loop();
  {
    f.get(row).get(end).geU().brIf(1);
    body(row);
    f.get(row).get(dp).i32(2).shl().add().set(row);
    f.br(0);
  }
  f.end().end();
}

/** A loop over j = 0, step, 2·step, … < dp. */
function overColumns(
  f: FunctionBuilder,
  dp: number,
  step: number,
  body: (j: number) => void,
): void {
  const j = f.local(I32);
  f.i32(0).set(j);
  f.block().loop();
  {
    f.get(j).get(dp).geU().brIf(1);
    body(j);
    f.get(j).i32(step).add().set(j);
    f.br(0);
  }
  f.end().end();
}

function emitColumnSums(): FunctionBuilder {
  const f = new FunctionBuilder('columnSums', 5);
  const [x, rows, dp, sums, squares] = [0, 1, 2, 3, 4];
  const value = f.local(V128);
  const at = f.local(I32);
  overRows(f, x, rows, dp, (row) => {
    overColumns(f, dp, 2, (j) => {
      // Two floats at a time, widened to float64.
      f.get(row).get(j).i32(2).shl().add().v128Load64Zero().f64x2PromoteLowF32x4().set(value);
      f.get(sums).get(j).i32(3).shl().add().tee(at);
      f.get(at).v128Load().get(value).f64x2Add().v128Store();
      f.get(squares).get(j).i32(3).shl().add().tee(at);
      f.get(at).v128Load().get(value).get(value).f64x2Mul().f64x2Add().v128Store();
    });
  });
  return f;
}

function emitCentre(): FunctionBuilder {
  const f = new FunctionBuilder('centre', 4);
  const [x, rows, dp, mean] = [0, 1, 2, 3];
  const at = f.local(I32);
  overRows(f, x, rows, dp, (row) => {
    overColumns(f, dp, 4, (j) => {
      f.get(row).get(j).i32(2).shl().add().tee(at);
      f.get(at).v128Load().get(mean).get(j).i32(2).shl().add().v128Load().f32x4Sub().v128Store();
    });
  });
  return f;
}

/**
 * A loop over c = from, …, d − 1 in pairs: `single(c)` first when the count is odd, then
 * `pair(c)` for each pair.
 */
function overPairs(
  f: FunctionBuilder,
  from: () => void,
  d: number,
  single: (c: number) => void,
  pair: (c: number) => void,
): void {
  const c = f.local(I32);
  from();
  f.set(c);
  f.get(d).get(c).sub().i32(1).and().if();
  single(c);
  f.get(c).i32(1).add().set(c);
  f.end();
  f.block().loop();
  {
    f.get(c).get(d).geU().brIf(1);
    pair(c);
    f.get(c).i32(2).add().set(c);
    f.br(0);
  }
  f.end().end();
}

/** A loop over r = start, …, d − 1, with `row` at a[r][0]. */
function overMatrixRows(
  f: FunctionBuilder,
  a: number,
  d: number,
  start: number,
  body: (r: number, row: number) => void,
): void {
  const r = f.local(I32);
  const row = f.local(I32);
  f.get(start).set(r);
  f.block().loop();
  {
    f.get(r).get(d).geU().brIf(1);
    f.get(a).get(r).get(d).mul().i32(3).shl().add().set(row);
    body(r, row);
    f.get(r).i32(1).add().set(r);
    f.br(0);
  }
  f.end().end();
}

function emitSymmetricProduct(): FunctionBuilder {
  const f = new FunctionBuilder('symmetricProduct', 5);
  const [a, d, start, v, p] = [0, 1, 2, 3, 4];
  const vr = f.local(F64);
  const vrs = f.local(V128);
  const scalar = f.local(F64);
  const value = f.local(F64);
  const sum = f.local(V128);
  const x = f.local(V128);
  const at = f.local(I32);
  const element = (base: number, c: number) => f.get(base).get(c).i32(3).shl().add();
  overMatrixRows(f, a, d, start, (r, row) => {
    element(v, r).f64Load().tee(vr).f64x2Splat().set(vrs);
    // The diagonal once, then each a[r][c] (c > r) for p[r] and for p[c].
    element(row, r).f64Load().get(vr).f64Mul().set(scalar);
    f.v128Zero().set(sum);
    overPairs(
      f,
      () => f.get(r).i32(1).add(),
      d,
      (c) => {
        element(row, c).f64Load().set(value);
        f.get(scalar).get(value);
        element(v, c).f64Load().f64Mul().f64Add().set(scalar);
        element(p, c).tee(at);
        f.get(at).f64Load().get(value).get(vr).f64Mul().f64Add().f64Store();
      },
      (c) => {
        element(row, c).v128Load().set(x);
        f.get(sum).get(x);
        element(v, c).v128Load().f64x2Mul().f64x2Add().set(sum);
        element(p, c).tee(at);
        f.get(at).v128Load().get(x).get(vrs).f64x2Mul().f64x2Add().v128Store();
      },
    );
    element(p, r).tee(at);
    f.get(at).f64Load().get(scalar).f64Add();
    f.get(sum).f64x2ExtractLane(0).f64Add().get(sum).f64x2ExtractLane(1).f64Add().f64Store();
  });
  return f;
}

function emitSymmetricRankTwo(): FunctionBuilder {
  const f = new FunctionBuilder('symmetricRankTwo', 5);
  const [a, d, start, v, w] = [0, 1, 2, 3, 4];
  const vr = f.local(F64);
  const wr = f.local(F64);
  const vrs = f.local(V128);
  const wrs = f.local(V128);
  const at = f.local(I32);
  const element = (base: number, c: number) => f.get(base).get(c).i32(3).shl().add();
  overMatrixRows(f, a, d, start, (r, row) => {
    element(v, r).f64Load().tee(vr).f64x2Splat().set(vrs);
    element(w, r).f64Load().tee(wr).f64x2Splat().set(wrs);
    overPairs(
      f,
      () => f.get(r),
      d,
      (c) => {
        element(row, c).tee(at);
        f.get(at).f64Load().get(vr);
        element(w, c).f64Load().f64Mul().get(wr);
        element(v, c).f64Load().f64Mul().f64Add().f64Sub().f64Store();
      },
      (c) => {
        element(row, c).tee(at);
        f.get(at).v128Load().get(vrs);
        element(w, c).v128Load().f64x2Mul().get(wrs);
        element(v, c).v128Load().f64x2Mul().f64x2Add().f64x2Sub().v128Store();
      },
    );
  });
  return f;
}

function emitReflect(): FunctionBuilder {
  const f = new FunctionBuilder('reflect', 6);
  const [v, start, d, beta, x, k] = [0, 1, 2, 3, 4, 5];
  const c = f.local(I32);
  const row = f.local(I32);
  const scalar = f.local(F64);
  const sum = f.local(V128);
  const scale = f.local(F64);
  const scales = f.local(V128);
  const at = f.local(I32);
  const element = (base: number, j: number) => f.get(base).get(j).i32(3).shl().add();
  f.i32(0).set(c);
  f.get(x).set(row);
  f.block().loop();
  {
    f.get(c).get(k).geU().brIf(1);
    f.f64Zero().set(scalar);
    f.v128Zero().set(sum);
    overPairs(
      f,
      () => f.get(start),
      d,
      (j) => {
        element(v, j).f64Load();
        element(row, j).f64Load().f64Mul().set(scalar);
      },
      (j) => {
        f.get(sum);
        element(v, j).v128Load();
        element(row, j).v128Load().f64x2Mul().f64x2Add().set(sum);
      },
    );
    f.get(beta).f64Load();
    f.get(scalar).get(sum).f64x2ExtractLane(0).f64Add().get(sum).f64x2ExtractLane(1).f64Add();
    f.f64Mul().tee(scale).f64x2Splat().set(scales);
    overPairs(
      f,
      () => f.get(start),
      d,
      (j) => {
        element(row, j).tee(at);
        f.get(at).f64Load().get(scale);
        element(v, j).f64Load().f64Mul().f64Sub().f64Store();
      },
      (j) => {
        element(row, j).tee(at);
        f.get(at).v128Load().get(scales);
        element(v, j).v128Load().f64x2Mul().f64x2Sub().v128Store();
      },
    );
    f.get(row).get(d).i32(3).shl().add().set(row);
    f.get(c).i32(1).add().set(c);
    f.br(0);
  }
  f.end().end();
  return f;
}

/** The part of the WebAssembly JavaScript API used here (this package builds without DOM types). */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
}
/** A compiled module: opaque here, cloned as is to worker threads. */
export type WasmModule = object;
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

/** The compiled SIMD module (once per process), or null where WebAssembly SIMD is missing. */
export function simdModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (!wasm) return compiled;
  try {
    const bytes = moduleBytes([
      emitDots(),
      emitOuter(),
      emitCovariance(),
      emitApplyCovariance(),
      emitProject(),
      emitColumnSums(),
      emitCentre(),
      emitSymmetricProduct(),
      emitSymmetricRankTwo(),
      emitReflect(),
    ]);
    if (wasm.validate(bytes)) compiled = new wasm.Module(bytes);
  } catch {
    // Left null: the TypeScript kernels do the same work.
  }
  return compiled;
}

/** A memory of at least `bytes` bytes that the module (and worker threads) can share. */
export function createMemory(bytes: number): WasmMemory {
  if (!wasm || !simdModule()) return { buffer: new ArrayBuffer(bytes) };
  const pages = Math.max(1, Math.ceil(bytes / 65536));
  return new wasm.Memory({ initial: pages, maximum: pages, shared: true });
}

/** The kernels over `memory`: SIMD when available (and not refused), else TypeScript. */
export function createKernels(memory: WasmMemory, simd = true): Kernels {
  const module = simd ? simdModule() : null;
  if (!wasm || !module || !(memory.buffer instanceof SharedArrayBuffer)) {
    return typescriptKernels(memory.buffer);
  }
  const exports = new wasm.Instance(module, { env: { memory } }).exports as Kernels;
  return {
    covariance: exports.covariance,
    applyCovariance: exports.applyCovariance,
    project: exports.project,
    columnSums: exports.columnSums,
    centre: exports.centre,
    symmetricProduct: exports.symmetricProduct,
    symmetricRankTwo: exports.symmetricRankTwo,
    reflect: exports.reflect,
  };
}

/** The same arithmetic in TypeScript (float32 sums rounded as the SIMD lanes are not: close, not equal). */
export function typescriptKernels(buffer: ArrayBufferLike): Kernels {
  const f32 = new Float32Array(buffer);
  const f64 = new Float64Array(buffer);
  const outer = (
    a: number,
    ai: number,
    at: number,
    m: number,
    b: number,
    ldb: number,
    nn: number,
    len: number,
    c: number,
    ldc: number,
    upper: boolean,
  ): void => {
    const a0 = a >> 2;
    const b0 = b >> 2;
    const c0 = c >> 3;
    for (let i = 0; i < m; i++) {
      for (let j = upper ? i & -NN_COLUMNS : 0; j < nn; j++) {
        let sum = 0;
        for (let t = 0; t < len; t++) sum += f32[a0 + i * ai + t * at]! * f32[b0 + t * ldb + j]!;
        f64[c0 + i * ldc + j]! += sum;
      }
    }
  };
  const dots = (
    a: number,
    lda: number,
    m: number,
    b: number,
    ldb: number,
    nn: number,
    len: number,
    c: number,
    ldc: number,
  ): void => {
    const a0 = a >> 2;
    const b0 = b >> 2;
    const c0 = c >> 2;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < nn; j++) {
        let sum = 0;
        for (let t = 0; t < len; t++) sum += f32[a0 + i * lda + t]! * f32[b0 + j * ldb + t]!;
        f32[c0 + i * ldc + j] = sum;
      }
    }
  };
  const blocks = (
    x: number,
    rows: number,
    dp: number,
    body: (block: number, count: number) => void,
  ) => {
    for (let start = 0; start < rows; start += BLOCK_ROWS) {
      body(x + start * dp * 4, Math.min(BLOCK_ROWS, rows - start));
    }
  };
  const even = (count: number) => (count + 1) & -2;
  return {
    covariance: (x, rows, dp, c) =>
      blocks(x, rows, dp, (block, count) =>
        outer(block, 1, dp, dp, block, dp, dp, count, c, dp, true),
      ),
    applyCovariance: (x, rows, dp, z, lp, y, w) =>
      blocks(x, rows, dp, (block, count) => {
        dots(block, dp, even(count), z, dp, lp, dp, y, lp);
        outer(y, 1, lp, lp, block, dp, dp, count, w, dp, false);
      }),
    project: (x, rows, dp, dirs, kp, out) => dots(x, dp, even(rows), dirs, dp, kp, dp, out, kp),
    columnSums: (x, rows, dp, sums, squares) => {
      const x0 = x >> 2;
      for (let r = 0; r < rows; r++) {
        for (let j = 0; j < dp; j++) {
          const value = f32[x0 + r * dp + j]!;
          f64[(sums >> 3) + j]! += value;
          f64[(squares >> 3) + j]! += value * value;
        }
      }
    },
    centre: (x, rows, dp, mean) => {
      const x0 = x >> 2;
      for (let r = 0; r < rows; r++) {
        for (let j = 0; j < dp; j++) f32[x0 + r * dp + j]! -= f32[(mean >> 2) + j]!;
      }
    },
    symmetricProduct: (a, d, start, v, p) => {
      const [a0, v0, p0] = [a >> 3, v >> 3, p >> 3];
      for (let r = start; r < d; r++) {
        const row = a0 + r * d;
        const vr = f64[v0 + r]!;
        let sum = f64[row + r]! * vr;
        for (let c = r + 1; c < d; c++) {
          const value = f64[row + c]!;
          sum += value * f64[v0 + c]!;
          f64[p0 + c]! += value * vr;
        }
        f64[p0 + r]! += sum;
      }
    },
    symmetricRankTwo: (a, d, start, v, w) => {
      const [a0, v0, w0] = [a >> 3, v >> 3, w >> 3];
      for (let r = start; r < d; r++) {
        const row = a0 + r * d;
        const vr = f64[v0 + r]!;
        const wr = f64[w0 + r]!;
        for (let c = r; c < d; c++) f64[row + c]! -= vr * f64[w0 + c]! + wr * f64[v0 + c]!;
      }
    },
    reflect: (v, start, d, beta, x, k) => {
      const [v0, x0] = [v >> 3, x >> 3];
      for (let c = 0; c < k; c++) {
        const row = x0 + c * d;
        let dot = 0;
        for (let j = start; j < d; j++) dot += f64[v0 + j]! * f64[row + j]!;
        dot *= f64[beta >> 3]!;
        for (let j = start; j < d; j++) f64[row + j]! -= dot * f64[v0 + j]!;
      }
    },
  };
}
