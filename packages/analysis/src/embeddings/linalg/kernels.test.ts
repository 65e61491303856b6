import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.js';
import { BLOCK_ROWS, createKernels, createMemory, simdModule, type Kernels } from './kernels.js';

// 300 rows of 21 values (stride 24, padding zero): two full blocks and a ragged one.
const ROWS = 300;
const D = 21;
const DP = 24;
const LP = 8;
const KP = 4;
const X = 0;
const Z = X + 3 * BLOCK_ROWS * DP * 4;
const Y = Z + LP * DP * 4;
const W = Y + BLOCK_ROWS * LP * 4;
const C = W + LP * DP * 8;
const OUT = C + DP * DP * 8;
const SUMS = OUT + 3 * BLOCK_ROWS * KP * 4;
const SQUARES = SUMS + DP * 8;
const MEAN = SQUARES + DP * 8;
const BYTES = MEAN + DP * 4;

function setUp(simd: boolean): { kernels: Kernels; f32: Float32Array; f64: Float64Array } {
  const memory = createMemory(BYTES);
  const f32 = new Float32Array(memory.buffer);
  const random = createRandom(11);
  for (let r = 0; r < ROWS; r++) {
    for (let j = 0; j < D; j++) f32[X / 4 + r * DP + j] = random.normal() + j / 4;
  }
  for (let a = 0; a < LP; a++) {
    for (let j = 0; j < D; j++) f32[Z / 4 + a * DP + j] = random.normal();
  }
  for (let j = 0; j < D; j++) f32[MEAN / 4 + j] = j / 4;
  return { kernels: createKernels(memory, simd), f32, f64: new Float64Array(memory.buffer) };
}

const row = (f32: Float32Array, r: number, j: number) => f32[X / 4 + r * DP + j]!;

describe.each([
  ['WebAssembly SIMD', true],
  ['TypeScript', false],
])('kernels (%s)', (_, simd) => {
  it('sums and centres columns', () => {
    const { kernels, f32, f64 } = setUp(simd);
    kernels.columnSums(X, ROWS, DP, SUMS, SQUARES);
    for (const j of [0, 7, 20, 23]) {
      let sum = 0;
      let squares = 0;
      for (let r = 0; r < ROWS; r++) {
        sum += row(f32, r, j);
        squares += row(f32, r, j) ** 2;
      }
      expect(f64[SUMS / 8 + j]).toBeCloseTo(sum, 9);
      expect(f64[SQUARES / 8 + j]).toBeCloseTo(squares, 8);
    }
    const before = row(f32, 299, 20);
    kernels.centre(X, ROWS, DP, MEAN);
    expect(row(f32, 299, 20)).toBe(Math.fround(before - 5));
    expect(row(f32, 299, 22)).toBe(0);
  });

  it('accumulates the upper triangle of xᵀx block by block', () => {
    const { kernels, f32, f64 } = setUp(simd);
    f64[C / 8 + 1] = 1; // accumulates onto what is there
    kernels.covariance(X, ROWS, DP, C);
    for (let i = 0; i < DP; i++) {
      for (let j = i; j < DP; j++) {
        let sum = i === 0 && j === 1 ? 1 : 0;
        for (let r = 0; r < ROWS; r++) sum += row(f32, r, i) * row(f32, r, j);
        expect(Math.abs(f64[C / 8 + i * DP + j]! - sum)).toBeLessThan(1e-5 * (1 + Math.abs(sum)));
      }
    }
  });

  it('applies xᵀx to a block of vectors without forming it', () => {
    const { kernels, f32, f64 } = setUp(simd);
    kernels.applyCovariance(X, ROWS, DP, Z, LP, Y, W);
    for (let a = 0; a < LP; a++) {
      for (let j = 0; j < DP; j++) {
        let sum = 0;
        for (let r = 0; r < ROWS; r++) {
          let y = 0;
          for (let t = 0; t < DP; t++) y += row(f32, r, t) * f32[Z / 4 + a * DP + t]!;
          sum += y * row(f32, r, j);
        }
        expect(Math.abs(f64[W / 8 + a * DP + j]! - sum)).toBeLessThan(1e-4 * (1 + Math.abs(sum)));
      }
    }
  });

  it('projects rows onto directions', () => {
    const { kernels, f32 } = setUp(simd);
    kernels.project(X, ROWS - 1, DP, Z, KP, OUT);
    for (const r of [0, 1, 150, 298]) {
      for (let c = 0; c < KP; c++) {
        let sum = 0;
        for (let t = 0; t < DP; t++) sum += row(f32, r, t) * f32[Z / 4 + c * DP + t]!;
        expect(f32[OUT / 4 + r * KP + c]).toBeCloseTo(sum, 4);
      }
    }
  });
});

it('runs as WebAssembly SIMD on this Node', () => {
  expect(simdModule()).not.toBeNull();
});
