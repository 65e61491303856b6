import { describe, expect, it } from 'vitest';
import type { ClassPredictionPage } from './performance.repository.js';
import { readClassPredictions } from './prediction-columns.js';

async function* pagesOf(...pages: ClassPredictionPage[]) {
  yield* pages;
}

describe('readClassPredictions', () => {
  it('codes labels by first appearance and keeps probabilities as uploaded, across pages', async () => {
    const columns = await readClassPredictions(
      pagesOf(
        {
          seq: [0, 2, 5],
          label: ['dog', null, 'cat'],
          score: [0.9, null, 0.4],
          probabilities: [[0.9, 0.1], null, [0.6, 0.4]],
        },
        {
          seq: [6, 8, 9],
          // By name after runs by position, in this page and the one before: those runs get
          // their positions as keys.
          label: ['dog', 'fox', 'dog'],
          score: [0.3, 0.5, 0.7],
          probabilities: [[0.3, 0.7], { fox: 0.5, cat: 0.25 }, [0.7, 0.2, 0.1]],
        },
      ),
    );
    expect([...columns.seq]).toEqual([0, 2, 5, 6, 8, 9]);
    expect(columns.names).toEqual(['dog', 'cat', 'fox']);
    expect([...columns.label]).toEqual([0, -1, 1, 0, 2, 0]);
    expect([...columns.score]).toEqual([0.9, NaN, 0.4, 0.3, 0.5, 0.7]);
    expect([...columns.given]).toEqual([1, 0, 1, 1, 1, 1]);
    expect([...columns.probStart]).toEqual([0, 2, 2, 4, 6, 8, 11]);
    // fox is name 2 (−3), cat name 1 (−2).
    expect([...columns.probKey!]).toEqual([0, 1, 0, 1, 0, 1, -3, -2, 0, 1, 2]);
    expect([...columns.probValue]).toEqual(
      [0.9, 0.1, 0.6, 0.4, 0.3, 0.7, 0.5, 0.25, 0.7, 0.2, 0.1].map(Math.fround),
    );
  });

  it('keeps no keys while every entry is by position, and grows past its first buffers', async () => {
    const n = 5000;
    const columns = await readClassPredictions(
      pagesOf({
        seq: Array.from({ length: n }, (_, i) => i * 2),
        label: Array.from({ length: n }, (_, i) => `c${i % 3}`),
        score: Array.from({ length: n }, (_, i) => i / n),
        probabilities: Array.from({ length: n }, (_, i) => [i % 2, 1 - (i % 2)]),
      }),
    );
    expect(columns.probKey).toBeNull();
    expect(columns.seq).toHaveLength(n);
    expect(columns.seq[n - 1]).toBe(2 * (n - 1));
    expect(columns.label[4]).toBe(1);
    expect(columns.probStart[n]).toBe(2 * n);
    expect([...columns.probValue.subarray(2 * 4999, 2 * 5000)]).toEqual([1, 0]);
  });
});
