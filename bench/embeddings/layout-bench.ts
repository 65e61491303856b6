// Shared parts of the UMAP and t-SNE benchmarks: the generated data, timing, and the report.
import os from 'node:os';
import { clusteredVectors, trustworthiness, type ClusteredVectors } from '@loupe/analysis';

export const DIMENSION = 64;

/**
 * 30 Gaussian clusters in 48 signal dimensions (centres ~ N(0, 4²), spreads uniform in [0.5, 2],
 * sizes ∝ weights uniform in [0.5, 1.5]) plus 16 noise dimensions ~ N(0, 0.5²), seed 1.
 */
export function benchmarkData(n: number): ClusteredVectors {
  return clusteredVectors({ n, dimension: DIMENSION, clusters: 30, noiseDimensions: 16, seed: 1 });
}

export interface Timed<T> {
  result: T;
  wall: number;
  cpu: number;
}

/** Wall-clock and process CPU (user + system, all threads) seconds of one call. */
export function timed<T>(fn: () => T): Timed<T> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = fn();
  const wall = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { result, wall, cpu: (used.user + used.system) / 1e6 };
}

export function describeMachine(): string {
  const load = os.loadavg().map((x) => x.toFixed(2));
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node.js ${process.version}, load average ${load.join(' ')}`;
}

/** Trustworthiness with k = 15 on a random sample of points, timed. */
export function sampledTrustworthiness(
  data: ClusteredVectors,
  coordinates: Float32Array,
  sample: number,
): Timed<number> {
  return timed(() =>
    trustworthiness(data.data, data.dimension, coordinates, 2, { k: 15, sample, seed: 2 }),
  );
}

export const seconds = (x: number): string => `${x.toFixed(1)} s`;
