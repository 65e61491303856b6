// Histogram bins: boundaries, the inclusive last bin, the overflow bin, and counts summing to the
// number of finite values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { histogram } from './histogram.js';

describe('histogram', () => {
  it('puts values on a boundary in the bin that starts there', () => {
    // [0, 1] in 20 bins of 0.05: 0.95 → bin 19 (0.95 / 0.05 would be 18.999…), 0.05 → bin 1.
    const h = histogram([0, 0.05, 0.5, 0.95, 1], { min: 0, max: 1, bins: 20 });
    expect(h.counts[0]).toBe(1);
    expect(h.counts[1]).toBe(1);
    expect(h.counts[10]).toBe(1);
    // 0.95 and 1 (max is inclusive in the last bin).
    expect(h.counts[19]).toBe(2);
    expect(h.centres[0]).toBeCloseTo(0.025, 12);
    expect(h.centres[19]).toBeCloseTo(0.975, 12);
  });

  it('adds an overflow bin for values ≥ max', () => {
    const h = histogram([0.99, 1, 1.5, 7], { min: 0, max: 1, bins: 20, overflow: true });
    expect(h.counts).toHaveLength(21);
    expect(h.counts[19]).toBe(1);
    expect(h.counts[20]).toBe(3);
    expect(h.centres[20]).toBeCloseTo(1.025, 12);
  });

  it('clamps values outside the range and skips NaN', () => {
    const h = histogram([-5, NaN, 3, Infinity], { min: 0, max: 2, bins: 4 });
    expect([...h.counts]).toEqual([1, 0, 0, 1]);
  });

  it('refuses an empty range or a bad bin count', () => {
    expect(() => histogram([1], { min: 1, max: 1, bins: 3 })).toThrow(RangeError);
    expect(() => histogram([1], { min: 0, max: 1, bins: 0 })).toThrow(RangeError);
  });

  it('counts every finite value exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), fc.constant(NaN))),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        (values, bins, overflow) => {
          const h = histogram(values, { min: -50, max: 50, bins, overflow });
          const total = h.counts.reduce((a, b) => a + b, 0);
          expect(total).toBe(values.filter((v) => !Number.isNaN(v)).length);
        },
      ),
    );
  });
});
