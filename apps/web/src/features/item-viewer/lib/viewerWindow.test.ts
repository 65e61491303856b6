import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { batchesForWindow, batchOf, batchRange, counterText, windowRange } from './viewerWindow';

describe('window around the open item', () => {
  test('ten on each side, clipped at the ends of the result', () => {
    expect(windowRange(50, 1000)).toEqual([40, 61]);
    expect(windowRange(3, 1000)).toEqual([0, 14]);
    expect(windowRange(995, 1000)).toEqual([985, 1000]);
    expect(windowRange(0, 1)).toEqual([0, 1]);
    expect(windowRange(0, 0)).toEqual([0, 0]);
  });

  test('the window crosses into the next batch of 120 near a batch boundary', () => {
    expect(batchOf(119)).toBe(0);
    expect(batchOf(120)).toBe(1);
    expect(batchRange(1, 300)).toEqual([120, 240]);
    expect(batchRange(2, 300)).toEqual([240, 300]);
    expect(batchesForWindow(50, 300)).toEqual([0]);
    expect(batchesForWindow(110, 300)).toEqual([0, 1]);
    expect(batchesForWindow(129, 300)).toEqual([0, 1]);
    expect(batchesForWindow(130, 300)).toEqual([1]);
    expect(batchesForWindow(140, 300)).toEqual([1]);
  });

  test('the batches cover exactly the window, each position once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.nat(), (total, raw) => {
        const index = raw % total;
        const [start, end] = windowRange(index, total);
        const covered = new Set<number>();
        for (const batch of batchesForWindow(index, total)) {
          const [bs, be] = batchRange(batch, total);
          for (let p = bs; p < be; p++) covered.add(p);
        }
        for (let p = start; p < end; p++) expect(covered.has(p)).toBe(true);
        expect(start <= index && index < end).toBe(true);
        expect(end - start).toBeLessThanOrEqual(21);
      }),
    );
  });

  test('the counter is 1-based', () => {
    expect(counterText(0, 5)).toBe('1/5');
    expect(counterText(4, 5)).toBe('5/5');
  });
});
