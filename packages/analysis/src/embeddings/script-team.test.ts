import { describe, expect, it } from 'vitest';
import { ScriptTeam, scriptTeamWorkers } from './script-team.js';

/** Self-contained helper the program calls by name. */
function square(x: number): number {
  return x * x;
}

interface Shared {
  out: SharedArrayBuffer;
}

/** Slice s writes square(s) + 1 to out[s], and 1 to out[64 + s] on a worker thread. */
function program(shared: Shared) {
  const out = new Float64Array(shared.out);
  const onWorker = typeof require === 'function' ? 1 : 0;
  return {
    fill(s: number): void {
      out[s] = square(s) + 1;
      out[64 + s] = onWorker;
    },
    fail(s: number): void {
      if (s === 1) throw new Error('slice 1 fails');
    },
  };
}

const slices = Array.from({ length: 10 }, (_, s) => [s]);

describe('ScriptTeam', () => {
  it('runs every slice on worker threads as the calling thread would', async () => {
    const shared = { out: new SharedArrayBuffer(8 * 128) };
    const team = new ScriptTeam(program, shared, 3, { helpers: [square], callerWorks: false });
    try {
      expect(team.threads).toBe(3);
      team.run('fill', slices);
    } finally {
      team.close();
    }
    const out = new Float64Array(shared.out);
    expect(Array.from(out.subarray(0, 10))).toEqual(slices.map(([s]) => s! * s! + 1));
    // The calling thread took no slice: workers ran them all.
    expect(Array.from(out.subarray(64, 74))).toEqual(slices.map(() => 1));
    await expect.poll(scriptTeamWorkers).toBe(0);
  });

  it('runs alone with one thread', () => {
    const shared = { out: new SharedArrayBuffer(8 * 128) };
    const team = new ScriptTeam(program, shared, 1, { helpers: [square] });
    expect(team.threads).toBe(1);
    team.run('fill', slices);
    team.close();
    expect(new Float64Array(shared.out)[9]).toBe(82);
  });

  it("reports a worker's failing slice and keeps working", async () => {
    const shared = { out: new SharedArrayBuffer(8 * 128) };
    const team = new ScriptTeam(program, shared, 2, { helpers: [square], callerWorks: false });
    try {
      expect(() => team.run('fail', slices)).toThrow(/worker thread's fail failed/);
      team.run('fill', slices);
      expect(new Float64Array(shared.out)[3]).toBe(10);
    } finally {
      team.close();
    }
    await expect.poll(scriptTeamWorkers).toBe(0);
  });
});
