import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spectralCentroid } from './audio-statistics.js';
import { createRandom } from './random.js';
import { syntheticImage, syntheticTone } from './synthetic.js';

describe('createRandom', () => {
  it('repeats for a seed and stays in range', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const a = createRandom(seed);
        const b = createRandom(seed);
        for (let i = 0; i < 20; i++) {
          const v = a.next();
          expect(v).toBe(b.next());
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThan(1);
          const n = a.int(-3, 3);
          expect(n).toBe(b.int(-3, 3));
          expect(Number.isInteger(n) && n >= -3 && n <= 3).toBe(true);
        }
      }),
    );
  });

  it('draws normals with mean about 0 and variance about 1', () => {
    const random = createRandom(42);
    const values = Array.from({ length: 20000 }, () => random.normal());
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(variance - 1)).toBeLessThan(0.05);
  });
});

describe('syntheticImage', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = syntheticImage(5, 64, 48);
    expect(syntheticImage(5, 64, 48)).toEqual(a);
    expect(syntheticImage(6, 64, 48).data).not.toEqual(a.data);
    expect(a.data).toHaveLength(64 * 48 * 3);
  });

  it('returns boxes inside the image whose shapes are drawn where the boxes say', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 16, max: 80 }),
        fc.integer({ min: 16, max: 80 }),
        (seed, w, h) => {
          const labels = ['a', 'b', 'c'];
          const img = syntheticImage(seed, w, h, {
            labels,
            minObjects: 1,
            maxObjects: 3,
            noise: 0,
          });
          expect(img.objects.length).toBeGreaterThanOrEqual(1);
          expect(img.objects.length).toBeLessThanOrEqual(3);
          for (const { bbox, label, shape } of img.objects) {
            const [x, y, bw, bh] = bbox;
            expect(x >= 0 && y >= 0 && x + bw <= w && y + bh <= h && bw > 0 && bh > 0).toBe(true);
            expect(labels).toContain(label);
            expect(shape).toBe(labels.indexOf(label) % 2 === 0 ? 'rectangle' : 'circle');
          }
          // The last shape is on top: its centre pixel has its class's colour, so another image's
          // shape of the same class at the same spot would match it.
          const last = img.objects.at(-1)!;
          const cx = Math.floor(last.bbox[0] + last.bbox[2] / 2);
          const cy = Math.floor(last.bbox[1] + last.bbox[3] / 2);
          const p = (cy * w + cx) * 3;
          const pixel = [...img.data.subarray(p, p + 3)];
          // Class colours are saturated (HSV saturation 0.85), the background is grey.
          expect(Math.max(...pixel) - Math.min(...pixel)).toBeGreaterThan(150);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('gives each class its own colour', () => {
    const colorBySeenLabel = new Map<string, string>();
    for (let seed = 0; seed < 20; seed++) {
      const img = syntheticImage(seed, 40, 40, {
        labels: ['a', 'b', 'c', 'd'],
        minObjects: 1,
        maxObjects: 1,
        noise: 0,
      });
      const { label, bbox } = img.objects[0]!;
      const [x, y, w, h] = bbox;
      const p = ((y + Math.floor(h / 2)) * 40 + x + Math.floor(w / 2)) * 3;
      const color = [...img.data.subarray(p, p + 3)].join(',');
      if (colorBySeenLabel.has(label)) expect(colorBySeenLabel.get(label)).toBe(color);
      colorBySeenLabel.set(label, color);
    }
    expect(colorBySeenLabel.size).toBeGreaterThan(2);
    expect(new Set(colorBySeenLabel.values()).size).toBe(colorBySeenLabel.size);
  });

  it('rejects sizes it cannot draw in', () => {
    expect(() => syntheticImage(1, 4, 40)).toThrow(/at least 8×8/);
    expect(() => syntheticImage(1, 40, 40, { labels: [] })).toThrow(/at least one label/);
  });
});

describe('syntheticTone', () => {
  it('is deterministic, has the requested length and stays within full scale', () => {
    const a = syntheticTone(3, 16000, 0.5);
    expect(a).toEqual(syntheticTone(3, 16000, 0.5));
    expect(a).not.toEqual(syntheticTone(4, 16000, 0.5));
    expect(a).toHaveLength(8000);
    expect(a.every((v) => Math.abs(v) < 1)).toBe(true);
  });

  it('puts higher classes at higher pitches (roots a fourth apart)', () => {
    const centroids = [0, 2, 4].map((classIndex) =>
      spectralCentroid(syntheticTone(1, 16000, 0.5, { classIndex, noise: 0 }), 16000),
    );
    // Root 220·2^(5k/12); the chord's centroid is about 1.25× the root.
    expect(centroids[0]).toBeGreaterThan(220);
    expect(centroids[0]).toBeLessThan(330);
    expect(centroids[1]).toBeGreaterThan(centroids[0]! * 1.5);
    expect(centroids[2]).toBeGreaterThan(centroids[1]! * 1.5);
  });
});
