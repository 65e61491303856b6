// Runs embeddings compute on worker threads: one thread for layouts (a job at a time) and one
// for similarity search (which keeps its indexes loaded); approximate indexes are built in a
// child process, which, unlike a thread inside a native build, can be ended at any moment (a
// server stopping mid-build exits cleanly; docs/decisions.md, decision 58). Threads and the
// child start on first use and end when idle for a while, or with the app.
import type { DimensionalityReductionSetting } from '@loupe/contracts';
import { ChildProcessRunner } from '../platform/child-process.js';
import { childSource, workerSource } from '../platform/worker-source.js';
import { WorkerTaskError, WorkerThread } from '../platform/worker-thread.js';

export type WorkerTask =
  | {
      kind: 'reduce';
      data: Float32Array;
      dimension: number;
      setting: DimensionalityReductionSetting;
    }
  | {
      /** Loads a search index: exact over `data`, or approximate from `ann.bytes` or built from `data`. */
      kind: 'index';
      key: string;
      dimension: number;
      data?: Float32Array;
      ann?: { bytes?: Uint8Array };
      /** Build and answer the serialized index without keeping it (built off the search thread). */
      serializeOnly?: boolean;
    }
  | { kind: 'search'; key: string; query: Float32Array; k: number };

export interface WorkerResult {
  coords?: Float32Array;
  serialized?: Uint8Array;
  rows?: Uint32Array;
  distances?: Float32Array;
  missing?: boolean;
}

/** A compute failure: `refused` when the inputs cannot work (retrying will not help). */
export { WorkerTaskError as ComputeError };

type ComputeThread = WorkerThread<WorkerTask, WorkerResult>;

const computeThread = (): ComputeThread =>
  new WorkerThread(workerSource(import.meta.url, 'compute.worker'), { name: 'compute' });

export class ComputePool {
  readonly layouts = computeThread();
  readonly search = computeThread();
  /** Builds approximate indexes (`index` tasks with `serializeOnly`). */
  readonly builds = new ChildProcessRunner<WorkerTask, WorkerResult>(
    childSource(import.meta.url, 'compute.worker'),
    { name: 'index build' },
  );

  /** n · 2 coordinates; progress reports arrive while the thread works. */
  async reduce(
    data: Float32Array,
    dimension: number,
    setting: DimensionalityReductionSetting,
    onProgress: (fraction: number) => void,
  ): Promise<Float32Array> {
    const result = await this.layouts.run(
      { kind: 'reduce', data, dimension, setting },
      [data.buffer as ArrayBuffer],
      { onProgress },
    );
    return result.coords!;
  }

  async close(): Promise<void> {
    await Promise.all([this.layouts.stop(), this.search.stop(), this.builds.stop()]);
  }
}
