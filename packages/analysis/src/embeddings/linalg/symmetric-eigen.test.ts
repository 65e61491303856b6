import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../../random.js';
import { largestEigenpairs, symmetricEigen } from './symmetric-eigen.js';

/** d × d orthogonal matrix (rows) by Gram–Schmidt on Gaussian vectors. */
function rotation(d: number, random: Random): Float64Array {
  const q = new Float64Array(d * d);
  for (let r = 0; r < d; r++) {
    for (let j = 0; j < d; j++) q[r * d + j] = random.normal();
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < r; s++) {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += q[r * d + j]! * q[s * d + j]!;
        for (let j = 0; j < d; j++) q[r * d + j]! -= dot * q[s * d + j]!;
      }
    }
    let norm = 0;
    for (let j = 0; j < d; j++) norm += q[r * d + j]! ** 2;
    for (let j = 0; j < d; j++) q[r * d + j]! /= Math.sqrt(norm);
  }
  return q;
}

/** Σ λ_i q_i q_iᵀ for the rows q_i of q. */
function withSpectrum(q: Float64Array, spectrum: number[]): Float64Array {
  const d = spectrum.length;
  const a = new Float64Array(d * d);
  for (let c = 0; c < d; c++) {
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < d; j++) a[i * d + j]! += spectrum[c]! * q[c * d + i]! * q[c * d + j]!;
    }
  }
  return a;
}

function randomSymmetric(d: number, random: Random): Float64Array {
  const a = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = i; j < d; j++) {
      const value = random.normal();
      a[i * d + j] = value;
      a[j * d + i] = value;
    }
  }
  return a;
}

/** Cyclic Jacobi, the slow and sure reference: eigenvalues descending. */
function jacobiValues(matrix: Float64Array, d: number): number[] {
  const a = matrix.slice();
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) off += a[p * d + q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < d - 1; p++) {
      for (let q = p + 1; q < d; q++) {
        const apq = a[p * d + q]!;
        if (apq === 0) continue;
        const theta = (a[q * d + q]! - a[p * d + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < d; r++) {
          const arp = a[r * d + p]!;
          const arq = a[r * d + q]!;
          a[r * d + p] = c * arp - s * arq;
          a[r * d + q] = s * arp + c * arq;
        }
        for (let r = 0; r < d; r++) {
          const apr = a[p * d + r]!;
          const aqr = a[q * d + r]!;
          a[p * d + r] = c * apr - s * aqr;
          a[q * d + r] = s * apr + c * aqr;
        }
      }
    }
  }
  return Array.from({ length: d }, (_, i) => a[i * d + i]!).sort((x, y) => y - x);
}

/** Largest |A·v − λ·v| and |VᵀV − I| entries over the returned pairs. */
function residuals(
  original: Float64Array,
  d: number,
  values: Float64Array,
  vectors: Float64Array,
): { eigen: number; orthogonality: number } {
  const k = values.length;
  let eigen = 0;
  let orthogonality = 0;
  for (let c = 0; c < k; c++) {
    for (let i = 0; i < d; i++) {
      let av = 0;
      for (let j = 0; j < d; j++) av += original[i * d + j]! * vectors[c * d + j]!;
      eigen = Math.max(eigen, Math.abs(av - values[c]! * vectors[c * d + i]!));
    }
    for (let c2 = 0; c2 < k; c2++) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += vectors[c * d + i]! * vectors[c2 * d + i]!;
      orthogonality = Math.max(orthogonality, Math.abs(dot - (c === c2 ? 1 : 0)));
    }
  }
  return { eigen, orthogonality };
}

describe('largestEigenpairs', () => {
  it('matches Jacobi on random symmetric matrices, with orthonormal eigenvectors', () => {
    const random = createRandom(1);
    for (const d of [1, 2, 3, 9, 60]) {
      const original = randomSymmetric(d, random);
      const expected = jacobiValues(original, d);
      const { values, vectors } = largestEigenpairs(original.slice(), d, d);
      for (let c = 0; c < d; c++) expect(values[c]).toBeCloseTo(expected[c]!, 10);
      const { eigen, orthogonality } = residuals(original, d, values, vectors);
      expect(eigen).toBeLessThan(1e-11 * d);
      expect(orthogonality).toBeLessThan(1e-12 * d);
    }
  });

  it('finds the top of a known spectrum and its directions', () => {
    const random = createRandom(2);
    const d = 50;
    const spectrum = Array.from({ length: d }, (_, i) => 100 / (1 + i) ** 1.5);
    const q = rotation(d, random);
    const { values, vectors } = largestEigenpairs(withSpectrum(q, spectrum), d, 5);
    expect(values).toHaveLength(5);
    for (let c = 0; c < 5; c++) {
      expect(values[c]! / spectrum[c]!).toBeCloseTo(1, 12);
      let dot = 0;
      for (let j = 0; j < d; j++) dot += vectors[c * d + j]! * q[c * d + j]!;
      expect(Math.abs(dot)).toBeCloseTo(1, 12);
    }
  });

  it('returns an orthonormal basis of a repeated eigenvalue’s eigenspace', () => {
    const random = createRandom(3);
    const d = 30;
    // 7 (three times), 7 + 1e-12, then 2 (twice), then a tail with zeros.
    const spectrum = [
      7,
      7,
      7 + 1e-12,
      7,
      2,
      2,
      ...Array.from({ length: d - 6 }, (_, i) => (i % 3 ? 0.5 / (i + 1) : 0)),
    ];
    const q = rotation(d, random);
    const original = withSpectrum(q, spectrum);
    const k = 6;
    const { values, vectors } = largestEigenpairs(original.slice(), d, k);
    const { eigen, orthogonality } = residuals(original, d, values, vectors);
    expect(eigen).toBeLessThan(1e-12);
    expect(orthogonality).toBeLessThan(1e-12);
    for (let c = 0; c < 4; c++) expect(values[c]).toBeCloseTo(7, 11);
    // Each of the first four lies in span(q0..q3), the next two in span(q4, q5).
    for (let c = 0; c < k; c++) {
      const space = c < 4 ? [0, 1, 2, 3] : [4, 5];
      let inside = 0;
      for (const s of space) {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += vectors[c * d + j]! * q[s * d + j]!;
        inside += dot * dot;
      }
      expect(inside).toBeCloseTo(1, 10);
    }
  });

  it('handles matrices that are already diagonal, the identity and zero', () => {
    for (const diagonal of [
      [3, -1, 4, 1, 5, 9, 2, 6],
      new Array<number>(8).fill(1),
      new Array<number>(8).fill(0),
    ]) {
      const d = diagonal.length;
      const a = new Float64Array(d * d);
      diagonal.forEach((v, i) => (a[i * d + i] = v));
      const original = a.slice();
      const { values, vectors } = largestEigenpairs(a, d, d);
      const sorted = [...diagonal].sort((x, y) => y - x);
      sorted.forEach((value, c) => expect(values[c]).toBeCloseTo(value, 13));
      const { eigen, orthogonality } = residuals(original, d, values, vectors);
      expect(eigen).toBeLessThan(1e-14);
      expect(orthogonality).toBeLessThan(1e-14);
    }
  });

  it('rejects a k outside [0, d] and a matrix of the wrong size', () => {
    expect(() => largestEigenpairs(new Float64Array(4), 2, 3)).toThrow(/k must be/);
    expect(() => largestEigenpairs(new Float64Array(5), 2, 1)).toThrow(/d · d/);
    expect(largestEigenpairs(new Float64Array(4), 2, 0).values).toHaveLength(0);
  });
});

describe('symmetricEigen', () => {
  it('returns every eigenpair, vectors as columns', () => {
    const random = createRandom(10);
    const d = 9;
    const original = randomSymmetric(d, random);
    const { values, vectors } = symmetricEigen(original.slice(), d);
    for (let c = 0; c < d; c++) {
      for (let i = 0; i < d; i++) {
        let av = 0;
        for (let j = 0; j < d; j++) av += original[i * d + j]! * vectors[j * d + c]!;
        expect(av).toBeCloseTo(values[c]! * vectors[i * d + c]!, 10);
      }
    }
    let trace = 0;
    for (let i = 0; i < d; i++) trace += original[i * d + i]!;
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(trace, 10);
  });
});
