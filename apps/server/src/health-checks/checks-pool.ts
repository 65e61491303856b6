// The checks thread (docs/health-checks.md, "How checks are computed"): check definitions run on
// one worker thread (checks.worker.ts) with a heap limit and a deadline per batch, never on the
// API's event loop. A batch is one snapshot and the checks to run on it; each check's throw is
// its own error, while a thread that overruns its deadline or heap fails the whole batch.
import type { CheckParams, DataLevel } from '@loupe/contracts';
import { workerSource } from '../platform/worker-source.js';
import { WorkerThread } from '../platform/worker-thread.js';
import type { CheckOutcome, CheckSnapshot } from './catalogue/types.js';
import type { DefinitionSource } from './definition-sources.js';

export interface CheckRun {
  checkId: string;
  key: string;
  level: DataLevel;
  params: CheckParams;
}

export interface ChecksTask {
  sources: readonly DefinitionSource[];
  snapshot: CheckSnapshot;
  runs: CheckRun[];
}

/** A run's outcome or error, and the milliseconds it took on the thread. */
export type CheckRunResult = ({ outcome: CheckOutcome } | { error: string }) & { ms?: number };

export interface ChecksReply {
  results: CheckRunResult[];
}

export interface ChecksPoolOptions {
  /** Time one batch may take. */
  timeoutMs?: number;
  /** V8 heap of the thread, in MB. */
  heapMb?: number;
  idleMs?: number;
}

const TIMEOUT_MS = 30 * 60_000;
const HEAP_MB = 4096;

export class ChecksPool {
  /** Check runs sent to the thread, by check id (tests count reruns with it). */
  readonly runs = new Map<string, number>();
  private readonly thread: WorkerThread<ChecksTask, ChecksReply>;
  private readonly timeoutMs: number;

  constructor(options: ChecksPoolOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    this.thread = new WorkerThread(workerSource(import.meta.url, 'checks.worker'), {
      name: 'checks',
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? HEAP_MB },
      ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    });
  }

  warm(): void {
    this.thread.warm();
  }

  async run(task: ChecksTask, onProgress?: (fraction: number) => void): Promise<CheckRunResult[]> {
    for (const run of task.runs) this.runs.set(run.checkId, (this.runs.get(run.checkId) ?? 0) + 1);
    const seconds = Math.round(this.timeoutMs / 1000);
    const reply = await this.thread.run(task, [], {
      ...(onProgress ? { onProgress } : {}),
      deadline: {
        ms: this.timeoutMs,
        message: `Computing the health checks took longer than ${seconds} s.`,
      },
    });
    return reply.results;
  }

  close(): Promise<void> {
    return this.thread.stop();
  }
}
