// Entry for embeddings compute (layouts and similarity search on worker threads, approximate index
// builds in a child process), so minutes of UMAP or a scan of a million vectors never block the
// API's event loop. Messages: see compute-pool.ts. Search indexes stay loaded between queries.
import {
  createAnnIndex,
  createExactIndex,
  loadAnnIndex,
  type AnnIndex,
  type ExactIndex,
} from '@loupe/analysis';
import { serveTasks } from '../platform/worker-thread.js';
import { reduceTo2d, ReductionRefused } from './reduce.js';
import type { WorkerResult, WorkerTask } from './compute-pool.js';

const indexes = new Map<string, ExactIndex | AnnIndex>();
/** Indexes kept at once; the least recently used goes first. */
const MAX_INDEXES = 4;

function keep(key: string, index: ExactIndex | AnnIndex): void {
  indexes.delete(key);
  indexes.set(key, index);
  while (indexes.size > MAX_INDEXES) indexes.delete(indexes.keys().next().value!);
}

function run(task: WorkerTask, progress: (fraction: number) => void): WorkerResult {
  switch (task.kind) {
    case 'reduce':
      return { coords: reduceTo2d(task.data, task.dimension, task.setting, progress) };
    case 'index': {
      let serialized: Uint8Array | undefined;
      if (task.ann) {
        const index = task.ann.bytes
          ? loadAnnIndex(task.ann.bytes)
          : createAnnIndex({ dimension: task.dimension, metric: 'cosine' });
        if (!task.ann.bytes) {
          const n = task.data!.length / task.dimension;
          index.add(
            Uint32Array.from({ length: n }, (_, i) => i),
            task.data!,
          );
          serialized = index.serialize();
        }
        if (!task.serializeOnly) keep(task.key, index);
      } else {
        keep(
          task.key,
          createExactIndex(task.data!, { dimension: task.dimension, metric: 'cosine' }),
        );
      }
      return serialized ? { serialized } : {};
    }
    case 'search': {
      const index = indexes.get(task.key);
      if (!index) return { missing: true };
      keep(task.key, index);
      const found = index.search(task.query, Math.min(task.k, index.size));
      return { rows: found.ids, distances: found.distances };
    }
  }
}

serveTasks(run, (error) => error instanceof ReductionRefused || error instanceof RangeError);
