// Layouts of the embeddings scatter plot: the 2-D layout of one feature's vectors (a dataset's or
// a prediction set's own) by one method, computed on a worker thread and stored with a hash of
// its inputs, so an unchanged feature is never laid out twice and a new upload of vectors is.
import { createHash } from 'node:crypto';
import type { FeaturesRepository } from '../features/features.repository.js';
import { PermanentJobError, type JobPayloads } from '../jobs/job-types.js';
import { MAX_ATTEMPTS } from '../jobs/jobs.service.js';
import type { Clock } from '../platform/clock.js';
import { ComputeError, type ComputePool } from './compute-pool.js';
import type { EmbeddingKey, EmbeddingsRepository, VectorMatrix } from './embeddings.repository.js';
import { methodKey } from './reduce.js';

/** sha256 over the ids and vectors, in the stored (item id) order. */
export function hashInputs(matrix: VectorMatrix): string {
  const hash = createHash('sha256');
  hash.update(`${matrix.dimension}:${matrix.ids.length}\n`);
  for (const id of matrix.ids) hash.update(`${id}\n`);
  hash.update(new Uint8Array(matrix.data.buffer, matrix.data.byteOffset, matrix.data.byteLength));
  return hash.digest('hex');
}

export interface LayoutsRepos {
  features: Pick<FeaturesRepository, 'list'>;
  embeddings: Pick<EmbeddingsRepository, 'vectors' | 'state' | 'setState' | 'saveResult'>;
}

export class LayoutsService {
  constructor(
    private readonly repos: LayoutsRepos,
    private readonly pool: Pick<ComputePool, 'reduce'>,
    private readonly clock: Clock,
  ) {}

  /**
   * Lays out a feature's vectors by a method; `attempt` is the job's attempt (a failure is
   * recorded when it is the last), `progress` reports 0–1.
   */
  async compute(
    payload: JobPayloads['EmbeddingsComputation'],
    attempt: number,
    progress: (fraction: number) => Promise<void>,
  ): Promise<void> {
    const { repos, pool, clock } = this;
    const { dataset_id, data_level, feature_name, setting } = payload;
    const setId = payload.prediction_set_id ?? '';
    const key: EmbeddingKey = {
      dataset_id,
      prediction_set_id: setId,
      data_level,
      feature_name,
      method_key: methodKey(setting),
    };
    const feature = (await repos.features.list(dataset_id, setId)).find(
      (f) => f.data_level === data_level && f.name === feature_name,
    );
    if (!feature) return; // deleted meanwhile: nothing to lay out
    const version = Number(feature.updated_at);
    const matrix = await repos.embeddings.vectors(
      dataset_id,
      data_level,
      feature_name,
      feature.dimension,
      setId,
    );
    const inputHash = hashInputs(matrix);
    const previous = await repos.embeddings.state(key);
    if (previous?.input_hash === inputHash && previous.status === 'ready') {
      // Same vectors under a newer version (e.g. an upload that changed nothing): reuse.
      await repos.embeddings.setState(key, {
        status: 'ready',
        source_version: version,
        job_key: null,
        error: null,
        updated_at: clock(),
      });
      return;
    }
    await progress(0.05);
    let coords: Float32Array;
    try {
      let last = 0;
      coords = await pool.reduce(matrix.data, matrix.dimension, setting, (fraction) => {
        // The database hears of progress every 5 %, not on every epoch.
        if (fraction - last < 0.05 && fraction < 1) return;
        last = fraction;
        void progress(0.05 + 0.9 * fraction).catch(() => {});
      });
    } catch (error) {
      const message = (error as Error).message;
      const refused = error instanceof ComputeError && error.refused;
      if (refused || attempt >= MAX_ATTEMPTS) {
        await repos.embeddings.setState(key, {
          status: 'failed',
          source_version: version,
          job_key: null,
          error: message,
          updated_at: clock(),
        });
      }
      throw refused ? new PermanentJobError(message) : error;
    }
    await repos.embeddings.saveResult(key, {
      source_version: version,
      input_hash: inputHash,
      ids: matrix.ids,
      coords,
      updated_at: clock(),
    });
  }
}
