// Runs embeddings compute on worker threads: one thread for layouts (a job at a time) and one
// for similarity search (which keeps its indexes loaded). Threads start on first use and end
// when idle for a while, or with the app.
import { Worker } from 'node:worker_threads';
import type { DimensionalityReductionSetting } from '@loupe/contracts';
import { workerSource } from '../platform/worker-source.js';

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

export interface WorkerReply {
  id: number;
  progress?: number;
  result?: WorkerResult;
  error?: { message: string; refused: boolean };
}

/** A compute failure: `refused` when the inputs cannot work (retrying will not help). */
export class ComputeError extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
  }
}

const IDLE_MS = 60_000;

class ComputeThread {
  private worker: Worker | null = null;
  private next = 1;
  private pending = new Map<
    number,
    {
      resolve: (r: WorkerResult) => void;
      reject: (e: Error) => void;
      onProgress?: ((f: number) => void) | undefined;
    }
  >();
  private idle: NodeJS.Timeout | null = null;
  /** Bumped whenever a thread starts: state loaded into an older thread is gone. */
  generation = 0;

  private start(): Worker {
    const { source, eval: isEval, execArgv } = workerSource(import.meta.url, 'compute.worker');
    const worker = new Worker(source, { eval: isEval, execArgv });
    this.generation++;
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      if (reply.progress !== undefined) {
        waiting.onProgress?.(reply.progress);
        return;
      }
      this.pending.delete(reply.id);
      if (reply.error) waiting.reject(new ComputeError(reply.error.message, reply.error.refused));
      else waiting.resolve(reply.result ?? {});
      this.scheduleIdle();
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values())
        waiting.reject(new ComputeError(`The compute thread stopped: ${error.message}`, false));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    worker.unref();
    return worker;
  }

  private scheduleIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    if (this.pending.size > 0) return;
    this.worker?.unref();
    this.idle = setTimeout(() => void this.stop(), IDLE_MS);
    this.idle.unref();
  }

  run(
    task: WorkerTask,
    transfer: ArrayBuffer[] = [],
    onProgress?: (fraction: number) => void,
  ): Promise<WorkerResult> {
    if (this.idle) clearTimeout(this.idle);
    this.worker ??= this.start();
    // Work in hand keeps the process alive; an idle thread does not.
    this.worker.ref();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker!.postMessage({ id, task }, transfer);
    });
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

export class ComputePool {
  readonly layouts = new ComputeThread();
  readonly search = new ComputeThread();

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
      onProgress,
    );
    return result.coords!;
  }

  async close(): Promise<void> {
    await Promise.all([this.layouts.stop(), this.search.stop()]);
  }
}
