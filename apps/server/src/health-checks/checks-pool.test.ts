// The checks process on its own: a check that crashes it or overruns its deadline fails alone,
// and the checks after it run on a new process, which is sent the snapshot again.
import { afterEach, expect, it } from 'vitest';
import { testSnapshot } from './catalogue/test-snapshot.js';
import { ChecksPool, type CheckRun } from './checks-pool.js';
import { siblingModule } from './definition-sources.js';

const sources = [
  { url: siblingModule(import.meta.url, './test-definitions'), exportName: 'failingChecks' },
];

// s1 and s3 are labelled 'cat': test_label flags them.
const snapshot = testSnapshot({
  classes: ['cat', 'dog'],
  label: [0, 1, 0],
  ids: ['s1', 's2', 's3'],
});

const run = (key: string): CheckRun => ({
  checkId: `${key}.image`,
  key,
  level: 'image',
  params: {},
});

let pool: ChecksPool | undefined;
afterEach(() => pool?.close());

it('fails only the check that crashed the process or overran, in the order asked', async () => {
  pool = new ChecksPool({ timeoutMs: 2_000 });
  const seen: number[] = [];
  const results = await pool.run(
    {
      sources,
      snapshot,
      runs: [
        run('test_label'),
        run('test_abort'),
        run('test_label'),
        run('test_spin'),
        run('test_label'),
      ],
    },
    async (index) => {
      seen.push(index);
    },
  );
  expect(seen).toEqual([0, 1, 2, 3, 4]);
  const flagged = {
    outcome: expect.objectContaining({ flagged: { ids: ['s1', 's3'], values: {} } }),
  };
  expect(results).toEqual([
    expect.objectContaining(flagged),
    { error: 'The checks process stopped (SIGABRT).' },
    expect.objectContaining(flagged),
    { error: 'Computing this check took longer than 2 s.' },
    expect.objectContaining(flagged),
  ]);
}, 60_000);
