// Two models compared as the model comparison page shows it (docs/sdk-typescript.md, "Comparing
// two models"): which model wins each comparison metric, the per-class or per-word breakdown of
// the active metric, the per-sample, per-object and per-mask sections and, optionally, the
// subsets enabled for performance. The server computes the comparison in a job that asking for it
// starts, so a caller that waits asks again every second until it is ready.
import {
  ALL_SPLITS,
  api,
  COMPARISON_MESSAGES,
  type ComparisonResponse,
  type SubsetsComparisonResponse,
} from '@loupe/contracts';
import { LoupeError } from './errors.js';
import type { Http } from './http.js';

/** How often a waiting caller asks again while the comparison is being computed. */
export const COMPARISON_POLL_MS = 1_000;
/** How long a caller waits for the comparison by default. */
export const COMPARISON_TIMEOUT_MS = 600_000;

export interface ComparisonProgress {
  /** Fraction of the comparison computed, 0 to 1 (1 when ready). */
  fraction: number;
  /** Enabled subsets whose performance is still being computed for A or B (with `subsets`). */
  pendingSubsets: number;
}

export interface CompareOptions {
  /** A comparison metric of the task (e.g. 'macro_f1_score'); the task's first when absent. */
  metric?: string;
  /** The split compared (default 'all'). */
  split?: string;
  /** Regression: the value name compared; every value name (averaged) when absent. */
  regressionValueName?: string;
  /** Also read both models on each subset enabled for performance, in `split`. */
  subsets?: boolean;
  /** Poll until everything is computed (default); false answers at once, status and all. */
  wait?: boolean;
  /** Give up waiting after this many ms (default 600,000): a retriable LoupeError. */
  timeoutMs?: number;
  /** Ms between polls (default 1,000). */
  pollMs?: number;
  /** Called after each poll that found something still computing. */
  onProgress?: (progress: ComparisonProgress) => void;
}

/** The comparison as the server answered it; with `subsets`, the subsets' comparison too. */
export type Comparison = ComparisonResponse & { subsets?: SubsetsComparisonResponse };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Compares prediction set B with prediction set A of a dataset; with `wait` (default) polls until
 * the comparison is ready and throws a LoupeError when its computation failed or outlasts
 * `timeoutMs`. Refusals (an unknown model, the same model twice, a metric the task lacks) are
 * the server's LoupeError with its description.
 */
export async function readComparison(
  http: Http,
  datasetId: string,
  predictionSetIdA: string,
  predictionSetIdB: string,
  options: CompareOptions = {},
): Promise<Comparison> {
  const { wait = true, timeoutMs = COMPARISON_TIMEOUT_MS, pollMs = COMPARISON_POLL_MS } = options;
  const params = { id: datasetId };
  const split = options.split ?? ALL_SPLITS;
  const body = {
    predictions_id_a: predictionSetIdA,
    predictions_id_b: predictionSetIdB,
    split,
    ...(options.metric === undefined ? {} : { metric: options.metric }),
    ...(options.regressionValueName === undefined
      ? {}
      : { regression_value_name: options.regressionValueName }),
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Each ask of the comparison (re)starts its job when it is missing or stale, so polling
    // repeats the POST rather than reading a job's status.
    const [comparison, subsets] = await Promise.all([
      http.call(api.comparison.compare, { params, body }),
      options.subsets
        ? http.call(api.comparison.subsets, {
            params,
            query: {
              predictions_id_a: predictionSetIdA,
              predictions_id_b: predictionSetIdB,
              split,
            },
          })
        : Promise.resolve(undefined),
    ]);
    const answer: Comparison = { ...comparison, ...(subsets ? { subsets } : {}) };
    if (!wait) return answer;
    if (comparison.status === 'failed')
      throw new LoupeError(
        0,
        comparison.error
          ? `${COMPARISON_MESSAGES.failed} ${comparison.error}`
          : COMPARISON_MESSAGES.failed,
        false,
      );
    const pendingSubsets = subsets?.pending_subsets.length ?? 0;
    if (comparison.status !== 'computing' && pendingSubsets === 0) return answer;
    options.onProgress?.({
      fraction: comparison.status === 'computing' ? comparison.progress : 1,
      pendingSubsets,
    });
    if (Date.now() + pollMs > deadline)
      throw new LoupeError(
        0,
        `The comparison is still being computed after ${Math.round(timeoutMs / 1000)} s: try again later, or wait longer.`,
        true,
      );
    await sleep(pollMs);
  }
}
