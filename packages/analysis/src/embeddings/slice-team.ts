// A synchronous thread team: runs a kernel over slices of a task on several threads at once.
// The calling thread starts worker threads, hands out slices through a small shared control
// block, works on slices itself, and blocks (Atomics.wait) until all are done. Which thread takes
// which slice does not matter as long as each slice writes only its own outputs: results are then
// the same for any number of threads. How the kernels are made is up to the user of the team:
// linalg/thread-team.ts instantiates WebAssembly row kernels on shared WebAssembly memory,
// script-team.ts compiles JavaScript kernels from a self-contained program's source.

import { Worker } from 'node:worker_threads';

/** Most i32 arguments a kernel takes. */
export const MAX_ARGUMENTS = 8;

export type Kernel = (...args: number[]) => void;

// Control block (Int32Array): generation (odd while the calling thread writes a task), next
// slice to claim and slices done (both counting across tasks), the task's kernel (index into
// the kernel names, −1 to stop), its first claim number, slice count and argument count, a flag
// set when a worker's kernel threw; then each slice's arguments (MAX_ARGUMENTS per slice).
const GENERATION = 0;
const CLAIM = 1;
const DONE = 2;
const KERNEL = 3;
const BASE = 4;
const SLICES = 5;
const WIDTH = 6;
const FAILED = 7;
const ARGUMENTS = 8;

/**
 * A worker thread's whole program (plain JavaScript, run with `eval`, so it needs no file of
 * its own in source or build): `setup`, a few lines that create `kernels` (functions by name)
 * from `workerData`, then claim and run slices of each task until told to stop. `workerData`
 * also holds `control` (the control block's buffer) and `names` (the kernels by index).
 */
export function workerSource(setup: string): string {
  return `
const { workerData } = require('node:worker_threads');
const { control, names } = workerData;
const c = new Int32Array(control);
${setup}
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
}

export interface SliceTeamOptions {
  /** Most slices a task may have (sizes the control block). */
  maxSlices: number;
  /** The workers' program, from workerSource. */
  source: string;
  /** Posted to every worker, beside `control` and `names`; buffers in it are shared, not copied. */
  workerData: Record<string, unknown>;
  /** Counts this team's running workers (up on start, down on exit), for tests. */
  tally?: { live: number };
  /** false leaves every slice to the workers (for tests). */
  callerWorks?: boolean;
}

export class SliceTeam<N extends string> {
  private readonly control: Int32Array;
  private readonly workers: Worker[] = [];

  /**
   * `threads` − 1 workers beside the calling thread; fewer if a worker cannot start (the
   * calling thread then simply takes more slices). `callerKernels` are the calling thread's own
   * instances of the kernels the workers' `setup` creates; `names` number them for the control
   * block.
   */
  constructor(
    private readonly callerKernels: Record<N, Kernel>,
    private readonly names: readonly N[],
    threads: number,
    private readonly team: SliceTeamOptions,
  ) {
    const length = ARGUMENTS + team.maxSlices * MAX_ARGUMENTS;
    this.control = new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT));
    const { tally } = team;
    for (let t = 1; t < threads; t++) {
      try {
        const worker = new Worker(team.source, {
          eval: true,
          execArgv: [],
          workerData: { ...team.workerData, control: this.control.buffer, names },
        });
        // A worker that fails to start leaves its slices to the others; nothing to report.
        worker.on('error', () => {});
        if (tally) worker.on('exit', () => tally.live--);
        worker.unref();
        if (tally) tally.live++;
        this.workers.push(worker);
      } catch {
        break;
      }
    }
  }

  get threads(): number {
    return this.workers.length + 1;
  }

  /**
   * Runs `kernel` once per slice with that slice's i32 arguments; returns when all are done.
   * If the calling thread's own kernel throws, that error is rethrown once every slice is done;
   * a worker's kernel that throws is reported as a failure of `kernel`.
   */
  run(kernel: N, slices: number[][]): void {
    const { maxSlices } = this.team;
    if (slices.length > maxSlices) throw new Error(`At most ${maxSlices} slices`);
    const run = this.callerKernels[kernel];
    if (this.workers.length === 0) {
      for (const args of slices) run(...args);
      return;
    }
    if (slices.some((args) => args.length > MAX_ARGUMENTS)) {
      throw new Error(`At most ${MAX_ARGUMENTS} arguments`);
    }
    const c = this.control;
    const base = Atomics.load(c, CLAIM);
    Atomics.add(c, GENERATION, 1);
    Atomics.store(c, KERNEL, this.names.indexOf(kernel));
    Atomics.store(c, BASE, base);
    Atomics.store(c, SLICES, slices.length);
    Atomics.store(c, WIDTH, slices[0]?.length ?? 0);
    slices.forEach((args, s) => {
      args.forEach((value, a) => Atomics.store(c, ARGUMENTS + s * MAX_ARGUMENTS + a, value));
    });
    Atomics.add(c, GENERATION, 1);
    Atomics.notify(c, GENERATION);
    let failure: unknown = null;
    for (;;) {
      if (this.team.callerWorks === false) break;
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
