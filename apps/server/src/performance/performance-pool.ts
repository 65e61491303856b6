// The performance thread (docs/model-performance.md, "Where the numbers are computed"): reports,
// curves and slice metrics are computed on one worker thread (performance.worker.ts), started on
// first use and ended when idle or with the app, so that a COCO evaluation of a large dataset never
// blocks the API's event loop. The thread keeps the evaluation data it was given (shared memory,
// not a copy) for the next tasks. One task runs at a time; requests (metadata and selection
// performance) go before the job tasks waiting. Each task has a deadline and the thread a heap
// limit: over either, the task fails, refused (running it again would not help), and a fresh
// thread takes the next one. A pair task (comparing two models) needs both sets' data on the
// thread at once; the thread keeps two.
import { workerSource } from '../platform/worker-source.js';
import { WorkerThread } from '../platform/worker-thread.js';
import type {
  ComputeKind,
  ComputeOutput,
  ComputeTask,
  PairKind,
  PairOutput,
  PairTask,
} from './compute.js';
import type { Evaluation } from './evaluation-loader.js';
import { toWire, type EvaluationWire } from './evaluation-wire.js';

export type PoolTask =
  /** `keep`: an evaluation the thread must not let go for this one (the other of a pair). */
  | { kind: 'load'; key: number; evaluation: EvaluationWire; keep?: number }
  | { kind: 'run'; key: number; task: ComputeTask }
  | { kind: 'pair'; key: number; other: number; task: PairTask };

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
  /** One evaluation, or A's and B's for a pair task. */
  evaluations: [Evaluation] | [Evaluation, Evaluation];
  task: ComputeTask | PairTask;
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
    return this.enqueue([evaluation], task, priority) as Promise<ComputeOutput<K>>;
  }

  /** Computes a pair task on both evaluations' data (A's, then B's) on the thread. */
  runPair<K extends PairKind>(
    a: Evaluation,
    b: Evaluation,
    task: PairTask<K>,
    priority: Priority,
  ): Promise<PairOutput<K>> {
    return this.enqueue([a, b], task, priority) as Promise<PairOutput<K>>;
  }

  private enqueue(
    evaluations: Queued['evaluations'],
    task: Queued['task'],
    priority: Priority,
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The performance thread is closed.'));
    return new Promise((resolve, reject) => {
      this.waiting[priority].push({ evaluations, task, resolve, reject });
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
    this.execute(next.evaluations, next.task)
      .then(next.resolve, next.reject)
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  private async execute(
    evaluations: Queued['evaluations'],
    task: Queued['task'],
  ): Promise<unknown> {
    const keys = evaluations.map(keyOf);
    for (let attempt = 0; ; attempt++) {
      for (const [i, key] of keys.entries()) {
        const given = this.given.generation === this.thread.generation && this.given.keys.has(key);
        if (given) continue;
        const keep = keys.find((other) => other !== key);
        await this.call({
          kind: 'load',
          key,
          evaluation: toWire(evaluations[i]!),
          ...(keep !== undefined ? { keep } : {}),
        });
        this.counts.loads++;
        if (this.given.generation !== this.thread.generation)
          this.given = { generation: this.thread.generation, keys: new Set() };
        this.given.keys.add(key);
      }
      const result = await this.call(
        keys.length === 2
          ? { kind: 'pair', key: keys[0]!, other: keys[1]!, task: task as PairTask }
          : { kind: 'run', key: keys[0]!, task: task as ComputeTask },
      );
      if (result.missing) {
        for (const key of keys) this.given.keys.delete(key);
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
