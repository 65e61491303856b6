// Runs JavaScript kernels over slices of a task on several threads at once, synchronously, as
// linalg/thread-team.ts does for the WebAssembly kernels (same control block protocol): the
// calling thread starts worker threads that share the task's SharedArrayBuffers, hands out
// slices through a small shared control block, works on slices itself, and blocks
// (Atomics.wait) until all are done. Each slice must write only its own outputs, so results do
// not depend on which thread took which slice, nor on the number of threads.
//
// The kernels come from a *program*: a self-contained function (no imports, no variables from
// outside its body) that takes the shared buffers and returns its kernels. It is sent to the
// workers as source text and run with `eval`, so it needs no file of its own in source or build;
// the calling thread compiles the very same text, so every thread runs identical code.

import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** Most i32 arguments a kernel takes. */
const MAX_ARGUMENTS = 8;
/** Most slices a task may have. */
export const MAX_SCRIPT_SLICES = 64;

const GENERATION = 0;
const CLAIM = 1;
const DONE = 2;
const KERNEL = 3;
const BASE = 4;
const SLICES = 5;
const WIDTH = 6;
const FAILED = 7;
const ARGUMENTS = 8;
const CONTROL_LENGTH = ARGUMENTS + MAX_SCRIPT_SLICES * MAX_ARGUMENTS;

export type Kernel = (...args: number[]) => void;
export type Program<S, K extends Record<string, Kernel>> = (shared: S) => K;

/**
 * The program's source compiled to a factory. `__name` is a no-op stand-in for the helper that
 * esbuild (tsx) inserts into function bodies to keep function names.
 */
function factorySource(program: string, helpers: string[]): string {
  return `"use strict"; var __name = (f) => f; ${helpers.join('\n')}\nreturn (${program})(shared);`;
}

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { program, shared, control, names } = workerData;
const c = new Int32Array(control);
const kernels = new Function('shared', program)(shared);
let seen = 0;
for (;;) {
  Atomics.wait(c, ${GENERATION}, seen);
  const generation = Atomics.load(c, ${GENERATION});
  if (generation & 1) continue;
  const kernel = Atomics.load(c, ${KERNEL});
  const base = Atomics.load(c, ${BASE});
  const slices = Atomics.load(c, ${SLICES});
  const width = Atomics.load(c, ${WIDTH});
  if (Atomics.load(c, ${GENERATION}) !== generation) continue;
  seen = generation;
  if (kernel < 0) break;
  const run = kernels[names[kernel]];
  for (;;) {
    const claim = Atomics.load(c, ${CLAIM});
    if (claim < base || claim >= base + slices) break;
    if (Atomics.compareExchange(c, ${CLAIM}, claim, claim + 1) !== claim) continue;
    const at = ${ARGUMENTS} + (claim - base) * ${MAX_ARGUMENTS};
    const args = [];
    for (let a = 0; a < width; a++) args.push(c[at + a]);
    try {
      run(...args);
    } catch {
      Atomics.store(c, ${FAILED}, 1);
    }
    Atomics.add(c, ${DONE}, 1);
    Atomics.notify(c, ${DONE});
  }
}
`;

/** Worker threads currently running a ScriptTeam's program (for tests: none after close). */
let liveWorkers = 0;
export function scriptTeamWorkers(): number {
  return liveWorkers;
}

export class ScriptTeam<S, K extends Record<string, Kernel>> {
  private readonly control = new Int32Array(
    new SharedArrayBuffer(CONTROL_LENGTH * Int32Array.BYTES_PER_ELEMENT),
  );
  private readonly workers: Worker[] = [];
  private readonly names: string[];
  /** The calling thread's own instance of the program's kernels. */
  readonly kernels: K;

  /**
   * `threads` − 1 workers beside the calling thread; fewer if a worker cannot start (the
   * calling thread then simply takes more slices). `shared` must hold only what can be posted
   * to a worker (SharedArrayBuffers, numbers, plain objects); buffers are shared, not copied.
   * `helpers` are self-contained functions declared in the program's module (not imported:
   * a bundler or test runner may rename imports) that the program calls by name; their source
   * goes before the program's. `callerWorks: false` leaves every slice to the workers (for tests).
   */
  constructor(
    program: Program<S, K>,
    shared: S,
    threads: number,
    private readonly options: {
      helpers?: ((...args: never[]) => unknown)[];
      callerWorks?: boolean;
    } = {},
  ) {
    const helpers = (options.helpers ?? []).map((helper) => helper.toString());
    const source = factorySource(program.toString(), helpers);
    this.kernels = new Function('shared', source)(shared) as K;
    this.names = Object.keys(this.kernels);
    for (let t = 1; t < threads; t++) {
      try {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          execArgv: [],
          workerData: { program: source, shared, control: this.control.buffer, names: this.names },
        });
        // A worker that fails to start leaves its slices to the others; nothing to report.
        worker.on('error', () => {});
        worker.on('exit', () => liveWorkers--);
        worker.unref();
        liveWorkers++;
        this.workers.push(worker);
      } catch {
        break;
      }
    }
  }

  get threads(): number {
    return this.workers.length + 1;
  }

  /** Runs `kernel` once per slice with that slice's i32 arguments; returns when all are done. */
  run(kernel: keyof K & string, slices: number[][]): void {
    if (slices.length > MAX_SCRIPT_SLICES) throw new Error(`At most ${MAX_SCRIPT_SLICES} slices`);
    const run = this.kernels[kernel]!;
    if (this.workers.length === 0) {
      for (const args of slices) run(...args);
      return;
    }
    const c = this.control;
    const base = Atomics.load(c, CLAIM);
    Atomics.add(c, GENERATION, 1);
    Atomics.store(c, KERNEL, this.names.indexOf(kernel));
    Atomics.store(c, BASE, base);
    Atomics.store(c, SLICES, slices.length);
    Atomics.store(c, WIDTH, slices[0]?.length ?? 0);
    slices.forEach((args, s) => {
      if (args.length > MAX_ARGUMENTS) throw new Error(`At most ${MAX_ARGUMENTS} arguments`);
      args.forEach((value, a) => Atomics.store(c, ARGUMENTS + s * MAX_ARGUMENTS + a, value));
    });
    Atomics.add(c, GENERATION, 1);
    Atomics.notify(c, GENERATION);
    let failure: unknown = null;
    for (;;) {
      if (this.options.callerWorks === false) break;
      const claim = Atomics.load(c, CLAIM);
      if (claim >= base + slices.length) break;
      if (Atomics.compareExchange(c, CLAIM, claim, claim + 1) !== claim) continue;
      try {
        run(...slices[claim - base]!);
      } catch (error) {
        failure ??= error;
      }
      Atomics.add(c, DONE, 1);
    }
    for (;;) {
      const done = Atomics.load(c, DONE);
      if (done >= base + slices.length) break;
      Atomics.wait(c, DONE, done);
    }
    if (failure !== null) throw failure;
    if (Atomics.exchange(c, FAILED, 0) !== 0) throw new Error(`A worker thread's ${kernel} failed`);
  }

  /** Lets the workers finish; they exit on their own (and never keep the process alive). */
  close(): void {
    if (this.workers.length === 0) return;
    const c = this.control;
    Atomics.add(c, GENERATION, 1);
    Atomics.store(c, KERNEL, -1);
    Atomics.add(c, GENERATION, 1);
    Atomics.notify(c, GENERATION);
    this.workers.length = 0;
  }
}

/** Threads to use by default: the machine's cores, at most 8. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
}
