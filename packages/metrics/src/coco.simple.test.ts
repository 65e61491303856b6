// A second, deliberately simple COCOeval (bbox) written straight from its description — plain
// objects, per-maxDet re-matching, no shared arrays — compared with evaluateCoco on random cases.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateCoco,
  evaluatePreparedCoco,
  prepareCoco,
  type CocoDataset,
  type CocoDetection,
} from './coco.js';

const IOU_THRS = Array.from({ length: 10 }, (_, i) =>
  i === 9 ? 0.95 : i * ((0.95 - 0.5) / 9) + 0.5,
);
const REC_THRS = Array.from({ length: 101 }, (_, i) => (i === 100 ? 1 : i * 0.01));
const AREAS: Record<string, [number, number]> = {
  all: [0, 1e10],
  small: [0, 1024],
  medium: [1024, 9216],
  large: [9216, 1e10],
};

function iou(d: number[], g: number[], crowd: boolean): number {
  const w = Math.min(d[0]! + d[2]!, g[0]! + g[2]!) - Math.max(d[0]!, g[0]!);
  const h = Math.min(d[1]! + d[3]!, g[1]! + g[3]!) - Math.max(d[1]!, g[1]!);
  if (w <= 0 || h <= 0) return 0;
  const union = crowd ? d[2]! * d[3]! : d[2]! * d[3]! + g[2]! * g[3]! - w * h;
  return (w * h) / union;
}

interface Outcome {
  score: number;
  kind: 'tp' | 'fp' | 'ignore';
}

/** Outcomes of one image's top-maxDet detections at one threshold, and its non-ignored count. */
function matchImage(
  gts: CocoDataset['annotations'],
  dts: CocoDetection[],
  area: [number, number],
  threshold: number,
): { outcomes: Outcome[]; positives: number } {
  const ignoredGt = (g: (typeof gts)[number]) =>
    Boolean(g.iscrowd) || g.area! < area[0] || g.area! > area[1];
  const regular = gts.filter((g) => !ignoredGt(g));
  const ignored = gts.filter((g) => ignoredGt(g));
  const taken = new Set<unknown>();
  const outcomes = dts.map((d) => {
    const pick = (pool: typeof gts) => {
      let best: (typeof gts)[number] | undefined;
      let bestIou = Math.min(threshold, 1 - 1e-10);
      for (const g of pool) {
        if (taken.has(g) && !g.iscrowd) continue;
        const v = iou(d.bbox!, g.bbox!, Boolean(g.iscrowd));
        // Ties go to the later ground truth, as COCOeval's `>=` scan.
        if (v >= bestIou) {
          bestIou = v;
          best = g;
        }
      }
      return best;
    };
    const regularMatch = pick(regular);
    const match = regularMatch ?? pick(ignored);
    const detArea = d.bbox![2]! * d.bbox![3]!;
    const outside = detArea < area[0] || detArea > area[1];
    if (!match) return { score: d.score, kind: outside ? 'ignore' : 'fp' } as Outcome;
    taken.add(match);
    return { score: d.score, kind: regularMatch ? 'tp' : 'ignore' } as Outcome;
  });
  return { outcomes, positives: regular.length };
}

function simpleStats(gt: CocoDataset, dt: CocoDetection[]): number[] {
  const cats = [...new Set(gt.categories!.map((c) => c.id))].sort((a, b) => Number(a) - Number(b));
  const images = [...new Set(gt.images.map((i) => i.id))].sort((a, b) => Number(a) - Number(b));
  // ap[area][maxDet] and ar[area][maxDet]: lists of (per threshold, per category) values.
  const summary = (ap: boolean, areaName: string, maxDet: number, onlyThr?: number) => {
    const values: number[] = [];
    for (const cat of cats) {
      IOU_THRS.forEach((threshold, t) => {
        if (onlyThr !== undefined && t !== onlyThr) return;
        const all: Outcome[] = [];
        let positives = 0;
        let anything = false;
        for (const img of images) {
          const gts = gt.annotations.filter((a) => a.image_id === img && a.category_id === cat);
          const dts = dt
            .filter((d) => d.image_id === img && d.category_id === cat)
            .map((d, order) => ({ d, order }))
            .sort((a, b) => b.d.score - a.d.score || a.order - b.order)
            .slice(0, maxDet)
            .map((x) => x.d);
          if (gts.length === 0 && dts.length === 0) continue;
          anything = true;
          const r = matchImage(gts, dts, AREAS[areaName]!, threshold);
          all.push(...r.outcomes);
          positives += r.positives;
        }
        if (!anything || positives === 0) return;
        const sorted = all
          .map((o, i) => ({ o, i }))
          .sort((a, b) => b.o.score - a.o.score || a.i - b.i);
        const counted = sorted.filter((x) => x.o.kind !== 'ignore');
        let tp = 0;
        let fp = 0;
        const rc: number[] = [];
        const pr: number[] = [];
        for (const { o } of counted) {
          if (o.kind === 'tp') tp++;
          else fp++;
          rc.push(tp / positives);
          pr.push(tp / (tp + fp + 2.220446049250313e-16));
        }
        if (!ap) {
          values.push(rc.length ? rc[rc.length - 1]! : 0);
          return;
        }
        for (let i = pr.length - 1; i > 0; i--) pr[i - 1] = Math.max(pr[i - 1]!, pr[i]!);
        for (const r of REC_THRS) {
          const i = rc.findIndex((v) => v >= r);
          values.push(i === -1 ? 0 : pr[i]!);
        }
      });
    }
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : -1;
  };
  return [
    summary(true, 'all', 100),
    summary(true, 'all', 100, 0),
    summary(true, 'all', 100, 5),
    summary(true, 'small', 100),
    summary(true, 'medium', 100),
    summary(true, 'large', 100),
    summary(false, 'all', 1),
    summary(false, 'all', 10),
    summary(false, 'all', 100),
    summary(false, 'small', 100),
    summary(false, 'medium', 100),
    summary(false, 'large', 100),
  ];
}

describe('evaluateCoco against a simple second implementation', () => {
  // Boxes on a coarse grid, so IoU ties, exact-threshold IoUs and areas exactly on the range
  // bounds (32² and 96²) occur.
  const side = fc.constantFrom(16, 32, 48, 96, 112);
  const position = fc.constantFrom(0, 16, 32, 48);
  const boxArb = fc.tuple(position, position, side, side);
  const objectArb = fc.record({
    image: fc.integer({ min: 1, max: 2 }),
    category: fc.integer({ min: 1, max: 2 }),
    box: boxArb,
    crowd: fc.integer({ min: 0, max: 9 }).map((v) => (v === 0 ? 1 : 0)),
  });
  const detArb = fc.record({
    image: fc.integer({ min: 1, max: 2 }),
    category: fc.integer({ min: 1, max: 2 }),
    box: boxArb,
    score: fc.integer({ min: 0, max: 10 }).map((v) => v / 10),
  });

  it('gives the same 12 numbers on random cases with crowds, ties and up to 30 detections', () => {
    fc.assert(
      fc.property(
        fc.array(objectArb, { maxLength: 25 }),
        fc.array(detArb, { maxLength: 30 }),
        (objects, detections) => {
          const gt: CocoDataset = {
            images: [1, 2, 3, 4].map((id) => ({ id, width: 200, height: 200 })),
            annotations: objects.map((o, i) => ({
              id: i + 1,
              image_id: o.image,
              category_id: o.category,
              bbox: o.box,
              area: o.box[2] * o.box[3],
              iscrowd: o.crowd,
            })),
            categories: [{ id: 1 }, { id: 2 }, { id: 3 }],
          };
          const dt: CocoDetection[] = detections.map((d) => ({
            image_id: d.image,
            category_id: d.category,
            bbox: d.box,
            score: d.score,
          }));
          const expected = simpleStats(gt, dt);
          const actual = evaluateCoco(gt, dt, 'bbox').stats;
          actual.forEach((v, i) => expect(v, `stat ${i}`).toBeCloseTo(expected[i]!, 12));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('evaluatePreparedCoco on a subset of the images', () => {
  const boxArb = fc.tuple(
    fc.constantFrom(0, 16, 32),
    fc.constantFrom(0, 16, 32),
    fc.constantFrom(16, 32, 48),
    fc.constantFrom(16, 32, 48),
  );
  const objectArb = fc.record({
    image: fc.integer({ min: 1, max: 4 }),
    category: fc.integer({ min: 1, max: 2 }),
    box: boxArb,
    score: fc.integer({ min: 0, max: 10 }).map((v) => v / 10),
  });

  it('equals evaluateCoco on the ground truth restricted to those images', () => {
    fc.assert(
      fc.property(
        fc.array(objectArb, { maxLength: 20 }),
        fc.array(objectArb, { maxLength: 25 }),
        fc.subarray([1, 2, 3, 4]),
        (objects, detections, subset) => {
          const gt = (images: number[]): CocoDataset => ({
            images: images.map((id) => ({ id, width: 100, height: 100 })),
            annotations: objects
              .map((o, i) => ({
                id: i + 1,
                image_id: o.image,
                category_id: o.category,
                bbox: o.box,
                area: o.box[2] * o.box[3],
              }))
              .filter((a) => images.includes(a.image_id)),
            categories: [{ id: 1 }, { id: 2 }],
          });
          const dt = (images: number[]): CocoDetection[] =>
            detections
              .filter((d) => images.includes(d.image))
              .map((d) => ({
                image_id: d.image,
                category_id: d.category,
                bbox: d.box,
                score: d.score,
              }));
          const prepared = prepareCoco(gt([1, 2, 3, 4]), dt([1, 2, 3, 4]), 'bbox');
          const actual = evaluatePreparedCoco(prepared, new Set(subset));
          const expected = evaluateCoco(gt(subset), dt(subset), 'bbox');
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
