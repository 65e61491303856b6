// The only door to the usearch native library (HNSW indexes, SIMD brute force), loaded on first
// use so that importing @loupe/analysis never loads it. Every typed array goes through `nativeView`
// on its way in: usearch's exact search reads from the start of a view's ArrayBuffer, not from its
// byteOffset, so a `subarray` handed to it silently returns other rows' neighbours.
import { createRequire } from 'node:module';
import type * as USearch from 'usearch';

let usearchModule: typeof USearch | undefined;

function usearch(): typeof USearch {
  usearchModule ??= createRequire(import.meta.url)('usearch') as typeof USearch;
  return usearchModule;
}

type NativeArray = Float32Array | BigUint64Array;

/**
 * `view` itself when native code may read it from its buffer's first byte: it starts at byte 0 of
 * a plain (not shared) ArrayBuffer and covers all of it. Otherwise a copy that does, so a binding
 * that reads `buffer` instead of the view (or that refuses SharedArrayBuffer) reads these values.
 */
export function nativeView<T extends NativeArray>(view: T): T {
  const { buffer } = view;
  const dense =
    view.byteOffset === 0 &&
    view.byteLength === buffer.byteLength &&
    Object.prototype.toString.call(buffer) === '[object ArrayBuffer]' &&
    !(buffer as ArrayBuffer & { resizable?: boolean }).resizable;
  return dense ? view : (view.slice() as T);
}

export type NativeMetric = 'cosine' | 'euclidean';

function metricKind(metric: NativeMetric): USearch.MetricKind {
  const { MetricKind } = usearch();
  return metric === 'euclidean' ? MetricKind.L2sq : MetricKind.Cos;
}

/**
 * usearch's SIMD brute force (float32, one thread): ids of the `count` rows of `dataset`
 * (n · dimension) nearest to `query`, by squared euclidean distance or cosine distance. Pass the
 * dataset through `nativeView` once and keep it: a view into a larger buffer is copied here.
 */
export function nativeExactSearch(
  dataset: Float32Array,
  query: Float32Array,
  dimension: number,
  count: number,
  metric: NativeMetric,
): BigUint64Array {
  const found = usearch().exactSearch(
    nativeView(dataset),
    nativeView(query),
    dimension,
    count,
    metricKind(metric),
    1,
  ) as { keys: BigUint64Array };
  return found.keys;
}

export interface NativeIndexSettings {
  dimension: number;
  metric: NativeMetric;
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

/** A usearch HNSW index (float32 vectors, one vector per key) whose inputs are re-based views. */
export class NativeIndex {
  readonly #index: USearch.Index;

  constructor(settings: NativeIndexSettings) {
    const { Index, ScalarKind } = usearch();
    this.#index = new Index({
      dimensions: settings.dimension,
      metric: metricKind(settings.metric),
      quantization: ScalarKind.F32,
      connectivity: settings.connectivity,
      expansion_add: settings.expansionAdd,
      expansion_search: settings.expansionSearch,
      multi: false,
    });
  }

  size(): number {
    return Number(this.#index.size());
  }

  contains(keys: BigUint64Array): boolean[] {
    return this.#index.contains(nativeView(keys)) as boolean[];
  }

  remove(keys: BigUint64Array): void {
    this.#index.remove(nativeView(keys));
  }

  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void {
    this.#index.add(nativeView(keys), nativeView(vectors), threads);
  }

  search(query: Float32Array, k: number): { keys: BigUint64Array; distances: Float32Array } {
    const matches = this.#index.search(nativeView(query), k, 1);
    return { keys: matches.keys, distances: matches.distances };
  }

  /**
   * Several queries (rows of `queries`) on `threads` threads: k slots per query, the first
   * `counts[q]` of query q filled, nearest first.
   */
  searchMany(
    queries: Float32Array,
    k: number,
    threads: number,
  ): { keys: BigUint64Array; distances: Float32Array; counts: BigUint64Array } {
    const matches = this.#index.search(nativeView(queries), k, threads);
    // One query answers as a single result, without counts.
    if (!('counts' in matches)) {
      const keys = new BigUint64Array(k);
      const distances = new Float32Array(k);
      keys.set(matches.keys.subarray(0, k));
      distances.set(matches.distances.subarray(0, k));
      return { keys, distances, counts: BigUint64Array.of(BigInt(matches.keys.length)) };
    }
    const batch = matches as USearch.BatchMatches;
    return { keys: batch.keys, distances: batch.distances, counts: batch.counts };
  }

  save(path: string): void {
    this.#index.save(path);
  }

  load(path: string): void {
    this.#index.load(path);
  }
}
