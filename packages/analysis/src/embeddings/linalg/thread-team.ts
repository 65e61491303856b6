// Runs a WebAssembly row kernel over slices of the rows on several threads at once,
// synchronously, on a slice team (../slice-team.ts): the worker threads instantiate the kernels'
// module on the same shared WebAssembly memory as the calling thread's kernels. Each slice
// writes only its own outputs, so results are the same for any number of threads.

import { SliceTeam, workerSource } from '../slice-team.js';
import {
  ROW_KERNELS,
  type RowKernel,
  type Kernels,
  type WasmMemory,
  type WasmModule,
} from './kernels.js';

/** Most slices a task may have. */
export const MAX_SLICES = 16;

/** The workers' kernels: the module instantiated on the shared memory. */
const WORKER_SOURCE = workerSource(
  `const kernels = new WebAssembly.Instance(workerData.module, { env: { memory: workerData.memory } }).exports;`,
);

export class ThreadTeam extends SliceTeam<RowKernel> {
  /**
   * `threads` − 1 workers beside the calling thread; none without a module or on memory that is
   * not shared, fewer if a worker cannot start (the calling thread then simply takes more
   * slices). `callerWorks: false` leaves every slice to the workers (for tests).
   */
  constructor(
    kernels: Kernels,
    module: WasmModule | null,
    memory: WasmMemory,
    threads: number,
    options: { callerWorks?: boolean } = {},
  ) {
    const shared = module !== null && memory.buffer instanceof SharedArrayBuffer;
    super(kernels, ROW_KERNELS, shared ? threads : 1, {
      maxSlices: MAX_SLICES,
      source: WORKER_SOURCE,
      workerData: { module, memory },
      callerWorks: options.callerWorks,
    });
  }
}
