import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../random.js';
import { leakedGroups } from './duplicates.js';
import { nearDuplicateGroups, type NearDuplicateResult } from './near-duplicates.js';

const D = 64;
const THRESHOLD = 0.01;

/** Clustered rows pointing one way (like histograms), as the near-duplicate tests use. */
function clustered(random: Random, n: number, clusters: number): Float32Array {
  const centres = Float32Array.from({ length: clusters * D }, () => random.normal());
  const data = new Float32Array(n * D);
  for (let i = 0; i < n; i++) {
    const c = random.int(0, clusters - 1);
    for (let k = 0; k < D; k++) data[i * D + k] = 3 + centres[c * D + k]! + 0.6 * random.normal();
  }
  return data;
}

/** Row `to` becomes a near copy of row `from` (cosine distance about 1e-4). */
function copyRow(random: Random, data: Float32Array, from: number, to: number): void {
  for (let k = 0; k < D; k++) data[to * D + k] = data[from * D + k]! + 0.02 * random.normal();
}

/** The rows of `data` named by `keepIds` (in that order), as a new matrix. */
function subset(data: Float32Array, ids: string[], keepIds: string[]): Float32Array {
  const rowOf = new Map(ids.map((id, row) => [id, row]));
  const out = new Float32Array(keepIds.length * D);
  keepIds.forEach((id, row) => {
    const from = rowOf.get(id)!;
    out.set(data.subarray(from * D, (from + 1) * D), row * D);
  });
  return out;
}

/** Groups as sorted lists of ids, and each grouped id's distance (rounded). */
function byIds(result: NearDuplicateResult, ids: readonly string[]) {
  const groups = result.members.map((rows) => Array.from(rows, (r) => ids[r]!).sort()).sort();
  const distances: Record<string, number> = {};
  for (const rows of result.members)
    for (const row of rows) distances[ids[row]!] = Number(result.distance[row]!.toFixed(9));
  return { groups, distances };
}

const ids = (n: number, prefix = 's') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('near-duplicates kept between runs', () => {
  it('searches only the added rows and finds what a full run finds', () => {
    const random = createRandom(5);
    const n = 8000;
    const old = 7000;
    const data = clustered(random, n, 40);
    // Near copies among the old rows, added rows copying old rows, and added rows copying each other.
    for (let k = 0; k < 100; k++) copyRow(random, data, k * 60, k * 60 + 7);
    for (let k = 0; k < 60; k++) copyRow(random, data, k * 97 + 3, old + k * 11);
    for (let k = 0; k < 20; k++) copyRow(random, data, old + 700 + k, old + 900 + k * 4);
    // A chain: an added row joins an old pair into a group of three.
    copyRow(random, data, 60, old + 999);
    const allIds = ids(n);
    const first = nearDuplicateGroups(data.subarray(0, old * D), D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds.slice(0, old) },
    });
    expect(first.state).toBeTruthy();
    expect(first.searched).toBe(old);

    const incremental = nearDuplicateGroups(data, D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds, previous: first.state! },
    });
    const full = nearDuplicateGroups(data, D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds },
    });
    expect(incremental.searched).toBe(n - old);
    expect(full.searched).toBe(n);
    expect(byIds(incremental, allIds)).toEqual(byIds(full, allIds));
    // Every planted pair is there, and the chain is one group.
    const groupOf = new Map<string, number>();
    byIds(full, allIds).groups.forEach((members, g) => members.forEach((id) => groupOf.set(id, g)));
    const together = (a: number, b: number) =>
      expect(groupOf.get(`s${a}`)).toBe(groupOf.get(`s${b}`) ?? -1);
    for (let k = 0; k < 100; k++) together(k * 60, k * 60 + 7);
    for (let k = 0; k < 60; k++) together(k * 97 + 3, old + k * 11);
    for (let k = 0; k < 20; k++) together(old + 700 + k, old + 900 + k * 4);
    together(60, old + 999);
    together(67, old + 999);

    // Across splits: the leaked groups of either run are the same.
    const split = Int32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const leaked = (result: NearDuplicateResult) =>
      leakedGroups(result, split)
        .members.map((rows) => Array.from(rows).sort((a, b) => a - b))
        .sort((a, b) => a[0]! - b[0]!);
    expect(leaked(incremental)).toEqual(leaked(full));
    expect(leaked(full).length).toBeGreaterThan(0);

    // A third version: the state grown by the second run holds the added rows too.
    const third = new Float32Array((n + 10) * D);
    third.set(data);
    for (let k = 0; k < 10; k++) copyRow(random, third, old + 500 + k, n + k);
    const thirdIds = ids(n + 10);
    const again = nearDuplicateGroups(third, D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: thirdIds, previous: incremental.state! },
    });
    const againFull = nearDuplicateGroups(third, D, { threshold: THRESHOLD, exactBelow: 0 });
    expect(again.searched).toBe(10);
    expect(byIds(again, thirdIds)).toEqual(byIds(againFull, thirdIds));
    for (let k = 0; k < 10; k++)
      expect(
        again.members.some((rows) => rows.includes(old + 500 + k) && rows.includes(n + k)),
      ).toBe(true);
  });

  it('drops deleted rows and searches changed ones again', () => {
    const random = createRandom(8);
    const n = 6000;
    const data = clustered(random, n, 30);
    for (let k = 0; k < 80; k++) copyRow(random, data, k * 70, k * 70 + 5);
    const allIds = ids(n);
    const first = nearDuplicateGroups(data, D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds },
    });
    expect(first.members.length).toBe(80);
    // Delete 300 rows (some of them copies), change one row into a copy of another, add 200.
    const deleted = new Set(Array.from({ length: 300 }, (_, k) => `s${k * 20}`));
    const keptIds = allIds.filter((id) => !deleted.has(id));
    const addedIds = ids(200, 'new');
    const addedData = clustered(random, 200, 30);
    const nextIds = [...keptIds, ...addedIds];
    const next = new Float32Array(nextIds.length * D);
    next.set(subset(data, allIds, keptIds));
    next.set(addedData, keptIds.length * D);
    const changedRow = keptIds.indexOf('s4001');
    copyRow(random, next, keptIds.indexOf('s3001'), changedRow);
    for (let k = 0; k < 15; k++) copyRow(random, next, k * 13, keptIds.length + k * 9);

    const incremental = nearDuplicateGroups(next, D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: nextIds, previous: first.state! },
    });
    const full = nearDuplicateGroups(next, D, { threshold: THRESHOLD, exactBelow: 0 });
    expect(incremental.searched).toBe(201);
    expect(byIds(incremental, nextIds)).toEqual(byIds(full, nextIds));
    expect(byIds(full, nextIds).groups).toContainEqual(['s3001', 's4001']);
    expect(incremental.state!.alive.reduce((s, v) => s + v, 0)).toBe(nextIds.length);
  });

  it('runs in full again once the changes pass a quarter of the kept rows', () => {
    const random = createRandom(9);
    const data = clustered(random, 6000, 20);
    const allIds = ids(6000);
    const first = nearDuplicateGroups(data.subarray(0, 4000 * D), D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds.slice(0, 4000) },
    });
    const second = nearDuplicateGroups(data, D, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds, previous: first.state! },
    });
    expect(second.searched).toBe(6000);
    expect(second.state!.built).toBe(6000);
    // Other settings: the state is not used either.
    const other = nearDuplicateGroups(data, D, {
      threshold: 0.02,
      exactBelow: 0,
      keep: { ids: allIds, previous: second.state! },
    });
    expect(other.searched).toBe(6000);
  });

  it('finds added copies among identical rows compared along a line', () => {
    const n = 6000;
    const d = 16;
    const data = new Float32Array((n + 50) * d).fill(0.25);
    // 600 identical rows (more than a bucket holds) among distinct ones.
    const random = createRandom(3);
    for (let i = 0; i < 5400; i++) for (let k = 0; k < d; k++) data[i * d + k] = random.normal();
    const allIds = Array.from({ length: n + 50 }, (_, i) => `r${i}`);
    const first = nearDuplicateGroups(data.subarray(0, n * d), d, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds.slice(0, n) },
    });
    expect(first.state!.alongMembers.length).toBeGreaterThan(0);
    const next = nearDuplicateGroups(data, d, {
      threshold: THRESHOLD,
      exactBelow: 0,
      keep: { ids: allIds, previous: first.state! },
    });
    expect(next.searched).toBe(50);
    const identical = next.members.find((rows) => rows.includes(n))!;
    expect(identical).toHaveLength(650);
    const full = nearDuplicateGroups(data, d, { threshold: THRESHOLD, exactBelow: 0 });
    expect(byIds(next, allIds)).toEqual(byIds(full, allIds));
  });
});
