// The probe must notice a blocked event loop, or every adversarial test built on it proves nothing.
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { healthDuring } from './health-probe.js';

function healthApp() {
  const app = Fastify();
  app.get('/api/health', () => ({ status: 'ok' }));
  return app;
}

describe('healthDuring', () => {
  it('reports a quick answer while the attack only awaits', async () => {
    const app = healthApp();
    const { result, slowestMs, probes } = await healthDuring(app, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return 'done';
    });
    expect(result).toBe('done');
    expect(probes).toBeGreaterThan(2);
    expect(slowestMs).toBeLessThan(1000);
    await app.close();
  });

  it('reports the stall of an attack that blocks the event loop', async () => {
    const app = healthApp();
    const { slowestMs } = await healthDuring(app, async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      const until = Date.now() + 1200;
      while (Date.now() < until); // a synchronous stall between two probes
    });
    expect(slowestMs).toBeGreaterThanOrEqual(1000);
    await app.close();
  });
});
