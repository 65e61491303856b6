import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMAGE_DESCRIPTOR_DIMENSION, imageDescriptor } from './image-descriptor.js';
import { aspectRatio, imageStatistics } from './image-statistics.js';
import { analyzeImage } from './media.js';
import { hammingDistance, perceptualHash } from './perceptual-hash.js';
import { luma, resizeArea, resizeAreaChannels, type RawImage } from './raster.js';
import { createRandom } from './random.js';
import { syntheticImage } from './synthetic.js';

function image(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  pixel: (x: number, y: number) => number[],
): RawImage {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * channels);
  }
  return { data, width, height, channels };
}

function brighten(img: RawImage, amount: number): RawImage {
  return { ...img, data: Uint8Array.from(img.data, (v) => Math.min(255, v + amount)) };
}

/** Halves an RGB image by averaging 2×2 blocks (test-side reference, independent of resizeArea). */
function halve(img: RawImage): RawImage {
  const w = img.width / 2;
  const h = img.height / 2;
  const c = img.channels;
  const data = new Uint8Array(w * h * c);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let k = 0; k < c; k++) {
        const at = (yy: number, xx: number) => img.data[(yy * img.width + xx) * c + k]!;
        data[(y * w + x) * c + k] = Math.round(
          (at(2 * y, 2 * x) +
            at(2 * y, 2 * x + 1) +
            at(2 * y + 1, 2 * x) +
            at(2 * y + 1, 2 * x + 1)) /
            4,
        );
      }
    }
  }
  return { data, width: w, height: h, channels: c };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function noiseImage(seed: number, width: number, height: number): RawImage {
  const random = createRandom(seed);
  return image(width, height, 3, () => [
    random.int(0, 255),
    random.int(0, 255),
    random.int(0, 255),
  ]);
}

describe('luma and resizeArea', () => {
  it('weights R, G and B by Rec. 601 and passes grey through', () => {
    const rgb = luma(
      image(3, 1, 3, (x) => [x === 0 ? 255 : 0, x === 1 ? 255 : 0, x === 2 ? 255 : 0]),
    );
    expect(rgb[0]).toBeCloseTo(76.245, 3);
    expect(rgb[1]).toBeCloseTo(149.685, 3);
    expect(rgb[2]).toBeCloseTo(29.07, 3);
    expect([...luma(image(2, 1, 1, (x) => [x * 100]))]).toEqual([0, 100]);
  });

  it('averages whole blocks when shrinking by an integer factor', () => {
    // 4×2 grey: rows [0 2 4 6] and [8 10 12 14] → 2×1: [(0+2+8+10)/4, (4+6+12+14)/4] = [5, 9]
    const src = [0, 2, 4, 6, 8, 10, 12, 14];
    expect([...resizeArea(src, 4, 2, 1, 0, 2, 1)]).toEqual([5, 9]);
  });

  it('equals the overlap-weighted average of source pixels, for any sizes and channels', () => {
    // Reference straight from the definition: output cell (i, j) covers [i·sx, (i+1)·sx) ×
    // [j·sy, (j+1)·sy) of the source; each source pixel counts by the area it shares with it.
    const overlap = (a0: number, a1: number, b0: number, b1: number) =>
      Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 1000 }),
        (w, h, ow, oh, seed) => {
          const random = createRandom(seed);
          const data = Uint8Array.from({ length: w * h * 4 }, () => random.int(0, 255));
          const planes = resizeAreaChannels(data, w, h, 4, [0, 1, 2], ow, oh);
          const sx = w / ow;
          const sy = h / oh;
          for (let c = 0; c < 3; c++) {
            expect([...resizeArea(data, w, h, 4, c, ow, oh)]).toEqual([...planes[c]!]);
            for (let j = 0; j < oh; j++) {
              for (let i = 0; i < ow; i++) {
                let sum = 0;
                for (let y = 0; y < h; y++) {
                  for (let x = 0; x < w; x++) {
                    const area =
                      overlap(x, x + 1, i * sx, (i + 1) * sx) *
                      overlap(y, y + 1, j * sy, (j + 1) * sy);
                    sum += area * data[(y * w + x) * 4 + c]!;
                  }
                }
                expect(planes[c]![j * ow + i]).toBeCloseTo(sum / (sx * sy), 3);
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps the mean and constant images under any resize', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 255 }),
        (w, h, ow, oh, value) => {
          const out = resizeArea(new Array(w * h).fill(value), w, h, 1, 0, ow, oh);
          for (const v of out) expect(v).toBeCloseTo(value, 3);
        },
      ),
    );
  });
});

describe('imageStatistics', () => {
  it('gives zeros for a black image and the right size and aspect ratio', () => {
    const s = imageStatistics(image(8, 4, 3, () => [0, 0, 0]));
    expect(s).toMatchObject({
      width: 8,
      height: 4,
      aspect_ratio: 2,
      brightness: 0,
      contrast: 0,
      sharpness: 0,
      colorfulness: 0,
    });
  });

  it('measures a half-black half-white image as brightness 0.5 and contrast 0.5', () => {
    const s = imageStatistics(image(10, 10, 1, (x) => [x < 5 ? 0 : 255]));
    expect(s.brightness).toBeCloseTo(0.5, 6);
    expect(s.contrast).toBeCloseTo(0.5, 6);
  });

  it('gives a 0/255 checkerboard a Laplacian variance of 1020²', () => {
    // Every interior pixel differs from its 4 neighbours by ±255: Laplacian ±1020, mean 0.
    const s = imageStatistics(image(6, 6, 1, (x, y) => [(x + y) % 2 === 0 ? 255 : 0]));
    expect(s.sharpness).toBeCloseTo(1020 * 1020, 0);
  });

  it('finds a blurred copy less sharp than the original', () => {
    const original = syntheticImage(7, 64, 48);
    const blurred = { ...original, data: Uint8Array.from(original.data) };
    for (let y = 1; y < 47; y++) {
      for (let x = 1; x < 63; x++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++)
              sum += original.data[((y + dy) * 64 + x + dx) * 3 + c]!;
          }
          blurred.data[(y * 64 + x) * 3 + c] = Math.round(sum / 9);
        }
      }
    }
    expect(imageStatistics(blurred).sharpness).toBeLessThan(
      imageStatistics(original).sharpness / 2,
    );
  });

  it('computes Hasler–Süsstrunk colourfulness: 0.3·√(255² + 127.5²) for pure red, 0 for grey', () => {
    expect(imageStatistics(image(4, 4, 3, () => [255, 0, 0])).colorfulness).toBeCloseTo(
      0.3 * Math.hypot(255, 127.5),
      6,
    );
    expect(imageStatistics(image(4, 4, 3, () => [90, 90, 90])).colorfulness).toBe(0);
    expect(imageStatistics(image(4, 4, 1, () => [90])).colorfulness).toBe(0);
  });

  it('ignores alpha', () => {
    const opaque = syntheticImage(3, 20, 20);
    const rgba = (alpha: number) =>
      image(20, 20, 4, (x, y) => [
        ...opaque.data.subarray((y * 20 + x) * 3, (y * 20 + x) * 3 + 3),
        alpha,
      ]);
    expect(imageStatistics(rgba(0))).toEqual(imageStatistics(rgba(255)));
    expect(imageStatistics(rgba(255))).toEqual(imageStatistics(opaque));
  });

  it('treats a grey image and its RGB copy alike', () => {
    const grey = image(30, 20, 1, (x, y) => [(x * 7 + y * 13) % 256]);
    const rgb = image(30, 20, 3, (x, y) => Array(3).fill((x * 7 + y * 13) % 256));
    const a = imageStatistics(grey);
    const b = imageStatistics(rgb);
    for (const key of ['brightness', 'contrast', 'sharpness', 'colorfulness'] as const) {
      expect(a[key]).toBeCloseTo(b[key], 6);
    }
    expect(hammingDistance(perceptualHash(grey), perceptualHash(rgb))).toBe(0);
  });

  it('rejects a buffer that does not match the size, and bad aspect ratios', () => {
    expect(() =>
      imageStatistics({ data: new Uint8Array(5), width: 2, height: 1, channels: 3 }),
    ).toThrow(/expected 2×1×3 = 6/);
    expect(aspectRatio(640, 480)).toBeCloseTo(4 / 3, 12);
    expect(() => aspectRatio(640, 0)).toThrow(/height > 0/);
  });
});

describe('perceptualHash and hammingDistance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('0000000000000000', '8000000000000001')).toBe(2);
    expect(hammingDistance('0123456789abcdef', '0123456789ABCDEF')).toBe(0);
    expect(() => hammingDistance('123', '0000000000000000')).toThrow(/16 hexadecimal digits/);
  });

  it('is 16 hex digits with half the bits set, and the same for identical images', () => {
    const img = syntheticImage(1, 120, 90);
    const hash = perceptualHash(img);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    // The median threshold sets exactly 32 of 64 bits when the coefficients are distinct.
    expect(hammingDistance(hash, '0000000000000000')).toBe(32);
    expect(hammingDistance(hash, perceptualHash({ ...img, data: Uint8Array.from(img.data) }))).toBe(
      0,
    );
  });

  it('stays within 6 bits for brightened and rescaled copies', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const img = syntheticImage(seed, 160, 120);
      const hash = perceptualHash(img);
      expect(hammingDistance(hash, perceptualHash(brighten(img, 20)))).toBeLessThanOrEqual(6);
      expect(hammingDistance(hash, perceptualHash(halve(img)))).toBeLessThanOrEqual(6);
      // 0.7× with a resampler checked against its definition above.
      const [r, g, b] = resizeAreaChannels(img.data, 160, 120, 3, [0, 1, 2], 112, 84);
      const smaller = image(112, 84, 3, (x, y) =>
        [r!, g!, b!].map((plane) => Math.round(plane[y * 112 + x]!)),
      );
      expect(hammingDistance(hash, perceptualHash(smaller))).toBeLessThanOrEqual(6);
    }
  });

  it('is far apart (≥ 20 bits on average) for unrelated images', () => {
    const hashes = Array.from({ length: 8 }, (_, i) =>
      perceptualHash(syntheticImage(100 + i, 96, 72)),
    );
    const noise = Array.from({ length: 4 }, (_, i) => perceptualHash(noiseImage(i, 32, 32)));
    for (const group of [hashes, noise]) {
      let total = 0;
      let pairs = 0;
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          total += hammingDistance(group[i]!, group[j]!);
          pairs++;
        }
      }
      expect(total / pairs).toBeGreaterThanOrEqual(20);
    }
  });
});

describe('imageDescriptor', () => {
  const finiteUnit = (v: Float32Array) => {
    expect(v).toHaveLength(IMAGE_DESCRIPTOR_DIMENSION);
    expect(v.every(Number.isFinite)).toBe(true);
    expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
  };

  it('is a finite unit vector, also for constant, grey, tiny and RGBA images', () => {
    finiteUnit(imageDescriptor(syntheticImage(1, 320, 240)));
    finiteUnit(imageDescriptor(image(10, 10, 3, () => [0, 0, 0])));
    finiteUnit(imageDescriptor(image(10, 10, 3, () => [200, 30, 30])));
    finiteUnit(imageDescriptor(image(1, 1, 1, () => [128])));
    finiteUnit(imageDescriptor(image(7, 3, 4, (x) => [x * 30, 0, 0, 9])));
  });

  it('puts near-copies closer than unrelated images', () => {
    const images = Array.from({ length: 6 }, (_, i) => syntheticImage(i + 1, 120, 90));
    const descriptors = images.map(imageDescriptor);
    images.forEach((img, i) => {
      const d = descriptors[i]!;
      const nearest = Math.min(
        dot(d, imageDescriptor(brighten(img, 15))),
        dot(d, imageDescriptor(halve(img))),
      );
      descriptors.forEach((other, j) => {
        if (j !== i) expect(nearest).toBeGreaterThan(dot(d, other));
      });
    });
  });

  it('tells colours apart for flat images', () => {
    const red = imageDescriptor(image(8, 8, 3, () => [220, 20, 20]));
    const darkRed = imageDescriptor(image(8, 8, 3, () => [200, 25, 20]));
    const blue = imageDescriptor(image(8, 8, 3, () => [20, 20, 220]));
    expect(dot(red, darkRed)).toBeGreaterThan(dot(red, blue));
  });
});

describe('analyzeImage', () => {
  it('reads Uint8ClampedArray pixels (canvas ImageData) like Uint8Array', () => {
    const img = syntheticImage(10, 48, 32);
    const clamped = analyzeImage({ ...img, data: new Uint8ClampedArray(img.data) });
    expect(clamped.statistics).toEqual(imageStatistics(img));
    expect(clamped.phash).toBe(perceptualHash(img));
  });

  it('agrees with the separate functions', () => {
    const img = syntheticImage(9, 64, 48);
    const analysis = analyzeImage(img);
    expect(analysis.statistics).toEqual(imageStatistics(img));
    expect(analysis.phash).toBe(perceptualHash(img));
    expect([...analysis.descriptor]).toEqual([...imageDescriptor(img)]);
  });
});
