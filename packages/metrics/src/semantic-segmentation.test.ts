// Semantic segmentation metrics by hand and against a simple per-pixel implementation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SegmentationAccumulator, semanticSegmentationReport } from './semantic-segmentation.js';

describe('semantic segmentation', () => {
  it('computes per-class IoU, precision, recall and F1 by hand, skipping the ignore value', () => {
    const gt = Uint8Array.from([0, 0, 1, 1, 255, 2]);
    const pred = Uint8Array.from([0, 1, 1, 1, 0, 0]);
    const r = semanticSegmentationReport([[gt, pred]], 3, 255);
    // class 0: tp 1, fp 1 (pixel 5), fn 1 (pixel 1); class 1: tp 2, fp 1; class 2: fn 1.
    expect(r.perClass[0]).toMatchObject({
      tp: 1,
      fp: 1,
      fn: 1,
      iou: 1 / 3,
      precision: 0.5,
      recall: 0.5,
    });
    expect(r.perClass[1]).toMatchObject({ tp: 2, fp: 1, fn: 0, iou: 2 / 3, recall: 1 });
    expect(r.perClass[1]!.f1).toBe(0.8);
    expect(r.perClass[2]).toMatchObject({ iou: 0, precision: 0, recall: 0, f1: 0 });
    expect(r.meanIou).toBeCloseTo((1 / 3 + 2 / 3 + 0) / 3, 15);
    expect(r.pixelAccuracy).toBe(3 / 5);
    expect(r.numPixels).toBe(5);
  });

  it('leaves a class absent from both maps out of the mean (NaN)', () => {
    const r = semanticSegmentationReport(
      [
        [
          [0, 0],
          [0, 0],
        ],
      ],
      3,
      null,
    );
    expect(r.perClass[1]!.iou).toBeNaN();
    expect(r.meanIou).toBe(1);
  });

  it('counts predictions outside the classes as misses', () => {
    const r = semanticSegmentationReport([[[1], [7]]], 2, 255);
    expect(r.perClass[1]).toMatchObject({ tp: 0, fn: 1, iou: 0 });
    expect(r.pixelAccuracy).toBe(0);
  });

  it('agrees with per-pixel counting over several images, whatever their order', () => {
    const image = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })),
      {
        minLength: 1,
        maxLength: 60,
      },
    );
    fc.assert(
      fc.property(fc.array(image, { minLength: 1, maxLength: 4 }), (images) => {
        const pairs = images.map(
          (px) =>
            [px.map((p) => (p[0] === 4 ? 255 : p[0])), px.map((p) => p[1])] as [number[], number[]],
        );
        const r = semanticSegmentationReport(pairs, 4, 255);
        const flat = pairs
          .flatMap(([g, p]) => g.map((v, i) => [v, p[i]!] as const))
          .filter(([g]) => g !== 255);
        for (let c = 0; c < 4; c++) {
          const tp = flat.filter(([g, p]) => g === c && p === c).length;
          const fp = flat.filter(([g, p]) => g !== c && p === c).length;
          const fn = flat.filter(([g, p]) => g === c && p !== c).length;
          const m = r.perClass[c]!;
          expect([m.tp, m.fp, m.fn]).toEqual([tp, fp, fn]);
          if (tp + fp + fn > 0) {
            expect(m.iou).toBe(tp / (tp + fp + fn));
            expect(m.iou).toBeGreaterThanOrEqual(0);
            expect(m.iou).toBeLessThanOrEqual(1);
          }
        }
        const reversed = semanticSegmentationReport([...pairs].reverse(), 4, 255);
        expect(reversed).toEqual(r);
        const perfect = new SegmentationAccumulator(4, 255);
        pairs.forEach(([g]) => perfect.add(g, g));
        const p = perfect.report();
        if (p.numPixels > 0) expect([p.meanIou, p.pixelAccuracy]).toEqual([1, 1]);
      }),
    );
  });
});
