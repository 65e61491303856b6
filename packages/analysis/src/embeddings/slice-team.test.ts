import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENTS, SliceTeam, workerSource } from './slice-team.js';

/** Workers' kernels: `mark(s)` adds 1 to counts[s]; `sum(...)` writes its arguments' sum to counts[0]. */
const SOURCE = workerSource(`
const counts = new Int32Array(workerData.counts);
const kernels = {
  mark: (s) => { Atomics.add(counts, s, 1); },
  sum: (...args) => { Atomics.store(counts, 0, args.reduce((a, b) => a + b, 0)); },
};
`);

const NAMES = ['mark', 'sum'] as const;

function team(counts: SharedArrayBuffer, tally: { live: number }, callerMark: (s: number) => void) {
  const view = new Int32Array(counts);
  return new SliceTeam(
    {
      mark: callerMark,
      sum: (...args: number[]) =>
        Atomics.store(
          view,
          0,
          args.reduce((a, b) => a + b, 0),
        ),
    },
    NAMES,
    2,
    { maxSlices: 32, source: SOURCE, workerData: { counts }, tally },
  );
}

describe('SliceTeam', () => {
  it("rethrows the calling thread's own error once every slice is done, and keeps working", async () => {
    const counts = new SharedArrayBuffer(4 * 32);
    const view = new Int32Array(counts);
    const tally = { live: 0 };
    const slices = Array.from({ length: 32 }, (_, s) => [s]);
    const members = team(counts, tally, (s) => {
      Atomics.add(view, s, 1);
      throw new Error(`caller failed on ${s}`);
    });
    try {
      expect(members.threads).toBe(2);
      expect(tally.live).toBe(1);
      // Whichever slices the caller took, every slice ran exactly once before run returned.
      for (let task = 1; task <= 3; task++) {
        let error: unknown = null;
        try {
          members.run('mark', slices);
        } catch (caught) {
          error = caught;
        }
        expect(Array.from(view)).toEqual(slices.map(() => task));
        if (error !== null) expect(String(error)).toMatch(/caller failed on \d+/);
      }
      members.run('sum', [[1, 2, 3]]);
      expect(view[0]).toBe(6);
    } finally {
      members.close();
    }
    await expect.poll(() => tally.live).toBe(0);
  });

  it('refuses too many slices or arguments before handing out the task', async () => {
    const counts = new SharedArrayBuffer(4 * 32);
    const view = new Int32Array(counts);
    const tally = { live: 0 };
    const members = team(counts, tally, (s) => Atomics.add(view, s, 1));
    try {
      const tooMany = Array.from({ length: 33 }, (_, s) => [s % 32]);
      expect(() => members.run('mark', tooMany)).toThrow(/At most 32 slices/);
      const wide = Array.from({ length: MAX_ARGUMENTS + 1 }, () => 1);
      expect(() => members.run('sum', [wide, [1]])).toThrow(/arguments/);
      members.run('sum', [[4, 5]]);
      expect(view[0]).toBe(9);
    } finally {
      members.close();
    }
    await expect.poll(() => tally.live).toBe(0);
  });
});
