import { describe, expect, it } from 'vitest';
import { createRandom } from '../../random.js';
import { BLOCK_ROWS, createKernels, createMemory, simdModule } from './kernels.js';
import { ThreadTeam } from './thread-team.js';

const ROWS = 4 * BLOCK_ROWS;
const DP = 16;
const SUMS = ROWS * DP * 4;
const MEAN = SUMS + 4 * 2 * DP * 8;
const COVARIANCE = MEAN + DP * 4;
const BYTES = COVARIANCE + 4 * DP * DP * 8;

function setUp() {
  const memory = createMemory(BYTES);
  const f32 = new Float32Array(memory.buffer);
  const random = createRandom(31);
  for (let i = 0; i < ROWS * DP; i++) f32[i] = random.normal() + (i % DP);
  for (let j = 0; j < DP; j++) f32[MEAN / 4 + j] = j;
  return { memory, kernels: createKernels(memory), f64: new Float64Array(memory.buffer), f32 };
}

/** Four slices of one block each: rows pointer, count, then per-task extras. */
const slices = (extra: (s: number) => number[]) =>
  [0, 1, 2, 3].map((s) => [s * BLOCK_ROWS * DP * 4, BLOCK_ROWS, DP, ...extra(s)]);
const sums = (s: number) => [SUMS + s * 2 * DP * 8, SUMS + (s * 2 + 1) * DP * 8];
const covariance = (s: number) => [COVARIANCE + s * DP * DP * 8];

/** Column sums, then centring, then covariance: three tasks in a row. */
function run(team: ThreadTeam | null, kernels: ReturnType<typeof setUp>['kernels']) {
  const go = (name: 'columnSums' | 'centre' | 'covariance', args: number[][]) => {
    if (team) team.run(name, args);
    else for (const a of args) (kernels[name] as (...a: number[]) => void)(...a);
  };
  go('columnSums', slices(sums));
  go(
    'centre',
    slices(() => [MEAN]),
  );
  go('covariance', slices(covariance));
}

describe('ThreadTeam', () => {
  it('runs every slice of consecutive tasks on worker threads, as the calling thread would', () => {
    const alone = setUp();
    run(null, alone.kernels);
    const shared = setUp();
    const team = new ThreadTeam(shared.kernels, simdModule(), shared.memory, 3, {
      callerWorks: false,
    });
    try {
      expect(team.threads).toBe(3);
      run(team, shared.kernels);
    } finally {
      team.close();
    }
    expect(shared.f64.subarray(SUMS / 8)).toEqual(alone.f64.subarray(SUMS / 8));
    expect(shared.f32.subarray(0, ROWS * DP)).toEqual(alone.f32.subarray(0, ROWS * DP));
    expect(alone.f64[SUMS / 8 + 3]).not.toBe(0);
  });

  it('works alone when there is no module to share', () => {
    const alone = setUp();
    run(null, alone.kernels);
    const solo = setUp();
    const team = new ThreadTeam(solo.kernels, null, solo.memory, 4);
    expect(team.threads).toBe(1);
    run(team, solo.kernels);
    team.close();
    expect(solo.f64).toEqual(alone.f64);
  });
});
