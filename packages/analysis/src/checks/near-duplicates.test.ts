import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../random.js';
import { hashPairs, nearDuplicateGroups } from './near-duplicates.js';

/** The definition, directly: 1 − cos over every pair (a < b) of non-zero rows. */
function naivePairs(data: Float32Array, d: number, threshold: number): Map<number, number> {
  const n = data.length / d;
  const norms = Array.from({ length: n }, (_, i) =>
    Math.sqrt(data.subarray(i * d, (i + 1) * d).reduce((s, v) => s + v * v, 0)),
  );
  const pairs = new Map<number, number>();
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += data[a * d + k]! * data[b * d + k]!;
      const distance = 1 - dot / (norms[a]! * norms[b]!);
      if (distance <= threshold) pairs.set(a * n + b, distance);
    }
  return pairs;
}

function gaussianRows(random: Random, n: number, d: number): Float32Array {
  return Float32Array.from({ length: n * d }, () => random.normal());
}

/** Copies row `from` into row `to` with Gaussian noise of `sigma` per coordinate. */
function plantCopy(
  random: Random,
  data: Float32Array,
  d: number,
  from: number,
  to: number,
  sigma: number,
) {
  for (let k = 0; k < d; k++) data[to * d + k] = data[from * d + k]! + sigma * random.normal();
}

const pairsOf = (n: number, run: (onPair: (a: number, b: number) => void) => void) => {
  const pairs = new Set<number>();
  run((a, b) => pairs.add(a * n + b));
  return pairs;
};

describe('nearDuplicateGroups', () => {
  it('finds planted copies and none extra, exactly and through LSH', () => {
    const random = createRandom(11);
    const d = 196;
    const n = 3000;
    const data = gaussianRows(random, n, d);
    // 60 copies of row 50k at row 50k + 25, noise 1 % of the spread: cosine distance ≈ 1e-4.
    const planted: number[][] = [];
    for (let k = 0; k < 60; k++) {
      plantCopy(random, data, d, 50 * k, 50 * k + 25, 0.01);
      planted.push([50 * k, 50 * k + 25]);
    }
    for (const exactBelow of [Infinity, 0]) {
      const result = nearDuplicateGroups(data, d, { threshold: 0.01, exactBelow });
      expect(result.approximate).toBe(exactBelow === 0);
      expect(result.members.map((m) => Array.from(m))).toEqual(planted);
      for (const [a, b] of planted as [number, number][]) {
        expect(result.distance[a]).toBe(result.distance[b]);
        expect(result.distance[a]).toBeGreaterThan(0);
        expect(result.distance[a]).toBeLessThan(0.001);
      }
      expect(result.distance.filter((v) => !Number.isNaN(v)).length).toBe(120);
    }
  });

  it('agrees exactly with every-pair comparison below EXACT_BELOW', () => {
    const random = createRandom(5);
    const d = 8;
    const n = 400;
    const data = gaussianRows(random, n, d);
    for (let k = 0; k < 80; k++)
      plantCopy(
        random,
        data,
        d,
        random.int(0, n - 1),
        random.int(0, n - 1),
        0.05 + random.next() * 0.4,
      );
    const present = Uint8Array.from({ length: n }, (_, i) => (i % 37 === 0 ? 0 : 1));
    const expected = naivePairs(data, d, 0.05);
    for (const key of [...expected.keys()]) {
      const a = Math.floor(key / n);
      if (!present[a] || !present[key % n]) expected.delete(key);
    }
    const found = new Map<number, number>();
    const result = nearDuplicateGroups(data, d, {
      threshold: 0.05,
      present,
      onPair: (a, b, distance) => found.set(a * n + b, distance),
    });
    expect(result.approximate).toBe(false);
    expect(expected.size).toBeGreaterThan(50);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(
      [...expected.keys()].sort((a, b) => a - b),
    );
    for (const [key, distance] of expected) expect(found.get(key)).toBeCloseTo(distance, 9);
    // Each row's distance is that of its nearest pair.
    for (let i = 0; i < n; i++) {
      const mine = [...expected].filter(([key]) => Math.floor(key / n) === i || key % n === i);
      if (mine.length === 0) expect(result.distance[i]).toBeNaN();
      else expect(result.distance[i]).toBeCloseTo(Math.min(...mine.map(([, v]) => v)), 9);
    }
  });

  it('finds at least 95 % of the pairs through LSH on clustered data of 5,000 rows', () => {
    const random = createRandom(21);
    const d = 48;
    const n = 5000;
    // 50 clusters with a common offset (vectors pointing one way, like histograms); within a
    // cluster, chains of copies at distances spread around the threshold.
    const centres = gaussianRows(random, 50, d);
    const data = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      if (i % 5 !== 0) {
        plantCopy(random, data, d, i - 1, i, 0.02 + 0.1 * random.next());
        continue;
      }
      const c = random.int(0, 49);
      for (let k = 0; k < d; k++) data[i * d + k] = 3 + centres[c * d + k]! + 0.6 * random.normal();
    }
    const threshold = 0.002;
    const expected = naivePairs(data, d, threshold);
    const found = pairsOf(n, (onPair) => {
      const result = nearDuplicateGroups(data, d, { threshold, exactBelow: 0, onPair });
      expect(result.approximate).toBe(true);
    });
    let hit = 0;
    for (const key of expected.keys()) if (found.has(key)) hit++;
    for (const key of found) expect(expected.has(key)).toBe(true);
    expect(expected.size).toBeGreaterThan(2000);
    expect(hit / expected.size).toBeGreaterThanOrEqual(0.95);
  });

  it('bounds the work on identical rows: one group, not every pair', () => {
    const n = 8000;
    const d = 16;
    const data = new Float32Array(n * d).fill(0.25);
    let pairs = 0;
    const result = nearDuplicateGroups(data, d, {
      threshold: 0.01,
      exactBelow: 0,
      onPair: () => pairs++,
    });
    expect(result.members).toHaveLength(1);
    expect(result.members[0]).toHaveLength(n);
    expect(result.distance.every((v) => v === 0)).toBe(true);
    // Every-pair comparison would be n²/2 = 3.2·10⁷; the window bounds it to tables · n · window.
    expect(pairs).toBeLessThan(12 * n * 32);
  });

  it('joins pairs found by perceptual hash to those found by vector', () => {
    const d = 4;
    const data = Float32Array.from([
      1, 0, 0, 0, 0, 1, 0, 0, 1, 0.001, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]);
    const hashes = [
      '0000000000000000',
      '0000000000000003',
      'ffffffffffffffff',
      null,
      '000000000000000f',
    ];
    const result = nearDuplicateGroups(data, d, { threshold: 0.01, hashes, hashDistance: 2 });
    // 0–2 by vector, 0–1 by hash (2 bits); 4 is 4 bits from 0 and 2 bits from 1.
    expect(result.members.map((m) => Array.from(m))).toEqual([[0, 1, 2, 4]]);
    expect(result.distance[1]).toBeCloseTo(1, 9); // vectors 0 and 1 are orthogonal
    expect(result.distance[3]).toBeNaN();
  });
});

/** Hamming distance of two 16-hex-digit hashes, one bit at a time. */
function hamming(a: string, b: string): number {
  let bits = 0;
  for (const half of [0, 8]) {
    let x = (parseInt(a.slice(half, half + 8), 16) ^ parseInt(b.slice(half, half + 8), 16)) >>> 0;
    for (; x; x >>>= 1) bits += x & 1;
  }
  return bits;
}

function randomHash(random: Random): string {
  return Array.from({ length: 16 }, () => random.int(0, 15).toString(16)).join('');
}

function flipBits(random: Random, hash: string, bits: number): string {
  const digits = hash.split('').map((c) => parseInt(c, 16));
  const chosen = new Set<number>();
  while (chosen.size < bits) chosen.add(random.int(0, 63));
  for (const bit of chosen) digits[bit >> 2] = digits[bit >> 2]! ^ (1 << (bit & 3));
  return digits.map((v) => v.toString(16)).join('');
}

describe('hashPairs', () => {
  it('finds exactly the pairs within the Hamming distance, each once', () => {
    const random = createRandom(8);
    const n = 1500;
    const hashes: (string | null)[] = [];
    for (let i = 0; i < n; i++) {
      if (i % 97 === 0) hashes.push(i % 2 ? null : 'not a hash');
      else if (i > 0 && random.next() < 0.3 && hashes[i - 1])
        hashes.push(flipBits(random, hashes[i - 1]!, random.int(0, 10)));
      else hashes.push(randomHash(random));
    }
    const valid = (h: string | null): h is string => h !== null && /^[0-9a-f]{16}$/.test(h);
    const distances = new Uint8Array(n * n).fill(255);
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++) {
        const [x, y] = [hashes[a]!, hashes[b]!];
        if (valid(x) && valid(y)) distances[a * n + b] = hamming(x, y);
      }
    for (const h of [0, 1, 4, 8, 16]) {
      const expected: number[] = [];
      distances.forEach((distance, key) => {
        if (distance <= h) expected.push(key);
      });
      const found: number[] = [];
      expect(hashPairs(hashes, h, (a, b) => found.push(a * n + b))).toBe(false);
      expect(found.sort((a, b) => a - b)).toEqual(expected);
      if (h >= 4) expect(expected.length).toBeGreaterThan(20);
    }
  });

  it('compares an oversized bucket within a window and says so', () => {
    const hashes = Array.from({ length: 5000 }, () => 'abcdef0123456789');
    const found: number[][] = [];
    expect(hashPairs(hashes, 3, (a, b) => found.push([a, b]), 1000)).toBe(true);
    expect(found.length).toBeLessThan(5000 * 40);
    expect(found.length).toBeGreaterThanOrEqual(4999);
  });
});
