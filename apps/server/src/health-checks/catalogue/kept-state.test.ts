// The catalogue's costly checks with state kept between runs (CheckState): after items are
// added, a rerun searches only them and answers as a full run does.
import { createRandom, type Random } from '@loupe/analysis';
import { describe, expect, it } from 'vitest';
import { duplicateChecks } from './duplicates.js';
import { labelChecks } from './labels.js';
import { outlierChecks } from './outliers.js';
import { testSnapshot } from './test-snapshot.js';
import type {
  CheckDefinition,
  CheckOutcome,
  CheckSnapshot,
  CheckState,
  KeptRecord,
  ParamContext,
} from './types.js';

class MemoryState implements CheckState {
  readonly records = new Map<string, KeptRecord>();
  read(key: string): KeptRecord | null {
    return this.records.get(key) ?? null;
  }
  write(key: string, record: KeptRecord | null): void {
    if (record) this.records.set(key, record);
    else this.records.delete(key);
  }
}

const context: ParamContext = {
  features: ['descriptor'],
  defaultFeature: 'descriptor',
  classes: ['a', 'b', 'c', 'd', 'e'],
  splits: ['test', 'train'],
};

function run(definition: CheckDefinition, snapshot: CheckSnapshot, state?: CheckState) {
  return definition.run({
    snapshot,
    params: definition.params(context),
    level: 'image',
    checkId: `${definition.key}.image`,
    ...(state ? { state } : {}),
  });
}

/** Clustered rows of D coordinates with intrinsic dimension 12 (as descriptors vary). */
function rows(random: Random, n: number, d: number, labels: number[]): Float32Array {
  const map = Float32Array.from({ length: 12 * d }, () => random.normal());
  const data = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const c = random.int(0, 4);
    labels.push(random.next() < 0.05 ? (c + 1) % 5 : c);
    const point = Array.from({ length: 12 }, (_, t) => (t === c ? 3.5 : 0) + random.normal());
    for (let j = 0; j < d; j++) {
      let s = 3 + 0.01 * random.normal();
      for (let t = 0; t < 12; t++) s += point[t]! * map[t * d + j]!;
      data[i * d + j] = s;
    }
  }
  return data;
}

function snapshotOf(data: Float32Array, d: number, labels: number[]): CheckSnapshot {
  const n = labels.length;
  return testSnapshot(
    {
      classes: context.classes,
      label: labels,
      split: labels.map((_, i) => (i % 4 === 0 ? 0 : 1)),
      splitNames: ['test', 'train'],
    },
    {
      features: {
        descriptor: { name: 'descriptor', dimension: d, data, present: new Uint8Array(n).fill(1) },
      },
      samples: {
        ...testSnapshot({ classes: context.classes, label: labels }).samples,
        split: Int32Array.from(labels, (_, i) => (i % 4 === 0 ? 0 : 1)),
        splitNames: ['test', 'train'],
        strings: { 'image.phash': labels.map(() => null) },
      },
    },
  );
}

const flaggedOf = (outcome: CheckOutcome) => ({
  flagged: outcome.flagged,
  rec: outcome.recommendation,
});

describe('checks with kept state', () => {
  it('near-duplicates (and leaked ones) after adding items: only they are searched, as a full run', () => {
    const random = createRandom(7);
    const d = 48;
    const old = 5000;
    const labels: number[] = [];
    const data = rows(random, old + 500, d, labels);
    // Added items copying old ones (some across splits) and each other.
    const copy = (from: number, to: number) => {
      for (let j = 0; j < d; j++) data[to * d + j] = data[from * d + j]! + 0.005 * random.normal();
    };
    for (let k = 0; k < 40; k++) copy(k * 101, old + k * 7);
    for (let k = 0; k < 10; k++) copy(old + 300 + k, old + 400 + k);
    for (let k = 0; k < 20; k++) copy(k * 131 + 1, k * 131 + 2);
    const state = new MemoryState();
    const near = duplicateChecks.find(
      (c) => c.key === 'near_duplicate' && c.levels('classification').length,
    )!;
    const leaked = duplicateChecks.find(
      (c) => c.key === 'near_duplicate_leaked' && c.levels('classification').length,
    )!;
    const first = snapshotOf(data.slice(0, old * d), d, labels.slice(0, old));
    run(near, first, state);
    expect(state.records.size).toBe(1);

    const next = snapshotOf(data, d, labels);
    const kept = { near: run(near, next, state), leaked: run(leaked, next, state) };
    const fresh = snapshotOf(data.slice(), d, labels);
    const full = { near: run(near, fresh), leaked: run(leaked, fresh) };
    expect(flaggedOf(kept.near)).toEqual(flaggedOf(full.near));
    expect(flaggedOf(kept.leaked)).toEqual(flaggedOf(full.leaked));
    expect(kept.near.flagged.ids.length).toBeGreaterThanOrEqual(2 * 70);
    expect(kept.leaked.flagged.ids.length).toBeGreaterThan(0);
    const method = (outcome: CheckOutcome) => JSON.stringify(outcome.evidence);
    expect(method(kept.near)).toContain('Only the 500 items added or changed since the last run');
    expect(method(full.near)).not.toContain('Only the');
  });

  it('label errors from neighbour votes after adding items: close to a full run', () => {
    const random = createRandom(8);
    const d = 48;
    const old = 5000;
    const labels: number[] = [];
    const data = rows(random, old + 500, d, labels);
    const knn = labelChecks.find((c) => c.key === 'label_errors_knn')!;
    const state = new MemoryState();
    run(knn, snapshotOf(data.slice(0, old * d), d, labels.slice(0, old)), state);
    const kept = run(knn, snapshotOf(data, d, labels), state);
    const full = run(knn, snapshotOf(data.slice(), d, labels));
    expect(JSON.stringify(kept.evidence)).toContain('Only 500 items were searched');
    const fullIds = new Set(full.flagged.ids);
    const both = kept.flagged.ids.filter((id) => fullIds.has(id)).length;
    expect(both / (kept.flagged.ids.length + fullIds.size - both)).toBeGreaterThanOrEqual(0.9);
    expect(kept.is_approximate).toBe(true);
  });

  it('outliers after adding items: only they are scored, against the kept references', () => {
    const random = createRandom(9);
    const d = 48;
    const old = 5000;
    const labels: number[] = [];
    const data = rows(random, old + 500, d, labels);
    // Two added items far from everything (in the large split 'train').
    for (const row of [old + 1, old + 2])
      for (let j = 0; j < d; j++) data[row * d + j] = 40 * random.normal();
    const outliers = outlierChecks[0]!;
    const state = new MemoryState();
    run(outliers, snapshotOf(data.slice(0, old * d), d, labels.slice(0, old)), state);
    const kept = run(outliers, snapshotOf(data, d, labels), state);
    const full = run(outliers, snapshotOf(data.slice(), d, labels));
    expect(JSON.stringify(kept.evidence)).toContain('Only the 375 items of large splits');
    expect(kept.flagged.ids).toEqual(expect.arrayContaining([`s${old + 1}`, `s${old + 2}`]));
    expect(kept.flagged.ids).toEqual(full.flagged.ids);
  });
});
