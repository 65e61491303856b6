// Clustered float32 vectors for the PCA and nearest-neighbour benchmarks: like real feature
// vectors, points gather around centres, and a few directions carry most of the variance.
import { createRandom } from '@loupe/analysis';

export interface ClusteredData {
  vectors: Float32Array;
  n: number;
  d: number;
}

/**
 * n points in d dimensions around `clusters` centres; centre coordinate j has spread
 * 4 / (1 + j / 8), so variance decays along the dimensions, and points spread 1 around centres.
 */
export function clusteredData(n: number, d: number, clusters: number, seed: number): ClusteredData {
  const random = createRandom(seed);
  const centres = new Float32Array(clusters * d);
  for (let c = 0; c < clusters; c++) {
    for (let j = 0; j < d; j++) centres[c * d + j] = (random.normal() * 4) / (1 + j / 8);
  }
  const vectors = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const c = random.int(0, clusters - 1);
    const o = i * d;
    for (let j = 0; j < d; j++) vectors[o + j] = centres[c * d + j]! + random.normal();
  }
  return { vectors, n, d };
}

/** Wall-clock and CPU (user + system, all threads) milliseconds of one call. */
export function time<T>(fn: () => T): { result: T; ms: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpu: (used.user + used.system) / 1000 };
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function ms(value: number): string {
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`;
}
