import { describe, expect, it } from 'vitest';
import {
  ImageObjectsBuilder,
  MATCH_STATUS,
  matchAllImages,
  relabelObjects,
  type Box,
  type ImageObjects,
} from './image-matching.js';

/**
 * Image 0 (cat/dog boxes as x, y, w, h):
 *   ground truths g1 cat [0, 0, 10, 10], g2 dog [20, 0, 10, 10], g3 cat [50, 50, 10, 10],
 *   g4 cat without a box;
 *   predictions p1 cat 0.9 [0, 0, 10, 5], p2 cat 0.8 [2, 0, 10, 10], p3 dog 0.7 [25, 0, 10, 10].
 *   IoUs: p1–g1 50 / 100 = 0.5 (a match at 0.5, taken first by the higher score); p2–g1
 *   80 / 120 = 2/3 but g1 is taken: p2 is FP with 2/3; p3–g2 50 / 150 = 1/3: both unmatched
 *   with 1/3; g3 overlaps no cat: FN with 0; g4 has no box: FN without IoU.
 *   TP 1, FP 2, FN 3.
 * Image 1: ground truth b1 dog [0, 0, 10, 10], no prediction: FN without IoU.
 * Image 2: nothing.
 * Image 3: d1 cat [0, 0, 10, 10] and a prediction pd1 cat without score on the same box: TP 1.
 * Objects arrive out of order (by id, as the database pages them).
 */
function example(): ImageObjects {
  const builder = new ImageObjectsBuilder(4, 2);
  const add = (id: string, image: number, label: string, box: Box, score?: number) =>
    builder.add(id, image, label, box, id.startsWith('pred:'), score ?? null);
  const none: Box = [null, null, null, null];
  add('pred:A#p3', 0, 'dog', [25, 0, 10, 10], 0.7);
  add('A#g1', 0, 'cat', [0, 0, 10, 10]);
  add('D#d1', 3, 'cat', [0, 0, 10, 10]);
  add('A#g2', 0, 'dog', [20, 0, 10, 10]);
  add('pred:A#p1', 0, 'cat', [0, 0, 10, 5], 0.9);
  add('A#g3', 0, 'cat', [50, 50, 10, 10]);
  add('B#b1', 1, 'dog', [0, 0, 10, 10]);
  add('A#g4', 0, 'cat', none);
  add('pred:A#p2', 0, 'cat', [2, 0, 10, 10], 0.8);
  add('pred:D#pd1', 3, 'cat', [0, 0, 10, 10]);
  return builder.build(0.5).objects;
}

const statusById = (objects: ImageObjects, status: Uint8Array, iou: Float64Array) =>
  Object.fromEntries(
    objects.ids.map((id, k) => [
      id,
      `${MATCH_STATUS[status[k]!]} ${Number.isNaN(iou[k]!) ? '-' : iou[k]!.toFixed(3)}`,
    ]),
  );

describe('ImageObjectsBuilder', () => {
  it('groups objects by image, ground truths first, each side in arrival order', () => {
    const objects = example();
    expect(objects.ids).toEqual([
      'A#g1',
      'A#g2',
      'A#g3',
      'A#g4',
      'pred:A#p3',
      'pred:A#p1',
      'pred:A#p2',
      'B#b1',
      'D#d1',
      'pred:D#pd1',
    ]);
    expect(Array.from(objects.starts)).toEqual([0, 4, 7, 8, 8, 8, 8, 9, 10]);
    expect(Array.from(objects.image)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 3, 3]);
    expect(Array.from(objects.isPred)).toEqual([0, 0, 0, 0, 1, 1, 1, 0, 0, 1]);
    expect(objects.labels[objects.label[4]!]).toBe('dog');
    expect(Number.isNaN(objects.box[3 * 4]!)).toBe(true);
    expect(Array.from(objects.box.subarray(5 * 4, 6 * 4))).toEqual([0, 0, 10, 5]);
    expect(objects.score[5]).toBe(0.9);
    expect(Number.isNaN(objects.score[9]!)).toBe(true);
  });
});

describe('matchAllImages', () => {
  it('gives each object its status and IoU, and each image its counts', () => {
    const objects = example();
    const matches = matchAllImages(objects);
    expect(statusById(objects, matches.status, matches.iou)).toEqual({
      'A#g1': 'TP 0.500',
      'A#g2': 'FN 0.333',
      'A#g3': 'FN 0.000',
      'A#g4': 'FN -',
      'pred:A#p1': 'TP 0.500',
      'pred:A#p2': 'FP 0.667',
      'pred:A#p3': 'FP 0.333',
      'B#b1': 'FN -',
      'D#d1': 'TP 1.000',
      'pred:D#pd1': 'TP 1.000',
    });
    expect(Array.from(matches.tp)).toEqual([1, 0, 0, 1]);
    expect(Array.from(matches.fp)).toEqual([2, 0, 0, 0]);
    expect(Array.from(matches.fn)).toEqual([3, 1, 0, 0]);
  });

  it('matches at the threshold it was built with', () => {
    const builder = new ImageObjectsBuilder(1, 2);
    builder.add('g', 0, 'cat', [0, 0, 10, 10], false, null);
    builder.add('pred:p', 0, 'cat', [0, 0, 10, 5], true, 0.5);
    const strict = builder.build(0.6).objects;
    const matches = matchAllImages(strict);
    expect(statusById(strict, matches.status, matches.iou)).toEqual({
      g: 'FN 0.500',
      'pred:p': 'FP 0.500',
    });
    expect([matches.tp[0], matches.fp[0], matches.fn[0]]).toEqual([0, 1, 1]);
  });
});

describe('relabelObjects', () => {
  it('gives the edited objects their new labels and names the images to re-match', () => {
    const before = example();
    // g1 becomes a dog: p1 and p2 (cats) now only meet g3 (no overlap); p3 still overlaps g2 by
    // 1/3 and g1 not at all. TP 0, FP 3, FN 4. b1 becomes a cat (image 1, nothing changes).
    const { objects, images } = relabelObjects(
      before,
      new Map([
        ['dog', ['A#g1', 'unknown']],
        ['bird', ['B#b1']],
      ]),
    );
    expect(images).toEqual([0, 1]);
    expect(objects.labels[objects.label[0]!]).toBe('dog');
    expect(objects.labels[objects.label[7]!]).toBe('bird');
    // The objects before the edit are untouched.
    expect(before.labels[before.label[0]!]).toBe('cat');
    expect(objects.box).toBe(before.box);
    const matches = matchAllImages(objects);
    expect(statusById(objects, matches.status, matches.iou)).toMatchObject({
      'A#g1': 'FN 0.000',
      'A#g2': 'FN 0.333',
      'A#g3': 'FN 0.000',
      'A#g4': 'FN -',
      'pred:A#p1': 'FP 0.000',
      'pred:A#p2': 'FP 0.000',
      'pred:A#p3': 'FP 0.333',
      'B#b1': 'FN -',
    });
    expect([matches.tp[0], matches.fp[0], matches.fn[0]]).toEqual([0, 3, 4]);
  });
});
