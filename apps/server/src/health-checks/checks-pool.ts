// The checks process (docs/health-checks.md, "How checks are computed"): check definitions run in
// one child process (checks.worker.ts) with a heap limit and a deadline per check, never on the
// API's event loop, and in a process rather than a thread because their searches run in native
// code, which a thread cannot be stopped in (platform/child-process.ts). A batch is one snapshot
// and the checks to run on it: the snapshot is sent once and kept by the child, then each check is
// its own task, so each result arrives as soon as it is computed and a check's throw, overrun or
// crash is that check's error only.
import { randomUUID } from 'node:crypto';
import type { CheckParams, DataLevel } from '@loupe/contracts';
import { ChildProcessRunner } from '../platform/child-process.js';
import { childSource } from '../platform/worker-source.js';
import { WorkerTaskError } from '../platform/worker-thread.js';
import type { CheckOutcome, CheckSnapshot } from './catalogue/types.js';
import type { DefinitionSource } from './definition-sources.js';
import type { SentSnapshot } from './snapshot.js';

export interface CheckRun {
  checkId: string;
  key: string;
  level: DataLevel;
  params: CheckParams;
}

export interface ChecksBatch {
  sources: readonly DefinitionSource[];
  snapshot: SentSnapshot;
  runs: CheckRun[];
}

/**
 * One check on the child: the snapshot travels only when the child does not hold it (sent as the
 * server holds it, received with every array in memory).
 */
export interface ChecksTask<S extends SentSnapshot = CheckSnapshot> {
  sources: readonly DefinitionSource[];
  snapshotKey: string;
  snapshot?: S;
  run: CheckRun;
  /** Where checks keep their search state between runs (check-state.ts); none: full runs. */
  stateDir?: string | null;
}

/** A run's outcome or error, and the milliseconds it took in the checks process. */
export type CheckRunResult = ({ outcome: CheckOutcome } | { error: string }) & { ms?: number };

/** The child's answer to a task naming a snapshot it does not hold (it restarted). */
export const SNAPSHOT_MISSING = 'The checks process does not hold this snapshot.';

export interface ChecksPoolOptions {
  /** Time one check may take. */
  timeoutMs?: number;
  /** V8 heap of the process, in MB. */
  heapMb?: number;
  idleMs?: number;
  /**
   * Folder of the search state checks keep between runs (check-state.ts), one subfolder per
   * dataset; null (the default): every run is a full run.
   */
  stateDir?: string | null;
}

const TIMEOUT_MS = 30 * 60_000;
const HEAP_MB = 4096;

export class ChecksPool {
  /** Check runs sent to the process, by check id (tests count reruns with it). */
  readonly runs = new Map<string, number>();
  private readonly child: ChildProcessRunner<ChecksTask<SentSnapshot>, CheckRunResult>;
  private readonly timeoutMs: number;
  private readonly stateDir: string | null;

  constructor(options: ChecksPoolOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    this.stateDir = options.stateDir ?? null;
    this.child = new ChildProcessRunner(childSource(import.meta.url, 'checks.worker'), {
      name: 'checks',
      heapMb: options.heapMb ?? HEAP_MB,
      ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    });
  }

  warm(): void {
    this.child.warm();
  }

  /**
   * Runs each check of the batch in turn, telling `onResult` each result as it comes; resolves
   * with all of them in the batch's order.
   */
  async run(
    batch: ChecksBatch,
    onResult?: (index: number, result: CheckRunResult) => Promise<void>,
  ): Promise<CheckRunResult[]> {
    const snapshotKey = randomUUID();
    const seconds = Math.round(this.timeoutMs / 1000);
    const deadline = {
      ms: this.timeoutMs,
      message: `Computing this check took longer than ${seconds} s.`,
    };
    const results: CheckRunResult[] = [];
    let held = false;
    for (const [index, run] of batch.runs.entries()) {
      this.runs.set(run.checkId, (this.runs.get(run.checkId) ?? 0) + 1);
      const send = (withSnapshot: boolean) =>
        this.child.run(
          {
            sources: batch.sources,
            snapshotKey,
            ...(withSnapshot ? { snapshot: batch.snapshot } : {}),
            run,
            stateDir: this.stateDir,
          },
          { deadline },
        );
      let result: CheckRunResult;
      try {
        try {
          result = await send(!held);
        } catch (error) {
          // The child restarted since it was sent the snapshot: again, with it.
          if (!(error instanceof WorkerTaskError) || error.message !== SNAPSHOT_MISSING)
            throw error;
          result = await send(true);
        }
        held = true;
      } catch (error) {
        held = false;
        result = { error: error instanceof Error ? error.message : String(error) };
      }
      results.push(result);
      await onResult?.(index, result);
    }
    return results;
  }

  close(): Promise<void> {
    return this.child.stop();
  }
}
