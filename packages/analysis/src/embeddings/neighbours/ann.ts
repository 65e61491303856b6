// Approximate nearest-neighbour index (HNSW, by the usearch native library) behind a small
// interface of our own, so the server can keep one per feature as bytes and grow it after uploads.

import {
  mkdtempSync,
  openSync,
  readSync,
  closeSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DistanceMetric, Neighbours } from './exact.js';
import { NativeIndex } from './native.js';

export interface AnnIndexOptions {
  dimension: number;
  metric: DistanceMetric;
  /** Graph degree M (default 16): more is better recall, more memory and a slower build. */
  connectivity?: number;
  /** Candidate list while inserting (default 128; lower builds faster, a poorer graph). */
  expansionAdd?: number;
  /** Candidate list while searching (default 128; usearch widens it to k when k is larger). */
  expansionSearch?: number;
  /** Threads for add (default 0: one per core). Searches use one thread. */
  threads?: number;
}

export interface AnnIndex {
  readonly dimension: number;
  readonly metric: DistanceMetric;
  /** Number of vectors held. */
  readonly size: number;
  /**
   * Adds rows of `vectors` (ids.length · dimension) under the given ids (integers in
   * [0, 2³²)); an id already present has its vector replaced.
   */
  add(ids: ArrayLike<number>, vectors: Float32Array): void;
  /** About the k nearest, nearest first (distances as in exact search). */
  search(query: Float32Array, k: number): Neighbours;
  /**
   * The k nearest of each row of `queries` (a multiple of dimension), searched on the index's
   * threads: k slots per query, nearest first; `counts[q]` of query q's slots are filled.
   */
  searchMany(queries: Float32Array, k: number): Neighbours & { counts: Uint32Array };
  /** Bytes that `loadAnnIndex` (or `load`) turns back into the same index. */
  serialize(): Uint8Array;
  /** Replaces this index's contents by serialized bytes of an index of the same dimension and metric. */
  load(bytes: Uint8Array): void;
}

const MAGIC = 0x4e4e414c; // "LANN" little-endian
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;
const MAX_ID = 2 ** 32 - 1;

interface Settings {
  dimension: number;
  metric: DistanceMetric;
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
  threads: number;
}

function settingsOf(options: AnnIndexOptions): Settings {
  const { dimension, metric } = options;
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new Error('dimension must be a positive integer');
  }
  if (metric !== 'cosine' && metric !== 'euclidean') {
    throw new Error(`Unknown metric: ${String(metric)}`);
  }
  const settings = {
    dimension,
    metric,
    connectivity: options.connectivity ?? 16,
    expansionAdd: options.expansionAdd ?? 128,
    expansionSearch: options.expansionSearch ?? 128,
    threads: options.threads ?? 0,
  };
  for (const name of ['connectivity', 'expansionAdd', 'expansionSearch'] as const) {
    if (!Number.isInteger(settings[name]) || settings[name] < 2) {
      throw new Error(`${name} must be an integer of at least 2`);
    }
  }
  if (!Number.isInteger(settings.threads) || settings.threads < 0) {
    throw new Error('threads must be a non-negative integer');
  }
  return settings;
}

/** usearch reads and writes indexes only through files; a private temporary folder carries them. */
function withTemporaryFile<T>(use: (path: string) => T): T {
  const folder = mkdtempSync(join(tmpdir(), 'loupe-ann-'));
  try {
    return use(join(folder, 'index.usearch'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function createAnnIndex(options: AnnIndexOptions): AnnIndex {
  return new UsearchAnnIndex(settingsOf(options));
}

/**
 * An index from `serialize()` bytes; dimension, metric and graph settings come from the bytes.
 * `expansionSearch` may be changed here (usearch fixes it per handle): wider finds more of the
 * true neighbours for a slower search, with no rebuild.
 */
export function loadAnnIndex(
  bytes: Uint8Array,
  options: { threads?: number; expansionSearch?: number } = {},
): AnnIndex {
  const header = readHeader(bytes);
  const index = new UsearchAnnIndex(
    settingsOf({
      ...header,
      threads: options.threads ?? 0,
      expansionSearch: options.expansionSearch ?? header.expansionSearch,
    }),
  );
  index.load(bytes);
  return index;
}

function readHeader(bytes: Uint8Array): Omit<Settings, 'threads'> {
  if (bytes.length < HEADER_BYTES) throw new Error('Not a serialized nearest-neighbour index');
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  if (view.getUint32(0, true) !== MAGIC)
    throw new Error('Not a serialized nearest-neighbour index');
  const version = view.getUint8(4);
  if (version !== FORMAT_VERSION) {
    throw new Error(`Unsupported nearest-neighbour index format version ${version}`);
  }
  return {
    metric: view.getUint8(5) === 0 ? 'cosine' : 'euclidean',
    dimension: view.getUint32(8, true),
    connectivity: view.getUint32(12, true),
    expansionAdd: view.getUint32(16, true),
    expansionSearch: view.getUint32(20, true),
  };
}

class UsearchAnnIndex implements AnnIndex {
  #native: NativeIndex;

  constructor(private readonly settings: Settings) {
    this.#native = new NativeIndex(settings);
  }

  get dimension(): number {
    return this.settings.dimension;
  }

  get metric(): DistanceMetric {
    return this.settings.metric;
  }

  get size(): number {
    return this.#native.size();
  }

  add(ids: ArrayLike<number>, vectors: Float32Array): void {
    const count = ids.length;
    if (vectors.length !== count * this.dimension) {
      throw new Error(
        `vectors must hold ids.length · dimension = ${count * this.dimension} values`,
      );
    }
    if (count === 0) return;
    const keys = new BigUint64Array(count);
    const seen = new Set<number>();
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      if (!Number.isInteger(id) || id < 0 || id > MAX_ID) {
        throw new Error(`ids[${i}] must be an integer from 0 to ${MAX_ID}`);
      }
      if (seen.has(id)) throw new Error(`ids[${i}] repeats id ${id}`);
      seen.add(id);
      keys[i] = BigInt(id);
    }
    for (let i = 0; i < vectors.length; i++) {
      if (!Number.isFinite(vectors[i])) throw new Error(`vectors[${i}] is not a finite number`);
    }
    if (this.size > 0) {
      const present = this.#native.contains(keys);
      const replaced = keys.filter((_, i) => present[i]);
      if (replaced.length > 0) this.#native.remove(replaced);
    }
    this.#native.add(keys, vectors, this.settings.threads);
  }

  search(query: Float32Array, k: number): Neighbours {
    if (!Number.isInteger(k) || k < 1) throw new Error('k must be a positive integer');
    if (query.length !== this.dimension) {
      throw new Error(`query must hold dimension = ${this.dimension} values`);
    }
    if (this.size === 0) return { ids: new Uint32Array(0), distances: new Float32Array(0) };
    const matches = this.#native.search(query, k);
    const found = matches.keys.length;
    const ids = new Uint32Array(found);
    const distances = new Float32Array(found);
    for (let i = 0; i < found; i++) {
      ids[i] = Number(matches.keys[i]);
      const distance = matches.distances[i]!;
      distances[i] =
        this.metric === 'euclidean' ? Math.sqrt(Math.max(0, distance)) : Math.max(0, distance);
    }
    return { ids, distances };
  }

  searchMany(queries: Float32Array, k: number): Neighbours & { counts: Uint32Array } {
    if (!Number.isInteger(k) || k < 1) throw new Error('k must be a positive integer');
    if (queries.length % this.dimension !== 0) {
      throw new Error(`queries must hold a multiple of dimension = ${this.dimension} values`);
    }
    const q = queries.length / this.dimension;
    const ids = new Uint32Array(q * k);
    const distances = new Float32Array(q * k);
    const counts = new Uint32Array(q);
    if (this.size === 0 || q === 0) return { ids, distances, counts };
    const matches = this.#native.searchMany(queries, k, this.settings.threads);
    for (let i = 0; i < q; i++) {
      const found = Math.min(k, Number(matches.counts[i]!));
      counts[i] = found;
      for (let t = 0; t < found; t++) {
        ids[i * k + t] = Number(matches.keys[i * k + t]!);
        const distance = matches.distances[i * k + t]!;
        distances[i * k + t] =
          this.metric === 'euclidean' ? Math.sqrt(Math.max(0, distance)) : Math.max(0, distance);
      }
    }
    return { ids, distances, counts };
  }

  serialize(): Uint8Array {
    return withTemporaryFile((path) => {
      this.#native.save(path);
      const size = statSync(path).size;
      const bytes = new Uint8Array(HEADER_BYTES + size);
      const view = new DataView(bytes.buffer, 0, HEADER_BYTES);
      view.setUint32(0, MAGIC, true);
      view.setUint8(4, FORMAT_VERSION);
      view.setUint8(5, this.metric === 'cosine' ? 0 : 1);
      view.setUint32(8, this.dimension, true);
      view.setUint32(12, this.settings.connectivity, true);
      view.setUint32(16, this.settings.expansionAdd, true);
      view.setUint32(20, this.settings.expansionSearch, true);
      // Read straight into the result, after the header: the index may be hundreds of MB.
      const fd = openSync(path, 'r');
      try {
        let offset = 0;
        while (offset < size) {
          const read = readSync(fd, bytes, HEADER_BYTES + offset, size - offset, offset);
          if (read === 0) throw new Error('The index file ended early');
          offset += read;
        }
      } finally {
        closeSync(fd);
      }
      return bytes;
    });
  }

  load(bytes: Uint8Array): void {
    const header = readHeader(bytes);
    if (header.dimension !== this.dimension || header.metric !== this.metric) {
      throw new Error(
        `The bytes hold a ${header.metric} index of dimension ${header.dimension}, not ${this.metric} of ${this.dimension}`,
      );
    }
    withTemporaryFile((path) => {
      writeFileSync(path, bytes.subarray(HEADER_BYTES));
      const native = new NativeIndex(this.settings);
      native.load(path);
      this.#native = native;
    });
  }
}
