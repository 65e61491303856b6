// One child process that runs tasks for the server, for work that calls native libraries for a
// long time (docs/decisions.md, decision 58). A worker thread cannot be ended while it is
// inside a native call: Node aborts the whole process (usearch's searches do, for one). A child
// process can be killed at any moment, so a task that overruns its deadline, a native crash or an
// exhausted heap fails that task only. Its entry module answers with `serveTasks`
// (worker-thread.ts), which serves either a thread or a child. Large typed arrays go through a
// private temporary file instead of the IPC pipe (no serialized copy on either side), both ways.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { revive, spill } from './task-files.js';
import { WorkerTaskError, type RunOptions, type TaskReply } from './worker-thread.js';

export interface ChildSource {
  /** The entry module: built .js, or .ts run with tsx. */
  file: string;
  execArgv: string[];
}

export interface ChildProcessOptions {
  /** Names the process in errors ("The checks process stopped: …"). */
  name: string;
  /** V8 heap of the child, in MB. */
  heapMb?: number;
  /** An idle child ends after this long (its memory goes back); 60 s unless given. */
  idleMs?: number;
  /** Typed arrays of at least this many bytes travel through a file; 4 MB unless given. */
  spillBytes?: number;
}

interface Pending<R> {
  resolve: (result: R) => void;
  reject: (error: Error) => void;
  onProgress?: ((fraction: number) => void) | undefined;
  timer?: NodeJS.Timeout;
  folder: string;
  child: ChildProcess;
}

const IDLE_MS = 60_000;
const SPILL_BYTES = 4 * 1024 * 1024;
const STDERR_TAIL = 4096;

export class ChildProcessRunner<T, R> {
  private child: ChildProcess | null = null;
  private next = 1;
  private readonly pending = new Map<number, Pending<R>>();
  private idle: NodeJS.Timeout | null = null;
  /** Bumped whenever a child starts: state loaded into an older child is gone. */
  generation = 0;

  constructor(
    private readonly source: ChildSource,
    private readonly options: ChildProcessOptions,
  ) {}

  private start(): ChildProcess {
    const heap = this.options.heapMb;
    const child = fork(this.source.file, [], {
      execArgv: [...this.source.execArgv, ...(heap ? [`--max-old-space-size=${heap}`] : [])],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    this.generation++;
    let tail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('message', (reply: TaskReply<R>) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      if (reply.progress !== undefined) {
        waiting.onProgress?.(reply.progress);
        return;
      }
      // Large arrays of the result come back through the task's folder: read before it goes.
      let result: R | undefined;
      let unreadable: Error | undefined;
      if (!reply.error)
        try {
          result = revive(reply.result) as R;
        } catch (error) {
          unreadable = error as Error;
        }
      this.settle(reply.id);
      if (reply.error)
        waiting.reject(new WorkerTaskError(reply.error.message, reply.error.refused));
      else if (unreadable) waiting.reject(unreadable);
      else waiting.resolve(result as R);
      this.scheduleIdle();
    });
    // A child that cannot start reports here and then exits: the exit fails the tasks.
    child.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      const outOfMemory = /heap out of memory|Allocation failed/i.test(tail);
      this.failAll(
        child,
        outOfMemory
          ? new WorkerTaskError(
              `The ${this.options.name} process ran out of memory${heap ? ` (its limit is ${heap} MB)` : ''}.`,
              true,
            )
          : new WorkerTaskError(
              `The ${this.options.name} process stopped (${signal ?? `exit code ${code}`}).`,
              false,
            ),
      );
    });
    this.release(child);
    return child;
  }

  /** The child does not keep the server alive while it has nothing to do. */
  private release(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
  }

  private hold(child: ChildProcess): void {
    child.ref();
    child.channel?.ref();
    (child.stderr as { ref?: () => void } | null)?.ref?.();
  }

  private settle(id: number): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    rmSync(waiting.folder, { recursive: true, force: true });
  }

  /** Fails the tasks in hand on `child` (a killed child's exit comes after a new one started). */
  private failAll(child: ChildProcess, error: Error): void {
    for (const [id, waiting] of [...this.pending]) {
      if (waiting.child !== child) continue;
      this.settle(id);
      waiting.reject(error);
    }
  }

  private scheduleIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    if (this.pending.size > 0) return;
    if (this.child) this.release(this.child);
    this.idle = setTimeout(() => void this.stop(), this.options.idleMs ?? IDLE_MS);
    this.idle.unref();
  }

  /** Starts the child now, if it is not running, so that a coming task does not wait for it. */
  warm(): void {
    if (this.child) return;
    this.child = this.start();
    this.scheduleIdle();
  }

  run(task: T, options: RunOptions = {}): Promise<R> {
    if (this.idle) clearTimeout(this.idle);
    this.child ??= this.start();
    const child = this.child;
    // Work in hand keeps the server alive; an idle child does not.
    this.hold(child);
    const id = this.next++;
    const folder = mkdtempSync(join(tmpdir(), 'loupe-task-'));
    return new Promise<R>((resolve, reject) => {
      const waiting: Pending<R> = {
        resolve,
        reject,
        onProgress: options.onProgress,
        folder,
        child,
      };
      let message: { id: number; task: unknown; folder: string };
      try {
        message = {
          id,
          task: spill(task, folder, this.options.spillBytes ?? SPILL_BYTES),
          folder,
        };
      } catch (error) {
        rmSync(folder, { recursive: true, force: true });
        reject(error as Error);
        this.scheduleIdle();
        return;
      }
      const { deadline } = options;
      if (deadline) {
        waiting.timer = setTimeout(() => {
          if (this.pending.get(id) !== waiting) return;
          this.settle(id);
          reject(new WorkerTaskError(deadline.message, true));
          // The child may be stuck in the task, even in native code: it is killed, and tasks
          // still in hand fail with it.
          if (this.child === child) this.child = null;
          child.kill('SIGKILL');
        }, deadline.ms);
        waiting.timer.unref();
      }
      this.pending.set(id, waiting);
      child.send(message, (error) => {
        if (!error || this.pending.get(id) !== waiting) return;
        this.settle(id);
        reject(
          new WorkerTaskError(`The ${this.options.name} process stopped: ${error.message}`, false),
        );
      });
    });
  }

  async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Held until it exits: an unreferenced child would let the process end before the exit
    // event, leaving this promise unsettled.
    this.hold(child);
    child.kill('SIGKILL');
    await exited;
  }
}
