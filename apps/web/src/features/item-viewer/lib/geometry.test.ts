import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  cropRegion,
  expandBox,
  FULL_IMAGE,
  INITIAL_VIEW,
  isUsableBox,
  labelsVisible,
  layoutImage,
  LABEL_CHIP_HEIGHT,
  placeLabelChips,
  rotateBox,
  rotatedSize,
  zoomAround,
  type Box,
  type LabelChipRequest,
  type Rect,
} from './geometry';

const box = fc
  .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
  .chain(([a, b]) =>
    fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([c, d]) => [Math.min(a, b), Math.min(c, d), Math.max(a, b), Math.max(c, d)] as Box),
  );

describe('rotation', () => {
  test('a quarter turn clockwise moves the top-left box to the top-right', () => {
    // Box in the top-left quarter, 0.1–0.3 down and 0.2–0.4 across.
    expect(rotateBox([0.1, 0.2, 0.3, 0.4], 1)).toEqual([0.2, 0.7, 0.4, 0.9]);
    expect(rotateBox([0.1, 0.2, 0.3, 0.4], 2).map((v) => +v.toFixed(10))).toEqual([
      0.7, 0.6, 0.9, 0.8,
    ]);
    expect(rotateBox([0.1, 0.2, 0.3, 0.4], -1)).toEqual([0.6, 0.1, 0.8, 0.3]);
    expect(rotatedSize(640, 480, 1)).toEqual([480, 640]);
    expect(rotatedSize(640, 480, 2)).toEqual([640, 480]);
  });

  test('four quarter turns, or one and its inverse, give the box back', () => {
    fc.assert(
      fc.property(box, fc.integer({ min: -3, max: 3 }), (b, turns) => {
        const back = rotateBox(rotateBox(b, turns), -turns);
        back.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 9));
      }),
    );
  });
});

describe('layout', () => {
  test('the image fits the view, centred; boxes land on their pixels', () => {
    const layout = layoutImage({
      imageWidth: 200,
      imageHeight: 100,
      viewWidth: 400,
      viewHeight: 400,
      region: FULL_IMAGE,
      turns: 0,
      view: INITIAL_VIEW,
    });
    expect(layout.scale).toBe(2);
    expect(layout.image).toEqual({ left: 0, top: 100, width: 400, height: 200 });
    expect(layout.toScreen([0, 0, 0.5, 0.5])).toEqual({
      left: 0,
      top: 100,
      width: 200,
      height: 100,
    });
  });

  test('rotated a quarter turn, a portrait view fits the image height-wise and the box follows', () => {
    const layout = layoutImage({
      imageWidth: 200,
      imageHeight: 100,
      viewWidth: 100,
      viewHeight: 200,
      region: FULL_IMAGE,
      turns: 1,
      view: INITIAL_VIEW,
    });
    expect(layout.scale).toBe(1);
    expect(layout.rotationDeg).toBe(90);
    // The unrotated element is centred so its CSS rotation about the centre fills the view.
    expect(layout.image).toEqual({ left: -50, top: 50, width: 200, height: 100 });
    // The top-left quarter of the image is now the top-right quarter of the view.
    expect(layout.toScreen([0, 0, 0.5, 0.5])).toEqual({ left: 50, top: 0, width: 50, height: 100 });
  });

  test('zoom doubles sizes about the centre; pan moves everything', () => {
    const layout = layoutImage({
      imageWidth: 100,
      imageHeight: 100,
      viewWidth: 100,
      viewHeight: 100,
      region: FULL_IMAGE,
      turns: 0,
      view: { zoom: 2, panX: 10, panY: -5 },
    });
    expect(layout.toScreen([0.25, 0.25, 0.75, 0.75])).toEqual({
      left: 10,
      top: -5,
      width: 100,
      height: 100,
    });
  });

  test('zooming around a point keeps the image point under it still', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        (factor, ax, ay) => {
          const before = { zoom: 1.5, panX: 12, panY: -7 };
          const after = zoomAround(before, factor, ax, ay);
          const at = (v: typeof before) =>
            layoutImage({
              imageWidth: 300,
              imageHeight: 200,
              viewWidth: 300,
              viewHeight: 300,
              region: FULL_IMAGE,
              turns: 0,
              view: v,
            });
          // Image fraction under the anchor, before and after.
          const fraction = (v: typeof before) => {
            const r = at(v).toScreen(FULL_IMAGE);
            return [(150 + ax - r.left) / r.width, (150 + ay - r.top) / r.height];
          };
          const [u0, v0] = fraction(before);
          const [u1, v1] = fraction(after);
          expect(u1).toBeCloseTo(u0!, 6);
          expect(v1).toBeCloseTo(v0!, 6);
        },
      ),
    );
  });
});

describe('image-object crop', () => {
  test('the offset grows the box by a percentage of its size, inside the image', () => {
    const close = (actual: Box, expected: Box) =>
      actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 12));
    close(expandBox([0.4, 0.4, 0.6, 0.5], 50), [0.3, 0.35, 0.7, 0.55]);
    close(expandBox([0, 0, 0.2, 0.2], 50), [0, 0, 0.3, 0.3]);
    // Offsets above 50 are held at 50.
    expect(expandBox([0.4, 0.4, 0.6, 0.5], 90)).toEqual(expandBox([0.4, 0.4, 0.6, 0.5], 50));
  });

  test('zoom level 0 shows the whole image, 100 the crop, 80 in between', () => {
    expect(cropRegion([0.5, 0.5, 1, 1], 0, 0)).toEqual([0, 0, 1, 1]);
    expect(cropRegion([0.5, 0.5, 1, 1], 0, 100)).toEqual([0.5, 0.5, 1, 1]);
    expect(cropRegion([0.5, 0.5, 1, 1], 0, 80)).toEqual([0.4, 0.4, 1, 1]);
  });

  test('a crop that is missing, outside the image or empty is not used', () => {
    expect(isUsableBox(null)).toBe(false);
    expect(isUsableBox([0.2, 0.2, 0.2, 0.5])).toBe(false);
    expect(isUsableBox([0.2, 0.2, 1.5, 0.5])).toBe(false);
    expect(isUsableBox([0.2, 0.2, 0.4, 0.5])).toBe(true);
  });
});

test('labels only when the image is shown wider and taller than 80 px', () => {
  expect(labelsVisible(81, 81)).toBe(true);
  expect(labelsVisible(80, 200)).toBe(false);
  expect(labelsVisible(200, 80)).toBe(false);
});

describe('label chips', () => {
  const view = { width: 800, height: 600 };
  const apart = (a: Rect, b: Rect) =>
    a.left + a.width <= b.left ||
    b.left + b.width <= a.left ||
    a.top + a.height <= b.top ||
    b.top + b.height <= a.top;
  const inside = (r: Rect) =>
    r.left >= 0 && r.top >= 0 && r.left + r.width <= view.width && r.top + r.height <= view.height;

  test('a lone box gets its chip above it, left-aligned', () => {
    const box = { left: 100, top: 200, width: 80, height: 60 };
    expect(placeLabelChips([{ box, width: 40 }], view)).toEqual([
      { left: 100, top: 200 - LABEL_CHIP_HEIGHT, width: 40, height: LABEL_CHIP_HEIGHT },
    ]);
  });

  test('at the top edge the chip goes inside the box', () => {
    const box = { left: 100, top: 4, width: 80, height: 60 };
    expect(placeLabelChips([{ box, width: 40 }], view)[0]!.top).toBe(4);
  });

  test('a ground truth and its prediction a few pixels apart get chips that do not overlap', () => {
    // The usual case: a predicted box almost on top of its ground truth.
    const gt = { left: 300, top: 200, width: 120, height: 90 };
    const pred = { left: 304, top: 203, width: 116, height: 92 };
    const [a, b] = placeLabelChips(
      [
        { box: gt, width: 60 },
        { box: pred, width: 90 },
      ],
      view,
    );
    expect(a && b).toBeTruthy();
    expect(apart(a!, b!)).toBe(true);
    // Both stay next to their boxes: within a few chip heights of the box's top or bottom.
    expect(Math.abs(a!.top - gt.top)).toBeLessThanOrEqual(4 * LABEL_CHIP_HEIGHT);
    expect(Math.abs(b!.top - pred.top)).toBeLessThanOrEqual(4 * LABEL_CHIP_HEIGHT + pred.height);
  });

  test('a cluster of close boxes: every chip placed, none overlapping, all in view', () => {
    const requests: LabelChipRequest[] = Array.from({ length: 8 }, (_, i) => ({
      box: { left: 200 + (i % 4) * 6, top: 150 + Math.floor(i / 4) * 5, width: 100, height: 80 },
      width: 50 + i * 5,
    }));
    const chips = placeLabelChips(requests, view);
    expect(chips.every((chip) => chip !== null)).toBe(true);
    for (let i = 0; i < chips.length; i++) {
      expect(inside(chips[i]!)).toBe(true);
      for (let j = i + 1; j < chips.length; j++) expect(apart(chips[i]!, chips[j]!)).toBe(true);
    }
  });

  test('for any boxes: placed chips never overlap, stay in view, and the layout is deterministic', () => {
    const rect = fc.record({
      left: fc.integer({ min: -100, max: 850 }),
      top: fc.integer({ min: -100, max: 650 }),
      width: fc.integer({ min: 1, max: 300 }),
      height: fc.integer({ min: 1, max: 300 }),
    });
    const request = fc.record({ box: rect, width: fc.integer({ min: 10, max: 200 }) });
    fc.assert(
      fc.property(fc.array(request, { maxLength: 40 }), (requests) => {
        const chips = placeLabelChips(requests, view);
        expect(placeLabelChips(requests, view)).toEqual(chips);
        const placed = chips.filter((chip): chip is Rect => chip !== null);
        for (let i = 0; i < placed.length; i++) {
          expect(inside(placed[i]!)).toBe(true);
          for (let j = i + 1; j < placed.length; j++)
            expect(apart(placed[i]!, placed[j]!)).toBe(true);
        }
        chips.forEach((chip, i) => {
          if (chip) expect(chip.width).toBe(requests[i]!.width);
        });
      }),
    );
  });

  test('the layout does not depend on the order the boxes come in', () => {
    const a = { box: { left: 100, top: 100, width: 50, height: 50 }, width: 40 };
    const b = { box: { left: 102, top: 101, width: 50, height: 50 }, width: 40 };
    const [ab0, ab1] = placeLabelChips([a, b], view);
    const [ba0, ba1] = placeLabelChips([b, a], view);
    expect([ab0, ab1]).toEqual([ba1, ba0]);
  });
});
