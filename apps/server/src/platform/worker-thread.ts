// One worker thread that runs tasks for the main thread, and the loop the thread's entry module
// serves them with (serveTasks): started on first use, referenced only while it has work, ended
// when idle for a while or on stop(). A thread that ends on its own (a crash, its heap limit) or
// overruns a task's deadline fails the tasks in hand; the next task starts a fresh thread.
import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';
import { revive, spill } from './task-files.js';
import type { WorkerSource } from './worker-source.js';

/** What the thread answers a task with: progress reports, then a result or an error. */
export interface TaskReply<R> {
  id: number;
  progress?: number;
  result?: R;
  error?: { message: string; refused: boolean };
}

/**
 * A task that failed on the thread. `refused` when running it again cannot help: the inputs
 * cannot work, or it overran its deadline or the thread's heap limit.
 */
export class WorkerTaskError extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

export interface WorkerThreadOptions {
  /** Names the thread in errors ("The performance thread stopped: …"). */
  name: string;
  resourceLimits?: ResourceLimits;
  /** An idle thread ends after this long (its memory goes back); 60 s unless given. */
  idleMs?: number;
}

export interface RunOptions {
  onProgress?: (fraction: number) => void;
  /** Past `ms` the thread is ended and the task fails (refused) with `message`. */
  deadline?: { ms: number; message: string };
}

interface Pending<R> {
  resolve: (result: R) => void;
  reject: (error: Error) => void;
  onProgress?: ((fraction: number) => void) | undefined;
  timer?: NodeJS.Timeout;
  worker: Worker;
}

const IDLE_MS = 60_000;
/** A child's result arrays of at least this many bytes go back through a file. */
const RESULT_SPILL_BYTES = 4 * 1024 * 1024;

export class WorkerThread<T, R> {
  private worker: Worker | null = null;
  private next = 1;
  private readonly pending = new Map<number, Pending<R>>();
  private idle: NodeJS.Timeout | null = null;
  /** Bumped whenever a thread starts: state loaded into an older thread is gone. */
  generation = 0;

  constructor(
    private readonly source: WorkerSource,
    private readonly options: WorkerThreadOptions,
  ) {}

  private start(): Worker {
    const { source, eval: isEval, execArgv } = this.source;
    const worker = new Worker(source, {
      eval: isEval,
      execArgv,
      ...(this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {}),
    });
    this.generation++;
    worker.on('message', (reply: TaskReply<R>) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      if (reply.progress !== undefined) {
        waiting.onProgress?.(reply.progress);
        return;
      }
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      if (reply.error)
        waiting.reject(new WorkerTaskError(reply.error.message, reply.error.refused));
      else waiting.resolve(reply.result as R);
      this.scheduleIdle();
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      const error = failure ?? new Error(`exit code ${code}`);
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      const heap = this.options.resourceLimits?.maxOldGenerationSizeMb;
      this.failAll(
        worker,
        outOfMemory
          ? new WorkerTaskError(
              `The ${this.options.name} thread ran out of memory${heap ? ` (its limit is ${heap} MB)` : ''}.`,
              true,
            )
          : new WorkerTaskError(`The ${this.options.name} thread stopped: ${error.message}`, false),
      );
    });
    worker.unref();
    return worker;
  }

  /** Fails the tasks in hand on `worker` (an ended thread's exit comes after a new one started). */
  private failAll(worker: Worker, error: Error): void {
    for (const [id, waiting] of [...this.pending]) {
      if (waiting.worker !== worker) continue;
      this.pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
  }

  private scheduleIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    if (this.pending.size > 0) return;
    this.worker?.unref();
    this.idle = setTimeout(() => void this.stop(), this.options.idleMs ?? IDLE_MS);
    this.idle.unref();
  }

  /**
   * Starts the thread now, if it is not running, so that a task about to be posted (once its
   * input is ready) does not also wait for the thread's start; it ends after the idle time if
   * no task comes.
   */
  warm(): void {
    if (this.worker) return;
    this.worker = this.start();
    this.scheduleIdle();
  }

  /** `transfer`: buffers that move to the thread instead of being copied. */
  run(task: T, transfer: ArrayBuffer[] = [], options: RunOptions = {}): Promise<R> {
    if (this.idle) clearTimeout(this.idle);
    this.worker ??= this.start();
    const worker = this.worker;
    // Work in hand keeps the process alive; an idle thread does not.
    worker.ref();
    const id = this.next++;
    return new Promise<R>((resolve, reject) => {
      const waiting: Pending<R> = { resolve, reject, onProgress: options.onProgress, worker };
      const { deadline } = options;
      if (deadline) {
        waiting.timer = setTimeout(() => {
          if (this.pending.get(id) !== waiting) return;
          this.pending.delete(id);
          reject(new WorkerTaskError(deadline.message, true));
          // The thread may be stuck in the task: it ends, and tasks still in hand fail with it.
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
        }, deadline.ms);
        waiting.timer.unref();
      }
      this.pending.set(id, waiting);
      worker.postMessage({ id, task }, transfer);
    });
  }

  async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

/**
 * The thread side (or a ChildProcessRunner's child): answers each task with `run`'s result (on a
 * thread, top-level typed arrays move back instead of being copied) or its error, `refused` as
 * `isRefused` says.
 */
export function serveTasks<T, R>(
  run: (task: T, progress: (fraction: number) => void) => R | Promise<R>,
  isRefused: (error: unknown) => boolean = () => false,
): void {
  const port = parentPort;
  const child = !port && process.send ? process : null;
  if (!port && !child) throw new Error('serveTasks runs on a worker thread or a child process');
  const post = (reply: TaskReply<R>, transfer: ArrayBuffer[] = []) => {
    if (port) port.postMessage(reply, transfer);
    else child!.send!(reply);
  };
  // A child whose server went away has nobody to answer.
  child?.on('disconnect', () => process.exit(0));
  // A child's task names its private folder: large arrays of the result go back through it.
  const serve = ({ id, task, folder }: { id: number; task: T; folder?: string }) => {
    const fail = (error: unknown) =>
      post({
        id,
        error: {
          message: error instanceof Error ? error.message : String(error),
          refused: isRefused(error),
        },
      });
    const answer = (result: R) => {
      if (!child || folder === undefined) return post({ id, result }, owned(result));
      let sent: R;
      try {
        sent = spill(result, folder, RESULT_SPILL_BYTES, 'result-') as R;
      } catch (error) {
        fail(error);
        return;
      }
      post({ id, result: sent });
    };
    let out: R | Promise<R>;
    try {
      if (child) task = revive(task) as T;
      out = run(task, (fraction) => post({ id, progress: fraction }));
    } catch (error) {
      fail(error);
      return;
    }
    if (out instanceof Promise) out.then(answer, fail);
    else answer(out);
  };
  if (port) port.on('message', serve);
  else child!.on('message', serve);
}

/** The buffers of a result's top-level typed arrays, each once; shared memory stays shared. */
function owned(result: unknown): ArrayBuffer[] {
  if (result === null || typeof result !== 'object') return [];
  const buffers = new Set<ArrayBuffer>();
  for (const value of Object.values(result))
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
  return [...buffers];
}
