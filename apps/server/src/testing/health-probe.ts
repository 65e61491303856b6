// For the adversarial tests: runs an attack while another caller keeps asking /api/health, and
// judges whether the server kept answering by the longest wait's share of the attack, never by a
// limit in milliseconds: a busy machine slows the attack and the probe alike, not their ratio.
// A blocked event loop shows twice: a probe in flight waits, and the probe's own timer fires late;
// both count, so a stall between two probes is not missed.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** How often a probe is sent while the attack runs. */
const PROBE_EVERY_MS = 50;

/**
 * The largest part of an attack the longest wait may take. A server that does an attack in one
 * synchronous stretch makes a probe wait through nearly all of it (over 0.8); one that keeps the
 * work off its event loop or in slices makes it wait a few per cent.
 */
export const MAX_STALL_SHARE = 0.5;

/**
 * Attacks shorter than this many probe periods are not judged: a single probe's round trip is then
 * a large part of them, and an attack over that quickly was bounded anyway. This decides only
 * whether to judge; a slower machine makes more attacks long enough to, and the share decides.
 */
const PERIODS_TO_JUDGE = 4;

export interface HealthDuring<T> {
  /** What the attack answered. */
  result: T;
  /** The longest wait, in ms, from when a probe was due to when its 200 arrived. */
  slowestMs: number;
  /** How long the attack took, in ms, by the same clock. */
  attackMs: number;
  /** Probes answered (at least one: the attack is never measured without a probe). */
  probes: number;
}

/**
 * Runs `attack` and probes GET /api/health until it settles and one more probe has answered.
 * Throws when a probe gets anything but 200.
 */
export async function healthDuring<T>(
  app: FastifyInstance,
  attack: () => Promise<T>,
): Promise<HealthDuring<T>> {
  const probe = async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/health' });
    if (answer.statusCode !== 200)
      throw new Error(`GET /api/health answered ${answer.statusCode}: ${answer.body}`);
  };
  // Not measured: an app's first request pays for starting it and compiling the route.
  await probe();
  let settled = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    let due = performance.now();
    for (;;) {
      await probe();
      probes++;
      slowestMs = Math.max(slowestMs, performance.now() - due);
      if (settled) return;
      due = performance.now() + PROBE_EVERY_MS;
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  const started = performance.now();
  let attackMs: number;
  let result: T;
  try {
    result = await attack();
  } finally {
    attackMs = performance.now() - started;
    settled = true;
    await probing;
  }
  return { result, slowestMs, attackMs, probes };
}

/**
 * The part of the attack the longest wait took, or undefined when the attack was too short to
 * judge (see PERIODS_TO_JUDGE).
 */
export function stallShare({ slowestMs, attackMs }: HealthDuring<unknown>): number | undefined {
  if (attackMs < PERIODS_TO_JUDGE * PROBE_EVERY_MS) return undefined;
  return slowestMs / attackMs;
}

/**
 * Asserts that the server kept answering through the attack: no wait for /api/health took more
 * than MAX_STALL_SHARE of it. Meant for attacks whose work belongs off the event loop (decoding in
 * worker threads, password hashing, fetches, jobs); a request body is parsed in one synchronous
 * stretch by design, so its tests bound the work by count instead.
 */
export function expectKeptAnswering(during: HealthDuring<unknown>): void {
  const share = stallShare(during);
  if (share === undefined) return;
  const { slowestMs, attackMs } = during;
  expect(
    share,
    `a probe of /api/health waited ${Math.round(slowestMs)} ms during a ${Math.round(attackMs)} ms attack`,
  ).toBeLessThanOrEqual(MAX_STALL_SHARE);
}
