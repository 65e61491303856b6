// Nearest neighbours by cosine similarity over one feature, for the similar-items page: an exact
// scan for small features, an approximate (HNSW) index for large ones. Indexes live on the search
// thread between queries; approximate ones are also kept in the blob store per feature version,
// so a restarted server loads instead of rebuilding, and a new upload builds a new one.
import { createHash } from 'node:crypto';
import type { FeaturesRepository } from '../features/features.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { ComputePool } from './compute-pool.js';
import type { EmbeddingsRepository } from './embeddings.repository.js';

/**
 * From this many vectors on, searches use the approximate index. An exact scan of 1M × 128 costs
 * ~0.26 s of CPU while building the index costs ~1.4 ms of CPU a vector (docs/performance.md), so
 * below this the scan is the better deal.
 */
export const ANN_MIN_VECTORS = 2_000_000;

export interface FeatureRef {
  dataset_id: string;
  data_level: string;
  feature_name: string;
  dimension: number;
  /** The feature's updated_at: vectors changed when it changed. */
  version: number;
}

interface Loaded {
  generation: number;
  ids: string[];
  approximate: boolean;
}

export class SimilaritySearch {
  private loaded = new Map<string, Promise<Loaded>>();
  private builds = new Set<Promise<void>>();

  constructor(
    private readonly repos: {
      features: Pick<FeaturesRepository, 'countVectors'>;
      embeddings: Pick<EmbeddingsRepository, 'vectors'>;
    },
    private readonly blobs: BlobStore,
    private readonly pool: ComputePool,
    /** Public so a test can lower it. */
    public annMinVectors = ANN_MIN_VECTORS,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The `k` nearest items to `query` (most similar first) with their cosine similarity. */
  async search(
    ref: FeatureRef,
    query: Float32Array,
    k: number,
  ): Promise<{ hits: { id: string; similarity: number }[]; approximate: boolean }> {
    for (let attempt = 0; ; attempt++) {
      const key = `${ref.dataset_id}|${ref.data_level}|${ref.feature_name}|${ref.version}`;
      const loaded = await this.ensure(key, ref);
      const result = await this.pool.search.run(
        { kind: 'search', key, query: query.slice(), k: Math.max(1, k) },
        [],
      );
      if (result.missing && attempt === 0) {
        // The thread restarted or let the index go: load it again once.
        this.loaded.delete(key);
        continue;
      }
      const rows = result.rows ?? new Uint32Array();
      const distances = result.distances ?? new Float32Array();
      return {
        hits: Array.from(rows, (row, i) => ({
          id: loaded.ids[row]!,
          similarity: Math.round((1 - distances[i]!) * 1e6) / 1e6,
        })),
        approximate: loaded.approximate,
      };
    }
  }

  private ensure(key: string, ref: FeatureRef): Promise<Loaded> {
    const hit = this.loaded.get(key);
    if (hit) {
      this.loaded.delete(key);
      this.loaded.set(key, hit);
      return hit;
    }
    const loading = this.load(key, ref);
    loading.catch(() => this.loaded.delete(key));
    this.loaded.set(key, loading);
    // The search thread keeps four indexes; so do we.
    while (this.loaded.size > 4) this.loaded.delete(this.loaded.keys().next().value!);
    return loading;
  }

  private async load(key: string, ref: FeatureRef): Promise<Loaded> {
    const { dataset_id, data_level, feature_name, dimension } = ref;
    const count = await this.repos.features.countVectors(dataset_id, data_level, feature_name);
    const approximate = count >= this.annMinVectors;
    const thread = this.pool.search;
    if (!approximate) {
      const matrix = await this.repos.embeddings.vectors(
        dataset_id,
        data_level,
        feature_name,
        dimension,
      );
      await thread.run({ kind: 'index', key, dimension, data: matrix.data }, [
        matrix.data.buffer as ArrayBuffer,
      ]);
      return { generation: thread.generation, ids: matrix.ids, approximate };
    }
    const folder = `datasets/${dataset_id}/similarity/${data_level}/${createHash('sha1').update(feature_name).digest('hex')}`;
    const file = `${folder}/${ref.version}`;
    const [bytes, idsJson] = await Promise.all([
      this.blobs.get(`${file}.index`),
      this.blobs.get(`${file}.ids.json`),
    ]);
    if (bytes && idsJson) {
      await thread.run({ kind: 'index', key, dimension, ann: { bytes: new Uint8Array(bytes) } });
      return {
        generation: thread.generation,
        ids: JSON.parse(idsJson.toString('utf8')) as string[],
        approximate,
      };
    }
    // No index yet: answer exactly now (a scan of 1M × 128 is ~0.3 s of CPU) and build the
    // approximate index on the layout thread meanwhile, so no request waits minutes for it.
    const matrix = await this.repos.embeddings.vectors(
      dataset_id,
      data_level,
      feature_name,
      dimension,
    );
    const copy = matrix.data.slice();
    await thread.run({ kind: 'index', key, dimension, data: matrix.data }, [
      matrix.data.buffer as ArrayBuffer,
    ]);
    const loaded: Loaded = { generation: thread.generation, ids: matrix.ids, approximate: false };
    const build = this.buildInBackground(key, folder, file, dimension, copy, loaded);
    this.builds.add(build);
    void build.finally(() => this.builds.delete(build));
    return loaded;
  }

  private async buildInBackground(
    key: string,
    folder: string,
    file: string,
    dimension: number,
    data: Float32Array,
    loaded: Loaded,
  ): Promise<void> {
    try {
      // In the build child: a server stopping mid-build ends it instead of aborting.
      const built = await this.pool.builds.run({
        kind: 'index',
        key,
        dimension,
        data,
        ann: {},
        serializeOnly: true,
      });
      const serialized = built.serialized!;
      // Older versions' indexes of this feature are of no use any more.
      await this.blobs.deletePrefix(folder);
      await this.blobs.put(
        `${file}.ids.json`,
        Buffer.from(JSON.stringify(loaded.ids)),
        'application/json',
      );
      await this.blobs.put(
        `${file}.index`,
        Buffer.from(serialized.buffer, serialized.byteOffset, serialized.byteLength),
        'application/octet-stream',
      );
      if (this.loaded.has(key)) {
        await this.pool.search.run({ kind: 'index', key, dimension, ann: { bytes: serialized } });
        loaded.approximate = true;
        loaded.generation = this.pool.search.generation;
      }
    } catch (error) {
      // Searches stay exact; the next load of this feature tries again.
      this.onError(error);
    }
  }

  /** Resolves when background index builds have finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.builds.size > 0) await Promise.all([...this.builds]);
  }
}
