// EmbeddingsComputation: the 2-D layout of one feature's vectors by one method, computed on a
// worker thread and stored with a hash of its inputs, so an unchanged feature is never laid out
// twice and a new upload of vectors is.
import { createHash } from 'node:crypto';
import type { Repositories } from '../repositories.js';
import { PermanentJobError, type JobContext } from '../jobs/job-types.js';
import { MAX_ATTEMPTS } from '../jobs/jobs.service.js';
import type { Clock } from '../platform/clock.js';
import { ComputeError, type ComputePool } from './compute-pool.js';
import type { EmbeddingKey, VectorMatrix } from './embeddings.repository.js';
import { methodKey } from './reduce.js';

/** sha256 over the ids and vectors, in the stored (item id) order. */
export function hashInputs(matrix: VectorMatrix): string {
  const hash = createHash('sha256');
  hash.update(`${matrix.dimension}:${matrix.ids.length}\n`);
  for (const id of matrix.ids) hash.update(`${id}\n`);
  hash.update(new Uint8Array(matrix.data.buffer, matrix.data.byteOffset, matrix.data.byteLength));
  return hash.digest('hex');
}

export function embeddingsJob(repos: Repositories, pool: ComputePool, clock: Clock) {
  return async (context: JobContext<'EmbeddingsComputation'>): Promise<void> => {
    const { dataset_id, data_level, feature_name, setting } = context.payload;
    const key: EmbeddingKey = {
      dataset_id,
      data_level,
      feature_name,
      method_key: methodKey(setting),
    };
    const feature = (await repos.datasets.features(dataset_id)).find(
      (f) => f.data_level === data_level && f.name === feature_name,
    );
    if (!feature) return; // deleted meanwhile: nothing to lay out
    const version = Number(feature.updated_at);
    const matrix = await repos.embeddings.vectors(
      dataset_id,
      data_level,
      feature_name,
      feature.dimension,
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
    await context.progress(0.05);
    let coords: Float32Array;
    try {
      let last = 0;
      coords = await pool.reduce(matrix.data, matrix.dimension, setting, (fraction) => {
        // The database hears of progress every 5 %, not on every epoch.
        if (fraction - last < 0.05 && fraction < 1) return;
        last = fraction;
        void context.progress(0.05 + 0.9 * fraction).catch(() => {});
      });
    } catch (error) {
      const message = (error as Error).message;
      const refused = error instanceof ComputeError && error.refused;
      if (refused || context.attempt >= MAX_ATTEMPTS) {
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
      item_ids: Buffer.from(JSON.stringify(matrix.ids)),
      coords: Buffer.from(coords.buffer, coords.byteOffset, coords.byteLength),
      num_points: matrix.ids.length,
      updated_at: clock(),
    });
  };
}
