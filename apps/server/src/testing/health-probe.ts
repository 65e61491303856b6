// For the adversarial tests: runs an attack while another caller keeps asking /api/health, and
// reports the slowest answer. A blocked event loop shows twice: a probe in flight waits, and the
// probe's own timer fires late; both count, so a stall between two probes is not missed.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

/** How often a probe is sent while the attack runs. */
const PROBE_EVERY_MS = 50;

export interface HealthDuring<T> {
  /** What the attack answered. */
  result: T;
  /** The longest wait, in ms, from when a probe was due to when its 200 arrived. */
  slowestMs: number;
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
  let settled = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    let due = performance.now();
    for (;;) {
      const answer = await app.inject({ method: 'GET', url: '/api/health' });
      if (answer.statusCode !== 200)
        throw new Error(`GET /api/health answered ${answer.statusCode}: ${answer.body}`);
      probes++;
      slowestMs = Math.max(slowestMs, performance.now() - due);
      if (settled) return;
      due = performance.now() + PROBE_EVERY_MS;
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  let result: T;
  try {
    result = await attack();
  } finally {
    settled = true;
    await probing;
  }
  return { result, slowestMs, probes };
}
