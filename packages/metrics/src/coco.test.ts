// COCO evaluation against pycocotools' own answers (fixtures), hand-computed cases and invariants.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateCoco,
  CocoInputError,
  type CocoDataset,
  type CocoDetection,
  type CocoIouType,
} from './coco.js';

interface Fixture {
  name: string;
  iou_type: CocoIouType;
  gt: CocoDataset;
  dt: CocoDetection[];
  expected: {
    stats: number[];
    per_category: { category_id: number; ap: number; ap50: number; ap75: number; ar100: number }[];
  };
}

const fixtures = JSON.parse(
  readFileSync(new URL('../test-fixtures/coco-cases.json', import.meta.url), 'utf8'),
) as Fixture[];

describe('evaluateCoco against pycocotools', () => {
  for (const fixture of fixtures) {
    it(`gives COCOeval's 12 stats and per-category results on ${fixture.name}`, () => {
      const result = evaluateCoco(fixture.gt, fixture.dt, fixture.iou_type);
      result.stats.forEach((value, i) => {
        expect(value, `stat ${i}`).toBeCloseTo(fixture.expected.stats[i]!, 12);
      });
      expect(result.perCategory).toHaveLength(fixture.expected.per_category.length);
      result.perCategory.forEach((category, k) => {
        const expected = fixture.expected.per_category[k]!;
        expect(category.categoryId).toBe(expected.category_id);
        expect(category.ap).toBeCloseTo(expected.ap, 12);
        expect(category.ap50).toBeCloseTo(expected.ap50, 12);
        expect(category.ap75).toBeCloseTo(expected.ap75, 12);
        expect(category.ar100).toBeCloseTo(expected.ar100, 12);
      });
    });
  }

  it('fixtures exercise crowds, a category without ground truth and score ties', () => {
    const all = fixtures.flatMap((f) => f.gt.annotations);
    expect(all.some((a) => a.iscrowd)).toBe(true);
    expect(fixtures[0]!.expected.per_category.at(-1)!.ap).toBe(-1);
    const scores = fixtures[0]!.dt.map((d) => d.score);
    expect(new Set(scores).size).toBeLessThan(scores.length);
  });
});

const image = (id: number, width = 100, height = 100) => ({ id, width, height });
const box = (
  id: number,
  imageId: number,
  bbox: number[],
  extra: Partial<{ category_id: number; iscrowd: number; area: number }> = {},
) => ({
  id,
  image_id: imageId,
  category_id: extra.category_id ?? 1,
  bbox,
  area: extra.area ?? bbox[2]! * bbox[3]!,
  iscrowd: extra.iscrowd ?? 0,
});

describe('evaluateCoco, hand-computed cases', () => {
  it('scores 1 everywhere applicable for perfect detections', () => {
    const gt: CocoDataset = {
      images: [image(1), image(2)],
      annotations: [box(1, 1, [10, 10, 50, 50]), box(2, 2, [0, 0, 20, 20])],
      categories: [{ id: 1 }],
    };
    const dt = gt.annotations.map((a) => ({ ...a, score: 0.9 }));
    const { stats } = evaluateCoco(gt, dt, 'bbox');
    // AP all, 50, 75 = 1; small (400 px) = 1; medium (2500 px) = 1; no large objects = -1.
    // COCOeval's precision is tp / (tp + fp + ε), so "1" is 1 − 2⁻⁵³ in both implementations.
    [1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, -1].forEach((e, i) => expect(stats[i]).toBeCloseTo(e, 12));
  });

  it('gives -1 for every number when there is no ground truth at all', () => {
    const gt: CocoDataset = { images: [image(1)], annotations: [], categories: [{ id: 1 }] };
    const { stats } = evaluateCoco(gt, [], 'bbox');
    expect(stats).toEqual(new Array(12).fill(-1));
  });

  it('gives 0 with ground truth but empty predictions', () => {
    const gt: CocoDataset = {
      images: [image(1)],
      annotations: [box(1, 1, [10, 10, 50, 50])],
      categories: [{ id: 1 }],
    };
    const { stats, perCategory } = evaluateCoco(gt, [], 'bbox');
    expect(stats[0]).toBe(0);
    expect(stats[8]).toBe(0);
    expect(perCategory[0]).toMatchObject({ ap: 0, ap50: 0, ar100: 0 });
  });

  it('computes precision at recall points by hand: one TP after one FP', () => {
    // Two objects; detections by score: FP (0.9), TP (0.8) on object A; object B missed.
    const gt: CocoDataset = {
      images: [image(1)],
      annotations: [box(1, 1, [0, 0, 40, 40]), box(2, 1, [60, 60, 30, 30])],
      categories: [{ id: 1 }],
    };
    const dt: CocoDetection[] = [
      { image_id: 1, category_id: 1, bbox: [45, 0, 10, 10], score: 0.9 },
      { image_id: 1, category_id: 1, bbox: [0, 0, 40, 40], score: 0.8 },
    ];
    const { stats } = evaluateCoco(gt, dt, 'bbox');
    // At every threshold: recall reaches 0.5 with precision 1/2 → 51 recall points × 0.5 / 101.
    expect(stats[0]).toBeCloseTo((51 * 0.5) / 101, 15);
    expect(stats[8]).toBe(0.5);
    // maxDets 1 keeps only the FP.
    expect(stats[6]).toBe(0);
  });

  it('ignores an all-crowd image: detections inside crowd regions are neither TP nor FP', () => {
    const gt: CocoDataset = {
      images: [image(1), image(2)],
      annotations: [box(1, 1, [0, 0, 50, 50], { iscrowd: 1 }), box(2, 2, [10, 10, 30, 30])],
      categories: [{ id: 1 }],
    };
    const dt: CocoDetection[] = [
      // Inside the crowd box with a higher score than the true positive: ignored, not an FP.
      { image_id: 1, category_id: 1, bbox: [5, 5, 20, 20], score: 0.95 },
      { image_id: 1, category_id: 1, bbox: [20, 20, 20, 20], score: 0.94 },
      { image_id: 2, category_id: 1, bbox: [10, 10, 30, 30], score: 0.5 },
    ];
    const { stats } = evaluateCoco(gt, dt, 'bbox');
    expect(stats[0]).toBeCloseTo(1, 12);
    expect(stats[8]).toBeCloseTo(1, 12);
  });

  it('counts a class with predictions but no ground truth as undefined (-1), not 0', () => {
    const gt: CocoDataset = {
      images: [image(1)],
      annotations: [box(1, 1, [0, 0, 40, 40])],
      categories: [{ id: 1 }, { id: 2 }],
    };
    const dt: CocoDetection[] = [
      { image_id: 1, category_id: 1, bbox: [0, 0, 40, 40], score: 0.9 },
      { image_id: 1, category_id: 2, bbox: [0, 0, 40, 40], score: 0.9 },
    ];
    const { stats, perCategory } = evaluateCoco(gt, dt, 'bbox');
    expect(stats[0]).toBeCloseTo(1, 12);
    expect(perCategory[0]!.ap).toBeCloseTo(1, 12);
    expect(perCategory[1]!.ap).toBe(-1);
  });

  it('gives an IoU tie to the later ground truth, as COCOeval', () => {
    // The first detection overlaps A and B equally (IoU 9/11); the second is exactly A.
    const gt: CocoDataset = {
      images: [image(1)],
      annotations: [box(1, 1, [0, 0, 10, 10]), box(2, 1, [2, 0, 10, 10])],
      categories: [{ id: 1 }],
    };
    const dt: CocoDetection[] = [
      { image_id: 1, category_id: 1, bbox: [1, 0, 10, 10], score: 0.9 },
      { image_id: 1, category_id: 1, bbox: [0, 0, 10, 10], score: 0.8 },
    ];
    // COCOeval: first → B, second → A: both TP up to IoU .80; above, the first is an FP.
    const expected = (7 * 1 + 3 * ((51 * 0.5) / 101)) / 10;
    expect(evaluateCoco(gt, dt, 'bbox').stats[0]).toBeCloseTo(expected, 12);
  });

  it('uses the ground truth file area for the area ranges', () => {
    const gt: CocoDataset = {
      images: [image(1)],
      // A 50×50 box whose annotated area is small (a thin object in a big box).
      annotations: [box(1, 1, [0, 0, 50, 50], { area: 500 })],
      categories: [{ id: 1 }],
    };
    const dt: CocoDetection[] = [{ image_id: 1, category_id: 1, bbox: [0, 0, 50, 50], score: 1 }];
    const { stats } = evaluateCoco(gt, dt, 'bbox');
    expect(stats[3]).toBeCloseTo(1, 12); // small
    expect(stats[4]).toBe(-1); // medium: no ground truth there
  });

  it('matches segm masks from polygons', () => {
    const gt: CocoDataset = {
      images: [image(1, 20, 20)],
      annotations: [
        {
          id: 1,
          image_id: 1,
          category_id: 1,
          segmentation: [[2, 2, 12, 2, 12, 12, 2, 12]],
          area: 100,
          iscrowd: 0,
        },
      ],
      categories: [{ id: 1 }],
    };
    const dt: CocoDetection[] = [
      { image_id: 1, category_id: 1, segmentation: [[2, 2, 12, 2, 12, 12, 2, 12]], score: 0.7 },
    ];
    expect(evaluateCoco(gt, dt, 'segm').stats[0]).toBeCloseTo(1, 12);
  });

  it('names the bad detection when its image is not in the ground truth', () => {
    const gt: CocoDataset = { images: [image(1)], annotations: [], categories: [{ id: 1 }] };
    const dt: CocoDetection[] = [
      { image_id: 1, category_id: 1, bbox: [0, 0, 1, 1], score: 1 },
      { image_id: 7, category_id: 1, bbox: [0, 0, 1, 1], score: 1 },
    ];
    expect(() => evaluateCoco(gt, dt, 'bbox')).toThrow(CocoInputError);
    expect(() => evaluateCoco(gt, dt, 'bbox')).toThrow(/detection 1: image_id 7/);
  });
});

describe('evaluateCoco invariants', () => {
  const boxArb = fc.tuple(
    fc.integer({ min: 0, max: 80 }),
    fc.integer({ min: 0, max: 80 }),
    fc.integer({ min: 1, max: 60 }),
    fc.integer({ min: 1, max: 60 }),
  );
  const caseArb = fc.array(
    fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }), boxArb),
    {
      minLength: 1,
      maxLength: 20,
    },
  );

  it('perfect detections give AP = 1 at every IoU threshold', () => {
    fc.assert(
      fc.property(caseArb, (objects) => {
        const gt: CocoDataset = {
          images: [image(1), image(2), image(3)],
          annotations: objects.map(([img, cat, b], i) => box(i + 1, img, b, { category_id: cat })),
          categories: [{ id: 1 }, { id: 2 }],
        };
        const dt = gt.annotations.map((a, i) => ({ ...a, score: 1 - i / 100 }));
        const { stats } = evaluateCoco(gt, dt, 'bbox');
        expect(stats[0]).toBeCloseTo(1, 12);
        expect(stats[8]).toBeCloseTo(1, 12);
      }),
      { numRuns: 50 },
    );
  });

  it('stats stay in [0, 1] (or -1) and do not depend on the order of images and categories', () => {
    fc.assert(
      fc.property(caseArb, caseArb, (objects, detections) => {
        const gt: CocoDataset = {
          images: [image(1), image(2), image(3)],
          annotations: objects.map(([img, cat, b], i) => box(i + 1, img, b, { category_id: cat })),
          categories: [{ id: 1 }, { id: 2 }],
        };
        // Distinct scores: with ties, COCOeval's order depends on input order by design.
        const dt = detections.map(([img, cat, b], i) => ({
          image_id: img,
          category_id: cat,
          bbox: b,
          score: (i + 1) / 64,
        }));
        const { stats } = evaluateCoco(gt, dt, 'bbox');
        for (const s of stats) expect(s === -1 || (s >= 0 && s <= 1)).toBe(true);
        const shuffled: CocoDataset = {
          images: [...gt.images].reverse(),
          annotations: gt.annotations,
          categories: [...gt.categories!].reverse(),
        };
        expect(evaluateCoco(shuffled, [...dt].reverse(), 'bbox').stats).toEqual(stats);
      }),
      { numRuns: 50 },
    );
  });
});
