import { describe, expect, it } from 'vitest';
import { bitsetFromRows } from './bitset.js';
import { fixture } from './fixture.js';
import { histogram } from './histogram.js';
import { fromColumns } from './table.js';

const table = fixture();

describe('histogram', () => {
  it('bins equal-width over [min, max]; the maximum lands in the last bin', () => {
    const t = fromColumns({
      ids: Array.from({ length: 11 }, (_, i) => `i${i}`),
      columns: { v: { type: 'numeric', values: Float64Array.from({ length: 11 }, (_, i) => i) } },
    });
    // 0..10 in 5 bins of width 2: [0,2) [2,4) [4,6) [6,8) [8,10]
    expect(histogram(t, 'v', { max_num_bins: 5 })).toEqual({
      metadata_type: 'numeric',
      counts_per_bin: [
        { bin_start: 0, bin_end: 2, count: { all: 2 } },
        { bin_start: 2, bin_end: 4, count: { all: 2 } },
        { bin_start: 4, bin_end: 6, count: { all: 2 } },
        { bin_start: 6, bin_end: 8, count: { all: 2 } },
        { bin_start: 8, bin_end: 10, count: { all: 3 } },
      ],
    });
  });

  it('defaults to 20 bins', () => {
    const t = fromColumns({
      ids: Array.from({ length: 101 }, (_, i) => `i${i}`),
      columns: { v: { type: 'numeric', values: Float64Array.from({ length: 101 }, (_, i) => i) } },
    });
    const h = histogram(t, 'v');
    expect(h.counts_per_bin).toHaveLength(20);
    expect(h.counts_per_bin.map((b) => b.count.all)).toEqual([...Array<number>(19).fill(5), 6]);
    expect(h.counts_per_bin[19]).toMatchObject({ bin_start: 95, bin_end: 100 });
  });

  it('counts per split plus all, skipping missing values', () => {
    // w: −2.5 train, 0 train, 7 (no split), 10 train, 10 test; row 1 (val) missing.
    // Two bins over [−2.5, 10]: [−2.5, 3.75) and [3.75, 10].
    expect(histogram(table, 'w', { max_num_bins: 2 })).toEqual({
      metadata_type: 'numeric',
      counts_per_bin: [
        { bin_start: -2.5, bin_end: 3.75, count: { all: 2, test: 0, train: 2, val: 0 } },
        { bin_start: 3.75, bin_end: 10, count: { all: 3, test: 1, train: 1, val: 0 } },
      ],
    });
  });

  it('uses the min and max of the selected rows; one bin when they are equal; none when empty', () => {
    const rows = bitsetFromRows(table.length, [0, 3]); // w = 10, 10
    expect(histogram(table, 'w', { rows }).counts_per_bin).toEqual([
      { bin_start: 10, bin_end: 10, count: { all: 2, test: 1, train: 1, val: 0 } },
    ]);
    expect(
      histogram(table, 'w', { rows: bitsetFromRows(table.length, [1]) }).counts_per_bin,
    ).toEqual([]);
    const some = bitsetFromRows(table.length, [2, 4, 5]); // −2.5, 0, 7 in 2 bins: [−2.5, 2.25) [2.25, 7]
    expect(
      histogram(table, 'w', { rows: some, max_num_bins: 2 }).counts_per_bin.map((b) => b.count.all),
    ).toEqual([2, 1]);
  });

  it('bins timestamps in epoch milliseconds', () => {
    const day = 86_400_000;
    const jan1 = Date.UTC(2024, 0, 1);
    // at: jan1 ×2, jan2 ×2, jan3 12:00 → 2.5 days in 5 bins of half a day
    const h = histogram(table, 'at', { max_num_bins: 5 });
    expect(h.metadata_type).toBe('timestamp');
    expect(
      h.counts_per_bin.map((b) => ('bin_start' in b ? [b.bin_start - jan1, b.count.all] : [])),
    ).toEqual([
      [0, 2],
      [day / 2, 0],
      [day, 2],
      [day * 1.5, 0],
      [day * 2, 1],
    ]);
  });

  it('counts categories per split, most frequent first, ties in dictionary order', () => {
    expect(histogram(table, 'label')).toEqual({
      metadata_type: 'string',
      counts_per_bin: [
        { category: 'cat', count: { all: 2, test: 0, train: 1, val: 0 } },
        { category: 'dog', count: { all: 2, test: 0, train: 1, val: 1 } },
        { category: 'ant', count: { all: 1, test: 1, train: 0, val: 0 } },
      ],
    });
    expect(histogram(table, 'ok')).toEqual({
      metadata_type: 'boolean',
      counts_per_bin: [
        { category: true, count: { all: 3, test: 1, train: 1, val: 0 } },
        { category: false, count: { all: 2, test: 0, train: 1, val: 1 } },
      ],
    });
  });

  it('rejects a bad bin count and unknown fields', () => {
    expect(() => histogram(table, 'w', { max_num_bins: 0 })).toThrow(/max_num_bins/);
    expect(() => histogram(table, 'nope')).toThrow("Unknown metadata field 'nope'");
  });
});

describe('histogram at the limits of doubles', () => {
  it('counts values in a subnormal range, where bins/(max − min) overflows', () => {
    const t = fromColumns({
      ids: ['a', 'b', 'c'],
      columns: { v: { type: 'numeric', values: [-5e-324, -0, 5e-324] } },
    });
    // Two bins over [−5e-324, 5e-324]: [−5e-324, 0) holds −5e-324; [0, 5e-324] holds −0 and 5e-324.
    expect(histogram(t, 'v', { max_num_bins: 2 }).counts_per_bin).toEqual([
      { bin_start: -5e-324, bin_end: 0, count: { all: 1 } },
      { bin_start: 0, bin_end: 5e-324, count: { all: 2 } },
    ]);
  });
});
