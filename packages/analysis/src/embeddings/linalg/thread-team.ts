// Runs a kernel over slices of the rows on several threads at once, synchronously: the calling
// thread starts worker threads that share the kernels' WebAssembly memory, hands out slices
// through a small shared control block, works on slices itself, and blocks (Atomics.wait)
// until all are done. Which thread takes which slice does not matter: each slice writes only
// its own outputs, so results are the same for any number of threads.

import { Worker } from 'node:worker_threads';
import {
  ROW_KERNELS,
  type RowKernel,
  type Kernels,
  type WasmMemory,
  type WasmModule,
} from './kernels.js';

/** Most i32 arguments a kernel takes. */
const MAX_ARGUMENTS = 8;
/** Most slices a task may have. */
export const MAX_SLICES = 16;

// Control block (Int32Array): generation (odd while the calling thread writes a task), next
// slice to claim and slices done (both counting across tasks), the task's kernel (−1 to stop),
// its first claim number, slice count and argument count, a flag set when a worker's kernel
// threw; then each slice's arguments.
const GENERATION = 0;
const CLAIM = 1;
const DONE = 2;
const KERNEL = 3;
const BASE = 4;
const SLICES = 5;
const WIDTH = 6;
const FAILED = 7;
const ARGUMENTS = 8;
const CONTROL_LENGTH = ARGUMENTS + MAX_SLICES * MAX_ARGUMENTS;

/**
 * The worker thread's whole program (plain JavaScript, run with `eval`, so it needs no file
 * of its own in source or build): instantiate the module on the shared memory, then claim and
 * run slices of each task until told to stop.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { module, memory, control, names } = workerData;
const c = new Int32Array(control);
const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports;
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

export class ThreadTeam {
  private readonly control = new Int32Array(
    new SharedArrayBuffer(CONTROL_LENGTH * Int32Array.BYTES_PER_ELEMENT),
  );
  private readonly workers: Worker[] = [];

  /**
   * `threads` − 1 workers beside the calling thread; fewer if a worker cannot start (the
   * calling thread then simply takes more slices). `callerWorks: false` leaves every slice to
   * the workers (for tests).
   */
  constructor(
    private readonly kernels: Kernels,
    module: WasmModule | null,
    memory: WasmMemory,
    threads: number,
    private readonly options: { callerWorks?: boolean } = {},
  ) {
    if (!module || !(memory.buffer instanceof SharedArrayBuffer)) return;
    for (let t = 1; t < threads; t++) {
      try {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          execArgv: [],
          workerData: { module, memory, control: this.control.buffer, names: ROW_KERNELS },
        });
        // A worker that fails leaves its slices to the others; nothing to report.
        worker.on('error', () => {});
        worker.unref();
        this.workers.push(worker);
      } catch {
        break;
      }
    }
  }

  get threads(): number {
    return this.workers.length + 1;
  }

  /** Runs `kernel` once per slice with that slice's arguments; returns when all are done. */
  run(kernel: RowKernel, slices: number[][]): void {
    if (slices.length > MAX_SLICES) throw new Error(`At most ${MAX_SLICES} slices`);
    const run = this.kernels[kernel] as (...args: number[]) => void;
    if (this.workers.length === 0) {
      for (const args of slices) run(...args);
      return;
    }
    const c = this.control;
    const base = Atomics.load(c, CLAIM);
    Atomics.add(c, GENERATION, 1);
    Atomics.store(c, KERNEL, ROW_KERNELS.indexOf(kernel));
    Atomics.store(c, BASE, base);
    Atomics.store(c, SLICES, slices.length);
    Atomics.store(c, WIDTH, slices[0]?.length ?? 0);
    slices.forEach((args, s) => {
      if (args.length > MAX_ARGUMENTS) throw new Error(`At most ${MAX_ARGUMENTS} arguments`);
      args.forEach((value, a) => Atomics.store(c, ARGUMENTS + s * MAX_ARGUMENTS + a, value));
    });
    Atomics.add(c, GENERATION, 1);
    Atomics.notify(c, GENERATION);
    for (;;) {
      if (this.options.callerWorks === false) break;
      const claim = Atomics.load(c, CLAIM);
      if (claim >= base + slices.length) break;
      if (Atomics.compareExchange(c, CLAIM, claim, claim + 1) !== claim) continue;
      run(...slices[claim - base]!);
      Atomics.add(c, DONE, 1);
    }
    for (;;) {
      const done = Atomics.load(c, DONE);
      if (done >= base + slices.length) break;
      Atomics.wait(c, DONE, done);
    }
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
