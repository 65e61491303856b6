import { describe, expect, it } from 'vitest';
import { rleMaskPath, rleMaskPixels } from './rleMask';

describe('rleMaskPixels', () => {
  it('paints the set pixels of a column-major COCO RLE in the colour, the rest transparent', () => {
    // A 3 × 2 image (h = 2, w = 3). Column-major runs: 1 unset, 2 set, 3 unset → (1,0) and (0,1).
    const { width, height, data } = rleMaskPixels(
      { size: [2, 3], counts: [1, 2, 3] },
      [10, 20, 30],
    );
    expect([width, height]).toEqual([3, 2]);
    const set: string[] = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 4;
        if (data[o + 3] === 255) {
          expect([data[o], data[o + 1], data[o + 2]]).toEqual([10, 20, 30]);
          set.push(`${x},${y}`);
        } else expect(data[o + 3]).toBe(0);
      }
    }
    // Column x = 0 holds pixels (0,0) unset, (0,1) set; column x = 1: (1,0) set, (1,1) unset.
    expect(set.sort()).toEqual(['0,1', '1,0']);
  });

  it('reads the compressed string form of counts as well', () => {
    // pycocotools' encoding of the same mask: counts [1, 2, 3] → "123".
    const { data } = rleMaskPixels({ size: [2, 3], counts: '123' }, [1, 2, 3]);
    const alpha = Array.from({ length: 6 }, (_, i) => data[i * 4 + 3]);
    expect(alpha).toEqual([0, 255, 0, 255, 0, 0]);
  });
});

describe('rleMaskPath', () => {
  it('draws one pixel-wide rectangle per set run in each column', () => {
    // h = 2, w = 3; runs: 1 unset, 3 set (0,1), (1,0), (1,1) crossing a column, 2 unset.
    expect(rleMaskPath({ size: [2, 3], counts: [1, 3, 2] })).toBe('M0 1h1v1h-1zM1 0h1v2h-1z');
  });

  it('is empty for an empty mask and covers everything for a full one', () => {
    expect(rleMaskPath({ size: [4, 4], counts: [16] })).toBe('');
    expect(rleMaskPath({ size: [2, 2], counts: [0, 4] })).toBe('M0 0h1v2h-1zM1 0h1v2h-1z');
  });
});
