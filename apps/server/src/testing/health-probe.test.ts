// The probe must tell an attack that holds the event loop from one that does not, whatever the
// machine's speed, or every adversarial test built on it proves nothing.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { expectKeptAnswering, healthDuring, MAX_STALL_SHARE, stallShare } from './health-probe.js';

function healthApp() {
  const app = Fastify();
  app.get('/api/health', () => ({ status: 'ok' }));
  return app;
}

/** Keeps the event loop busy for `ms`, as a server doing work synchronously would. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('healthDuring', () => {
  it('passes an attack that only awaits', async () => {
    const app = healthApp();
    const during = await healthDuring(app, async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return 'done';
    });
    expect(during.result).toBe('done');
    expect(during.probes).toBeGreaterThan(2);
    expect(stallShare(during)).toBeLessThanOrEqual(MAX_STALL_SHARE);
    expectKeptAnswering(during);
    await app.close();
  });

  it('fails an attack that blocks the event loop for most of its run', async () => {
    const app = healthApp();
    const during = await healthDuring(app, async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      busy(1200); // a synchronous stall between two probes
    });
    expect(stallShare(during)).toBeGreaterThan(MAX_STALL_SHARE);
    expect(() => expectKeptAnswering(during)).toThrow(/a probe of \/api\/health waited \d+ ms/);
    await app.close();
  });

  it('passes the same work done in slices that let others in between', async () => {
    const app = healthApp();
    const during = await healthDuring(app, async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      for (let slice = 0; slice < 40; slice++) {
        busy(30);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    expect(stallShare(during)).toBeLessThanOrEqual(MAX_STALL_SHARE);
    expectKeptAnswering(during);
    await app.close();
  });

  it('does not judge an attack too short to tell', async () => {
    const app = healthApp();
    const during = await healthDuring(app, async () => 'at once');
    expect(during.probes).toBeGreaterThanOrEqual(1);
    expect(stallShare(during)).toBeUndefined();
    expectKeptAnswering(during);
    await app.close();
  });
});
