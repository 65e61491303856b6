// The performance thread (docs/model-performance.md, "Where the numbers are computed"): reports,
// curves and slice metrics are computed on one worker thread (performance.worker.ts), started on
// first use and ended when idle or with the app, so that a COCO evaluation of a large dataset never
// blocks the API's event loop. The thread keeps the evaluation data it was given (shared memory,
// not a copy) for the next tasks. One task runs at a time; requests (metadata and selection
// performance) go before the job tasks waiting. Each task has a deadline and the thread a heap
// limit: over either, the task fails, refused (running it again would not help), and a fresh
// thread takes the next one.
import { workerSource } from '../platform/worker-source.js';
import { WorkerThread } from '../platform/worker-thread.js';
import type { ComputeKind, ComputeOutput, ComputeTask } from './compute.js';
import type { Evaluation } from './evaluation-loader.js';
import { toWire, type EvaluationWire } from './evaluation-wire.js';

export type PoolTask =
  | { kind: 'load'; key: number; evaluation: EvaluationWire }
  | { kind: 'run'; key: number; task: ComputeTask };

export interface PoolResult {
  /** The thread does not have the evaluation (it restarted, or let it go). */
  missing?: boolean;
  value?: unknown;
}

export interface PerformancePoolOptions {
  /** Time one task may take on the thread (one split's report, a subset, a chart). */
  timeoutMs?: number;
  /** V8 heap of the thread, in MB (evaluation data is shared memory, outside it). */
  heapMb?: number;
  /** An idle thread ends after this long. */
  idleMs?: number;
}

/** Requests are answered while a user waits; jobs' tasks may wait for them. */
export type Priority = 'request' | 'job';

const TIMEOUT_MS = 10 * 60_000;
const HEAP_MB = 4096;

interface Queued {
  evaluation: Evaluation;
  task: ComputeTask;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const keys = new WeakMap<Evaluation, number>();
let lastKey = 0;

/** An evaluation's name on the thread (each load of evaluation data is a new one). */
function keyOf(evaluation: Evaluation): number {
  let key = keys.get(evaluation);
  if (key === undefined) keys.set(evaluation, (key = ++lastKey));
  return key;
}

export class PerformancePool {
  /** Tasks the thread answered and evaluations it was given (tests check where compute ran). */
  readonly counts = { tasks: 0, loads: 0 };
  private readonly thread: WorkerThread<PoolTask, PoolResult>;
  private readonly waiting: Record<Priority, Queued[]> = { request: [], job: [] };
  private busy = false;
  private closed = false;
  /** The evaluations given to the thread of one generation. */
  private given = { generation: -1, keys: new Set<number>() };
  private readonly timeoutMs: number;

  constructor(options: PerformancePoolOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    const heapMb = options.heapMb ?? HEAP_MB;
    this.thread = new WorkerThread(workerSource(import.meta.url, 'performance.worker'), {
      name: 'performance',
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    });
  }

  /** Computes `task` on the evaluation's data on the thread. */
  run<K extends ComputeKind>(
    evaluation: Evaluation,
    task: ComputeTask<K>,
    priority: Priority,
  ): Promise<ComputeOutput<K>> {
    if (this.closed) return Promise.reject(new Error('The performance thread is closed.'));
    return new Promise((resolve, reject) => {
      this.waiting[priority].push({
        evaluation,
        task,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /** Threads started so far (tests check that a job's tasks run on the thread it warmed). */
  get threadStarts(): number {
    return this.thread.generation;
  }

  /** Starts the thread while a job loads the data its tasks will need (not after). */
  warm(): void {
    if (!this.closed) this.thread.warm();
  }

  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Error('The performance thread is closed.');
    for (const queued of [...this.waiting.request.splice(0), ...this.waiting.job.splice(0)])
      queued.reject(stopped);
    await this.thread.stop();
  }

  private pump(): void {
    if (this.busy) return;
    const next = this.waiting.request.shift() ?? this.waiting.job.shift();
    if (!next) return;
    this.busy = true;
    this.execute(next.evaluation, next.task)
      .then(next.resolve, next.reject)
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  private async execute(evaluation: Evaluation, task: ComputeTask): Promise<unknown> {
    const key = keyOf(evaluation);
    for (let attempt = 0; ; attempt++) {
      const given = this.given.generation === this.thread.generation && this.given.keys.has(key);
      if (!given) {
        await this.call({ kind: 'load', key, evaluation: toWire(evaluation) });
        this.counts.loads++;
        if (this.given.generation !== this.thread.generation)
          this.given = { generation: this.thread.generation, keys: new Set() };
        this.given.keys.add(key);
      }
      const result = await this.call({ kind: 'run', key, task });
      if (result.missing) {
        this.given.keys.delete(key);
        if (attempt === 0) continue;
        throw new Error('The performance thread could not keep the evaluation data.');
      }
      this.counts.tasks++;
      return result.value;
    }
  }

  private call(task: PoolTask): Promise<PoolResult> {
    const seconds = Math.round(this.timeoutMs / 1000);
    return this.thread.run(task, [], {
      deadline: {
        ms: this.timeoutMs,
        message: `Computing model performance took longer than ${seconds} s (the limit of one step: a split's report, a subset or a chart).`,
      },
    });
  }
}
