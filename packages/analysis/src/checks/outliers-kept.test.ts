import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../random.js';
import { neighbourOutliers, type OutlierResult } from './outliers.js';

const D = 64;

/** Clustered rows (a few clusters per split); rows listed in `far` are placed far from all. */
function rows(random: Random, n: number, far: Set<number>): Float32Array {
  const centres = Float32Array.from({ length: 8 * D }, () => random.normal());
  const data = new Float32Array(n * D);
  for (let i = 0; i < n; i++) {
    const c = random.int(0, 7);
    for (let k = 0; k < D; k++)
      data[i * D + k] = far.has(i)
        ? 4 * random.normal()
        : 3 + centres[c * D + k]! + 0.3 * random.normal();
  }
  return data;
}

const flagged = (result: OutlierResult) =>
  [...result.outlier.keys()].filter((row) => result.outlier[row]);

describe('outliers kept between runs', () => {
  it('scores only the added rows against the kept references', () => {
    const random = createRandom(3);
    const old = 6000;
    const n = 6600;
    const far = new Set([10, 2000, 4000, ...Array.from({ length: 6 }, (_, k) => old + 50 * k)]);
    const data = rows(random, n, far);
    const groups = Int32Array.from({ length: n }, (_, i) => (i % 5 < 3 ? 0 : 1));
    const ids = Array.from({ length: n }, (_, i) => `s${i}`);
    const first = neighbourOutliers(
      { vectors: data.subarray(0, old * D), dimension: D, groups: groups.subarray(0, old) },
      { keep: { ids: ids.slice(0, old) } },
    );
    expect(first.approximate).toBe(true);
    expect(first.searched).toBe(old);
    const next = neighbourOutliers(
      { vectors: data, dimension: D, groups },
      { keep: { ids, previous: first.state! } },
    );
    const full = neighbourOutliers({ vectors: data, dimension: D, groups });
    expect(next.searched).toBe(n - old);
    // The kept rows keep their scores; the planted far rows are found, old and added.
    for (let row = 0; row < old; row++) expect(next.scores[row]).toBe(first.scores[row]);
    expect(flagged(next)).toEqual([...far].sort((a, b) => a - b));
    expect(flagged(full)).toEqual(flagged(next));
    // Against the same references a full run would score the added rows the same: a rerun from
    // the grown state with nothing added changes nothing.
    const again = neighbourOutliers(
      { vectors: data, dimension: D, groups },
      { keep: { ids, previous: next.state! } },
    );
    expect(again.searched).toBe(0);
    expect(Array.from(again.scores)).toEqual(Array.from(next.scores));
  });

  it('runs in full when a reference was deleted or a row moved split', () => {
    const random = createRandom(4);
    const n = 6000;
    const data = rows(random, n, new Set());
    const groups = Int32Array.from({ length: n }, (_, i) => (i % 5 < 3 ? 0 : 1));
    const ids = Array.from({ length: n }, (_, i) => `s${i}`);
    const first = neighbourOutliers({ vectors: data, dimension: D, groups }, { keep: { ids } });
    const state = first.state!;
    const reference = state.ids[state.refPositions[0]!]!;
    const without = ids.map((id) => (id === reference ? 'gone' : id));
    const next = neighbourOutliers(
      { vectors: data, dimension: D, groups },
      { keep: { ids: without, previous: state } },
    );
    expect(next.searched).toBe(n);
    // A row that moved split is a changed row: scored again in its new split.
    const moved = groups.slice();
    const notReference = ids.findIndex(
      (_, row) => !Array.from(state.refPositions).some((p) => state.ids[p] === ids[row]),
    );
    moved[notReference] = 1 - moved[notReference]!;
    const after = neighbourOutliers(
      { vectors: data, dimension: D, groups: moved },
      { keep: { ids, previous: state } },
    );
    expect(after.searched).toBe(1);
  });
});
