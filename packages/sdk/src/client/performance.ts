// A model's performance as the performance page shows it (docs/model-performance.md): the
// statistics per split and the per-class (word, value name) table, optionally the enabled
// subsets. The server computes them in a job; reading them while they are missing or stale
// starts it, so a caller that waits polls every second until they are ready.
import {
  ALL_SPLITS,
  api,
  PERFORMANCE_MESSAGES,
  type OverallPerformanceResponse,
  type StatisticsResponse,
  type SubsetsPerformanceResponse,
} from '@loupe/contracts';
import { LoupeError } from './errors.js';
import type { Http } from './http.js';

/** How often a waiting caller asks again while the performance is being computed. */
export const PERFORMANCE_POLL_MS = 1_000;
/** How long a caller waits for the performance by default. */
export const PERFORMANCE_TIMEOUT_MS = 600_000;

export interface PerformanceProgress {
  /** Fraction of the report computed, 0 to 1 (1 when ready). */
  fraction: number;
  /** Enabled subsets whose performance is still being computed (with `subsets`). */
  pendingSubsets: number;
}

export interface PerformanceOptions {
  /** Poll until everything is computed (default); false answers at once, status and all. */
  wait?: boolean;
  /** Give up waiting after this many ms (default 600,000): a retriable LoupeError. */
  timeoutMs?: number;
  /** Also read the performance of the subsets enabled for performance. */
  subsets?: boolean;
  /** The split the subsets' performance is computed over (default 'all'). */
  split?: string;
  /** Called after each poll that found something still computing. */
  onProgress?: (progress: PerformanceProgress) => void;
  /** Ms between polls (default 1,000). */
  pollMs?: number;
}

export interface Performance {
  statistics: StatisticsResponse;
  overall: OverallPerformanceResponse;
  /** With `subsets`: the subsets' entries of `split`. */
  subsets?: SubsetsPerformanceResponse;
}

function computing(answer: Performance): boolean {
  return (
    answer.statistics.status === 'computing' ||
    answer.overall.status === 'computing' ||
    (answer.subsets?.pending_subsets.length ?? 0) > 0
  );
}

function failure(answer: Performance): string | undefined {
  for (const part of [answer.statistics, answer.overall])
    if (part.status === 'failed')
      return part.error
        ? `${PERFORMANCE_MESSAGES.failed} ${part.error}`
        : PERFORMANCE_MESSAGES.failed;
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads a prediction set's performance; with `wait` (default) polls until it is ready and
 * throws a LoupeError when its computation failed or outlasts `timeoutMs`.
 */
export async function readPerformance(
  http: Http,
  datasetId: string,
  predictionSetId: string,
  options: PerformanceOptions = {},
): Promise<Performance> {
  const { wait = true, timeoutMs = PERFORMANCE_TIMEOUT_MS, pollMs = PERFORMANCE_POLL_MS } = options;
  const params = { id: datasetId, predictionSetId };
  const split = options.split ?? ALL_SPLITS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [statistics, overall, subsets] = await Promise.all([
      http.call(api.performance.statistics, { params }),
      http.call(api.performance.overall, { params }),
      options.subsets
        ? http.call(api.performance.subsets, { params, query: { split } })
        : Promise.resolve(undefined),
    ]);
    const answer: Performance = { statistics, overall, ...(subsets ? { subsets } : {}) };
    if (!wait) return answer;
    const failed = failure(answer);
    if (failed) throw new LoupeError(0, failed, false);
    if (!computing(answer)) return answer;
    options.onProgress?.({
      fraction: Math.min(
        statistics.status === 'computing' ? statistics.progress : 1,
        overall.status === 'computing' ? overall.progress : 1,
      ),
      pendingSubsets: subsets?.pending_subsets.length ?? 0,
    });
    if (Date.now() + pollMs > deadline)
      throw new LoupeError(
        0,
        `The performance is still being computed after ${Math.round(timeoutMs / 1000)} s: try again later, or wait longer.`,
        true,
      );
    await sleep(pollMs);
  }
}
