// Comparing two models against a fake server: the request sent, polling while the comparison is
// computed, subsets pending, a failed computation, a wait that outlasts its timeout, no wait at
// all, and the server's refusal as the error.
import type { ComparisonResponse, SubsetsComparisonResponse } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { readComparison, type ComparisonProgress } from './compare.js';
import { LoupeError } from './errors.js';
import { Http } from './http.js';

const DATASET = '00000000-0000-4000-8000-000000000001';
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

type Status = 'computing' | 'ready' | 'failed';

function comparison(status: Status, progress: number): ComparisonResponse {
  return {
    status,
    progress,
    ...(status === 'failed' ? { error: 'out of memory' } : {}),
    data_version: 2,
    predictions_id_a: A,
    predictions_id_b: B,
    split: 'all',
    task: 'classification',
    metric: 'accuracy',
    regression_value_name: null,
    iou_threshold: null,
    overall:
      status === 'ready'
        ? {
            accuracy: {
              model_a: 0.5,
              model_b: 0.75,
              raw_delta: 0.25,
              relative_delta: 50,
              better: 'model_b_is_better',
            },
          }
        : {},
    other_metrics: null,
    per_class: null,
    per_class_unavailable: status === 'ready',
    per_word: null,
    per_sample: null,
    per_object_gt: null,
    per_object_pred: null,
  };
}

interface Script {
  status: Status;
  progress: number;
  pending?: number;
}

/** A server whose answers follow `script`: one state per poll, the last repeated. */
function fakeServer(script: Script[], refusal?: { status: number; description: string }) {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  let polls = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input));
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method: init?.method ?? 'GET', path: `${url.pathname}${url.search}`, body });
    if (refusal)
      return new Response(JSON.stringify({ ...refusal, retriable: false }), {
        status: refusal.status,
        headers: { 'content-type': 'application/json' },
      });
    // Each poll posts the comparison first.
    if (init?.method === 'POST') polls++;
    const state = script[Math.min(polls - 1, script.length - 1)]!;
    const answer =
      init?.method === 'POST'
        ? comparison(state.status, state.progress)
        : ({
            comparison_per_subset: {},
            pending_subsets: Array.from({ length: state.pending ?? 0 }, (_, i) => `s${i}`),
          } satisfies SubsetsComparisonResponse);
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetch };
}

const http = (fetch: typeof globalThis.fetch) =>
  new Http({ url: 'http://loupe.test', apiKey: 'k', fetch, retries: 0 });

describe('readComparison', () => {
  it('posts the pair, metric, split and value name, polling while computing', async () => {
    const server = fakeServer([
      { status: 'computing', progress: 0 },
      { status: 'computing', progress: 0.4 },
      { status: 'ready', progress: 1 },
    ]);
    const seen: ComparisonProgress[] = [];
    const answer = await readComparison(http(server.fetch), DATASET, A, B, {
      metric: 'accuracy',
      split: 'train',
      regressionValueName: 'age',
      pollMs: 1,
      onProgress: (p) => seen.push(p),
    });
    expect(answer.overall.accuracy!.better).toBe('model_b_is_better');
    expect(answer.subsets).toBeUndefined();
    expect(seen).toEqual([
      { fraction: 0, pendingSubsets: 0 },
      { fraction: 0.4, pendingSubsets: 0 },
    ]);
    expect(server.calls).toHaveLength(3);
    expect(server.calls[0]).toEqual({
      method: 'POST',
      path: `/api/datasets/${DATASET}/comparison`,
      body: {
        predictions_id_a: A,
        predictions_id_b: B,
        split: 'train',
        metric: 'accuracy',
        regression_value_name: 'age',
      },
    });
  });

  it('waits for pending subsets, asking for the pair and split given', async () => {
    const server = fakeServer([
      { status: 'ready', progress: 1, pending: 2 },
      { status: 'ready', progress: 1, pending: 0 },
    ]);
    const seen: ComparisonProgress[] = [];
    const answer = await readComparison(http(server.fetch), DATASET, A, B, {
      subsets: true,
      pollMs: 1,
      onProgress: (p) => seen.push(p),
    });
    expect(answer.subsets?.pending_subsets).toEqual([]);
    expect(seen).toEqual([{ fraction: 1, pendingSubsets: 2 }]);
    expect(server.calls.map((c) => c.path)).toContain(
      `/api/datasets/${DATASET}/comparison/subsets?predictions_id_a=${A}&predictions_id_b=${B}&split=all`,
    );
  });

  it('throws the reason when the computation failed', async () => {
    const server = fakeServer([{ status: 'failed', progress: 0.2 }]);
    const error = await readComparison(http(server.fetch), DATASET, A, B, { pollMs: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).description).toBe(
      'Computing the comparison failed. out of memory',
    );
    expect((error as LoupeError).retriable).toBe(false);
  });

  it('gives up after the timeout with a retriable error', async () => {
    const server = fakeServer([{ status: 'computing', progress: 0.1 }]);
    const error = await readComparison(http(server.fetch), DATASET, A, B, {
      pollMs: 5,
      timeoutMs: 20,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).retriable).toBe(true);
    expect((error as LoupeError).description).toBe(
      'The comparison is still being computed after 0 s: try again later, or wait longer.',
    );
  });

  it('answers at once without wait, status and all', async () => {
    const server = fakeServer([{ status: 'computing', progress: 0.3 }]);
    const answer = await readComparison(http(server.fetch), DATASET, A, B, { wait: false });
    expect([answer.status, answer.progress]).toEqual(['computing', 0.3]);
    expect(server.calls).toHaveLength(1);
  });

  it("throws the server's description when it refuses", async () => {
    const server = fakeServer([], {
      status: 400,
      description: 'Model A and model B must be two different models.',
    });
    const error = await readComparison(http(server.fetch), DATASET, A, A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).status).toBe(400);
    expect((error as LoupeError).description).toBe(
      'Model A and model B must be two different models.',
    );
  });
});
