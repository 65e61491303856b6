// COCO RLE mask API against pycocotools' answers (fixtures) and hand-made masks.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bboxIou,
  bboxToRle,
  decodeMask,
  encodeMask,
  encodeRowMajorMask,
  mergeRles,
  polygonToRle,
  rleArea,
  rleFromJson,
  rleFromString,
  rleIou,
  rleToBbox,
  rleToString,
  segmentationToRle,
} from './rle.js';

interface MaskFixtures {
  polygons: { h: number; w: number; xy: number[]; counts: string; area: number; bbox: number[] }[];
  boxes: { h: number; w: number; bbox: number[]; counts: string }[];
  pairs: {
    h: number;
    w: number;
    a_rows: number[];
    b_rows: number[];
    a_counts: string;
    b_counts: string;
    crowd: boolean;
    iou: number;
    union: string;
    intersection: string;
    bbox_a: number[];
  }[];
  box_ious: { dt: number[]; gt: number[]; crowd: boolean; iou: number }[];
}

const fixtures = JSON.parse(
  readFileSync(new URL('../test-fixtures/mask-cases.json', import.meta.url), 'utf8'),
) as MaskFixtures;

describe('RLE against pycocotools', () => {
  it('rasterises polygons to the same RLE string, area and box as frPyObjects', () => {
    for (const p of fixtures.polygons) {
      const rle = polygonToRle(p.xy, p.h, p.w);
      expect(rleToString(rle)).toBe(p.counts);
      expect(rleArea(rle)).toBe(p.area);
      expect(rleToBbox(rle)).toEqual(p.bbox);
    }
  });

  it('rasterises boxes as frBbox', () => {
    for (const b of fixtures.boxes) expect(rleToString(bboxToRle(b.bbox, b.h, b.w))).toBe(b.counts);
  });

  it('encodes row-major masks, merges and computes IoU (crowd or not) as the mask API', () => {
    for (const pair of fixtures.pairs) {
      const a = encodeRowMajorMask(pair.a_rows, pair.h, pair.w);
      const b = encodeRowMajorMask(pair.b_rows, pair.h, pair.w);
      expect(rleToString(a)).toBe(pair.a_counts);
      expect(rleToString(b)).toBe(pair.b_counts);
      expect(rleToString(mergeRles([a, b]))).toBe(pair.union);
      expect(rleToString(mergeRles([a, b], true))).toBe(pair.intersection);
      expect(rleIou([a], [b], [pair.crowd])[0]).toBeCloseTo(pair.iou, 14);
      expect(rleToBbox(a)).toEqual(pair.bbox_a);
    }
  });

  it('computes box IoU as bbIou, crowd regions using the detection area as union', () => {
    for (const c of fixtures.box_ious) {
      expect(bboxIou(c.dt, c.gt, [c.crowd])[0]).toBeCloseTo(c.iou, 14);
    }
  });
});

describe('RLE by hand', () => {
  it('encodes column-major, starting with a run of zeros', () => {
    // 2×3 mask, column-major: columns (0,1), (1,1), (0,0).
    const rle = encodeMask([0, 1, 1, 1, 0, 0], 2, 3);
    expect([...rle.counts]).toEqual([1, 3, 2]);
    expect(rleArea(rle)).toBe(3);
    expect(rleToBbox(rle)).toEqual([0, 0, 2, 2]);
    const full = encodeMask([1, 1], 1, 2);
    expect([...full.counts]).toEqual([0, 2]);
  });

  it('reads uncompressed COCO RLE and polygons given as a list', () => {
    const rle = segmentationToRle({ size: [2, 3], counts: [1, 3, 2] }, 2, 3);
    expect(rleArea(rle)).toBe(3);
    const square = segmentationToRle([[0, 0, 4, 0, 4, 4, 0, 4]], 10, 10);
    expect(rleArea(square)).toBe(16);
  });

  it('gives IoU -1 for masks of different sizes and 0 without overlap', () => {
    const a = encodeMask([1, 1, 0, 0], 2, 2);
    const b = encodeMask([0, 0, 1, 1], 2, 2);
    const c = encodeMask([1, 1, 1, 1, 1, 1], 2, 3);
    expect([...rleIou([a], [b, c])]).toEqual([0, -1]);
  });

  it('rejects malformed segmentations with a reason', () => {
    expect(() => segmentationToRle([[0, 0, 'x' as unknown as number, 1, 2, 2]], 4, 4)).toThrow(
      /polygon 0 must be a list of numbers/,
    );
    expect(() => rleFromJson({ size: [2] as unknown as [number, number], counts: '' })).toThrow(
      /"size" must be \[height, width\]/,
    );
    expect(() => rleFromJson({ size: [2, 2], counts: [1, -1] })).toThrow(/non-negative/);
  });

  it('rejects corrupt compressed strings', () => {
    expect(() => rleFromString('\u00ff', 2, 2)).toThrow(SyntaxError);
    expect(() => rleFromJson({ size: [1, 1], counts: 'P' })).toThrow(/truncated/);
  });
});

/**
 * Second implementation of maskApi.c's frPoly, step by step as the C code (all boundary points
 * stored, then filtered), against which the optimised polygonToRle is checked on random polygons.
 */
function simpleFrPoly(xy: number[], h: number, w: number): number[] {
  const k = xy.length / 2;
  const x: number[] = [];
  const y: number[] = [];
  for (let j = 0; j < k; j++) x.push(Math.trunc(5 * xy[2 * j]! + 0.5));
  for (let j = 0; j < k; j++) y.push(Math.trunc(5 * xy[2 * j + 1]! + 0.5));
  x.push(x[0]!);
  y.push(y[0]!);
  const u: number[] = [];
  const v: number[] = [];
  for (let j = 0; j < k; j++) {
    let [xs, xe, ys, ye] = [x[j]!, x[j + 1]!, y[j]!, y[j + 1]!];
    const dx = Math.abs(xe - xs);
    const dy = Math.abs(ys - ye);
    const flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) [xs, xe, ys, ye] = [xe, xs, ye, ys];
    const s = dx >= dy ? (ye - ys) / dx : (xe - xs) / dy;
    if (dx >= dy) {
      for (let d = 0; d <= dx; d++) {
        const t = flip ? dx - d : d;
        u.push(t + xs);
        v.push(Math.trunc(ys + s * t + 0.5));
      }
    } else {
      for (let d = 0; d <= dy; d++) {
        const t = flip ? dy - d : d;
        v.push(t + ys);
        u.push(Math.trunc(xs + s * t + 0.5));
      }
    }
  }
  const a: number[] = [];
  for (let j = 1; j < u.length; j++) {
    if (u[j] === u[j - 1]) continue;
    const xd = ((u[j]! < u[j - 1]! ? u[j]! : u[j]! - 1) + 0.5) / 5 - 0.5;
    if (Math.floor(xd) !== xd || xd < 0 || xd > w - 1) continue;
    let yd = ((v[j]! < v[j - 1]! ? v[j]! : v[j - 1]!) + 0.5) / 5 - 0.5;
    yd = Math.ceil(Math.min(Math.max(yd, 0), h));
    a.push(xd * h + yd);
  }
  a.push(h * w);
  a.sort((p, q) => p - q);
  const diffs = a.map((t, j) => t - (j === 0 ? 0 : a[j - 1]!));
  const b = [diffs[0]!];
  for (let j = 1; j < diffs.length; j++) {
    if (diffs[j]! > 0) b.push(diffs[j]!);
    else if (++j < diffs.length) b[b.length - 1]! += diffs[j]!;
  }
  return b;
}

describe('polygon rasterisation', () => {
  it('agrees with a step-by-step frPoly on random polygons, inside and outside the image', () => {
    const coordinate = fc.oneof(
      fc.integer({ min: -20, max: 120 }),
      fc.double({ min: -20, max: 120, noNaN: true }).map((v) => Math.round(v * 100) / 100),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.tuple(coordinate, coordinate), { minLength: 1, maxLength: 12 }),
        (h, w, points) => {
          const xy = points.flat();
          expect([...polygonToRle(xy, h, w).counts]).toEqual(simpleFrPoly(xy, h, w));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('RLE invariants', () => {
  const maskArb = fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }))
    .chain(([h, w]) =>
      fc.tuple(
        fc.constant(h),
        fc.constant(w),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: h * w, maxLength: h * w }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: h * w, maxLength: h * w }),
      ),
    );

  it('decode(encode(m)) = m, and the string form round-trips', () => {
    fc.assert(
      fc.property(maskArb, ([h, w, m]) => {
        const rle = encodeMask(m, h, w);
        expect([...decodeMask(rle)]).toEqual(m);
        expect([...rleFromString(rleToString(rle), h, w).counts]).toEqual([...rle.counts]);
      }),
    );
  });

  it('IoU, union and intersection agree with pixel counting', () => {
    fc.assert(
      fc.property(maskArb, ([h, w, m1, m2]) => {
        const a = encodeMask(m1, h, w);
        const b = encodeMask(m2, h, w);
        let inter = 0;
        let union = 0;
        for (let i = 0; i < h * w; i++) {
          if (m1[i] && m2[i]) inter++;
          if (m1[i] || m2[i]) union++;
        }
        expect(rleArea(mergeRles([a, b], true))).toBe(inter);
        expect(rleArea(mergeRles([a, b]))).toBe(union);
        expect(rleIou([a], [b])[0]).toBe(inter === 0 ? 0 : inter / union);
        expect(rleIou([a], [b])[0]).toBe(rleIou([b], [a])[0]);
      }),
    );
  });
});
