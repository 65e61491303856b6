// Runs JavaScript kernels over slices of a task on several threads at once, synchronously, on a
// slice team (slice-team.ts, as linalg/thread-team.ts does for the WebAssembly kernels): the
// worker threads share the task's SharedArrayBuffers with the calling thread. Each slice must
// write only its own outputs, so results do not depend on which thread took which slice, nor on
// the number of threads.
//
// The kernels come from a *program*: a self-contained function (no imports, no variables from
// outside its body) that takes the shared buffers and returns its kernels. It is sent to the
// workers as source text and run with `eval`, so it needs no file of its own in source or build;
// the calling thread compiles the very same text, so every thread runs identical code.

import os from 'node:os';
import { SliceTeam, workerSource, type Kernel } from './slice-team.js';

export type { Kernel } from './slice-team.js';

/** Most slices a task may have. */
export const MAX_SCRIPT_SLICES = 64;

export type Program<S, K extends Record<string, Kernel>> = (shared: S) => K;

/**
 * The program's source compiled to a factory. `__name` is a no-op stand-in for the helper that
 * esbuild (tsx) inserts into function bodies to keep function names.
 */
function factorySource(program: string, helpers: string[]): string {
  return `"use strict"; var __name = (f) => f; ${helpers.join('\n')}\nreturn (${program})(shared);`;
}

/** The workers' kernels: the program compiled from its source, on the shared buffers. */
const WORKER_SOURCE = workerSource(
  `const kernels = new Function('shared', workerData.program)(workerData.shared);`,
);

/** Worker threads currently running a ScriptTeam's program (for tests: none after close). */
const tally = { live: 0 };
export function scriptTeamWorkers(): number {
  return tally.live;
}

export class ScriptTeam<S, K extends Record<string, Kernel>> extends SliceTeam<keyof K & string> {
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
    options: {
      helpers?: ((...args: never[]) => unknown)[];
      callerWorks?: boolean;
    } = {},
  ) {
    const helpers = (options.helpers ?? []).map((helper) => helper.toString());
    const source = factorySource(program.toString(), helpers);
    const kernels = new Function('shared', source)(shared) as K;
    super(kernels, Object.keys(kernels) as (keyof K & string)[], threads, {
      maxSlices: MAX_SCRIPT_SLICES,
      source: WORKER_SOURCE,
      workerData: { program: source, shared },
      tally,
      callerWorks: options.callerWorks,
    });
    this.kernels = kernels;
  }
}

/** Threads to use by default: the machine's cores, at most 8. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
}
