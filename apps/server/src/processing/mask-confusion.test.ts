// Label map decoding, one image's pixel confusion and its statistics, against counts worked out
// by hand on tiny masks and against a second, naive count on random ones.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  classOfPixelValue,
  decodeMask,
  maskConfusion,
  maskScores,
  maskStatsOf,
} from './mask-confusion.js';

async function png(pixels: number[], width: number, height: number, channels: 1 | 3 = 1) {
  const data = Buffer.from(channels === 1 ? pixels : pixels.flatMap((v) => [v, 7, 9]));
  return sharp(data, { raw: { width, height, channels } }).png().toBuffer();
}

describe('classOfPixelValue', () => {
  it('maps pixel values to class indexes, through the label map when there is one', () => {
    const plain = classOfPixelValue(['bg', 'road', 'car'], null);
    expect([...plain.slice(0, 4)]).toEqual([0, 1, 2, -1]);
    expect(plain[255]).toBe(-1);
    const mapped = classOfPixelValue(['bg', 'road', 'car'], { '0': 'bg', '7': 'car', '9': 'sky' });
    expect([mapped[0], mapped[1], mapped[7], mapped[9]]).toEqual([0, -1, 2, -1]);
    // An empty label map is no label map.
    expect([...classOfPixelValue(['a', 'b'], {}).slice(0, 3)]).toEqual([0, 1, -1]);
  });
});

describe('decodeMask', () => {
  it('reads the first channel as classes, and scales to a size by nearest pixel', async () => {
    const classOfValue = classOfPixelValue(['a', 'b', 'c'], null);
    const rgb = await decodeMask(await png([0, 1, 2, 5], 2, 2, 3), classOfValue);
    expect(rgb).toEqual({ classes: Int32Array.from([0, 1, 2, -1]), width: 2, height: 2 });
    const scaled = await decodeMask(await png([0, 1, 2, 0], 2, 2), classOfValue, {
      width: 4,
      height: 2,
    });
    expect([...scaled.classes]).toEqual([0, 0, 1, 1, 2, 2, 0, 0]);
  });
});

describe('maskConfusion and its statistics', () => {
  // 4×2, classes bg 0, road 1, car 2; 9 is no class.
  const truth = [0, 0, 1, 1, 0, 2, 2, 9];
  const pred = [0, 1, 1, 1, 0, 2, 0, 1];

  it('counts truth × prediction per pixel, leaving out pixels of no class', async () => {
    const classOfValue = classOfPixelValue(['bg', 'road', 'car'], null);
    const c = await maskConfusion(await png(truth, 4, 2), await png(pred, 4, 2), classOfValue, 3);
    // Pixels: (0,0) (0,1) (1,1) (1,1) (0,0) (2,2) (2,0), and the last left out.
    expect([...c]).toEqual([2, 1, 0, 0, 2, 0, 1, 0, 1]);
    // bg: I 2, U row 3 + col 3 − 2 = 4; road: I 2, U 2 + 3 − 2 = 3; car: I 1, U 2 + 1 − 1 = 2.
    const stats = maskStatsOf(c, 3);
    expect(stats).toEqual({
      counts: [
        [0, 2, 4],
        [1, 2, 3],
        [2, 1, 2],
      ],
    });
    const scores = maskScores(stats);
    expect(scores.iou).toBeCloseTo((2 / 4 + 2 / 3 + 1 / 2) / 3, 12);
    expect(scores.pixel_accuracy).toBeCloseTo(5 / 7, 12);
  });

  it('scales a prediction of another size to the truth', async () => {
    const classOfValue = classOfPixelValue(['bg', 'fg'], null);
    // Truth 4×1 [0 0 1 1]; prediction 2×1 [0 1] → [0 0 1 1].
    const c = await maskConfusion(
      await png([0, 0, 1, 1], 4, 1),
      await png([0, 1], 2, 1),
      classOfValue,
      2,
    );
    expect([...c]).toEqual([2, 0, 0, 2]);
    expect(maskScores(maskStatsOf(c, 2))).toEqual({ iou: 1, pixel_accuracy: 1 });
  });

  it('leaves out classes in neither mask, and has no scores without pixels', () => {
    expect(maskStatsOf(Float64Array.from([0, 0, 0, 0, 3, 0, 0, 1, 0]), 3)).toEqual({
      counts: [
        [1, 3, 4],
        [2, 0, 1],
      ],
    });
    expect(maskScores({ counts: [] })).toEqual({ iou: null, pixel_accuracy: null });
    expect(maskScores({ error: 'unreadable' })).toEqual({ iou: null, pixel_accuracy: null });
  });

  it('equals a naive per-class count on random masks', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const K = 5;
    const classOfValue = classOfPixelValue(['a', 'b', 'c', 'd', 'e'], null);
    for (let round = 0; round < 5; round++) {
      const w = 13;
      const h = 7;
      // Values 0..5: 5 is no class.
      const t = Array.from({ length: w * h }, () => Math.floor(random() * 6));
      const p = Array.from({ length: w * h }, () => Math.floor(random() * 6));
      const stats = maskStatsOf(
        await maskConfusion(await png(t, w, h), await png(p, w, h), classOfValue, K),
        K,
      );
      const expected: [number, number, number][] = [];
      let correct = 0;
      let counted = 0;
      for (let k = 0; k < K; k++) {
        let inter = 0;
        let union = 0;
        for (let i = 0; i < t.length; i++) {
          if (t[i]! >= K || p[i]! >= K) continue;
          if (t[i] === k && p[i] === k) inter++;
          if (t[i] === k || p[i] === k) union++;
        }
        if (union > 0) expected.push([k, inter, union]);
      }
      for (let i = 0; i < t.length; i++) {
        if (t[i]! >= K || p[i]! >= K) continue;
        counted++;
        if (t[i] === p[i]) correct++;
      }
      expect(stats).toEqual({ counts: expected });
      const scores = maskScores(stats);
      expect(scores.iou).toBeCloseTo(
        expected.reduce((sum, [, i, u]) => sum + i / u, 0) / expected.length,
        12,
      );
      expect(scores.pixel_accuracy).toBeCloseTo(correct / counted, 12);
    }
  });
});
