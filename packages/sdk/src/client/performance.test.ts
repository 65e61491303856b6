// Reading a model's performance against a fake server: polling while the report is computed,
// subsets pending, a failed computation, a wait that outlasts its timeout, and no wait at all.
import type {
  OverallPerformanceResponse,
  StatisticsResponse,
  SubsetsPerformanceResponse,
} from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { LoupeError } from './errors.js';
import { Http } from './http.js';
import { readPerformance, type PerformanceProgress } from './performance.js';

const DATASET = '00000000-0000-4000-8000-000000000001';
const MODEL = '00000000-0000-4000-8000-000000000002';

type Status = 'computing' | 'ready' | 'failed';

function statistics(status: Status, progress: number): StatisticsResponse {
  return {
    status,
    progress,
    data_version: 3,
    ...(status === 'failed' ? { error: 'out of memory' } : {}),
    splits: ['all'],
    num_items: 2,
    num_missing: 0,
    statistics:
      status === 'ready'
        ? [{ metric_name: 'accuracy', values: [{ split_name: 'all', value: 0.5 }] }]
        : [],
  };
}

function overall(status: Status, progress: number): OverallPerformanceResponse {
  return {
    status,
    progress,
    data_version: 3,
    primary_key: 'class',
    metrics: ['f1_score'],
    splits: status === 'ready' ? [{ split_name: 'all', rows: [] }] : [],
  };
}

/** A server whose answers follow `script`: one state per poll, the last repeated. */
function fakeServer(script: { status: Status; progress: number; pending?: number }[]) {
  const calls: string[] = [];
  let polls = 0;
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = new URL(String(input));
    calls.push(`${url.pathname.split('/').pop()}${url.search}`);
    // Each poll asks for the statistics first.
    if (url.pathname.endsWith('/statistics')) polls++;
    const state = script[Math.min(polls - 1, script.length - 1)]!;
    let body: unknown;
    if (url.pathname.endsWith('/statistics')) body = statistics(state.status, state.progress);
    else if (url.pathname.endsWith('/overall')) body = overall(state.status, state.progress);
    else
      body = {
        performance_per_subset: {},
        pending_subsets: Array.from({ length: state.pending ?? 0 }, (_, i) => `s${i}`),
      } satisfies SubsetsPerformanceResponse;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetch };
}

const http = (fetch: typeof globalThis.fetch) =>
  new Http({ url: 'http://loupe.test', apiKey: 'k', fetch, retries: 0 });

describe('readPerformance', () => {
  it('polls while computing and reports the progress of each poll', async () => {
    const server = fakeServer([
      { status: 'computing', progress: 0 },
      { status: 'computing', progress: 0.4 },
      { status: 'ready', progress: 1 },
    ]);
    const seen: PerformanceProgress[] = [];
    const answer = await readPerformance(http(server.fetch), DATASET, MODEL, {
      pollMs: 1,
      onProgress: (p) => seen.push(p),
    });
    expect(answer.statistics.statistics[0]!.values[0]!.value).toBe(0.5);
    expect(answer.subsets).toBeUndefined();
    expect(seen).toEqual([
      { fraction: 0, pendingSubsets: 0 },
      { fraction: 0.4, pendingSubsets: 0 },
    ]);
    expect(server.calls.filter((c) => c === 'statistics')).toHaveLength(3);
  });

  it('waits for pending subsets, asking for the split given', async () => {
    const server = fakeServer([
      { status: 'ready', progress: 1, pending: 2 },
      { status: 'ready', progress: 1, pending: 0 },
    ]);
    const seen: PerformanceProgress[] = [];
    const answer = await readPerformance(http(server.fetch), DATASET, MODEL, {
      pollMs: 1,
      subsets: true,
      split: 'train',
      onProgress: (p) => seen.push(p),
    });
    expect(answer.subsets?.pending_subsets).toEqual([]);
    expect(seen).toEqual([{ fraction: 1, pendingSubsets: 2 }]);
    expect(server.calls).toContain('subsets?split=train');
  });

  it('throws the reason when the computation failed', async () => {
    const server = fakeServer([{ status: 'failed', progress: 0.2 }]);
    const error = await readPerformance(http(server.fetch), DATASET, MODEL, { pollMs: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).description).toBe(
      'Computing the performance failed. out of memory',
    );
    expect((error as LoupeError).retriable).toBe(false);
  });

  it('gives up after the timeout with a retriable error', async () => {
    const server = fakeServer([{ status: 'computing', progress: 0.1 }]);
    const error = await readPerformance(http(server.fetch), DATASET, MODEL, {
      pollMs: 5,
      timeoutMs: 20,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).retriable).toBe(true);
    expect((error as LoupeError).description).toMatch(/still being computed/);
  });

  it('answers at once without wait, status and all', async () => {
    const server = fakeServer([{ status: 'computing', progress: 0.3 }]);
    const answer = await readPerformance(http(server.fetch), DATASET, MODEL, { wait: false });
    expect(answer.statistics.status).toBe('computing');
    expect(answer.overall.progress).toBe(0.3);
    expect(server.calls).toEqual(['statistics', 'overall']);
  });
});
