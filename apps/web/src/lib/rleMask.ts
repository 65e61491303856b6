// COCO RLE masks drawn as pictures: decoded with @loupe/metrics into RGBA pixels of one colour,
// then into a data URL an SVG <image> can show over the picture (grid cards, the item viewer).
import { decodeMask, rleFromJson } from '@loupe/metrics';

export interface RleJson {
  size: [number, number];
  counts: string | number[];
}

/** RGBA pixels (row-major, w × h) of the mask: the colour where it is set, transparent elsewhere. */
export function rleMaskPixels(
  mask: RleJson,
  rgb: readonly [number, number, number],
): { width: number; height: number; data: Uint8ClampedArray<ArrayBuffer> } {
  const rle = rleFromJson(mask);
  const data = new Uint8ClampedArray(new ArrayBuffer(rle.w * rle.h * 4));
  const bits = decodeMask(rle); // column-major: (y, x) at x * h + y
  for (let x = 0; x < rle.w; x++) {
    for (let y = 0; y < rle.h; y++) {
      if (!bits[x * rle.h + y]) continue;
      const o = (y * rle.w + x) * 4;
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
      data[o + 3] = 255;
    }
  }
  return { width: rle.w, height: rle.h, data };
}

/** A PNG data URL of the mask in any CSS colour, or null when there is no 2-D canvas. */
export function rleMaskDataUrl(mask: RleJson, color: string): string | null {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return null;
  // Resolve any CSS colour to RGB through the canvas itself.
  canvas.width = 1;
  canvas.height = 1;
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
  const { width, height, data } = rleMaskPixels(mask, [r, g, b]);
  canvas.width = width;
  canvas.height = height;
  context.putImageData(new ImageData(data, width, height), 0, 0);
  return canvas.toDataURL();
}

/**
 * The mask as one SVG path in image pixels: a 1-pixel-wide rectangle per run of set pixels in a
 * column (RLE runs are column-major). No canvas needed, and it stays sharp at any size; meant for
 * the small pictures of grid cards, where a mask has at most a few thousand such runs.
 */
export function rleMaskPath(mask: RleJson): string {
  const rle = rleFromJson(mask);
  const h = rle.h;
  const parts: string[] = [];
  let position = 0;
  for (let r = 0; r < rle.counts.length; r++) {
    const length = rle.counts[r]!;
    if (r % 2 === 1) {
      // Set pixels position … position + length − 1, cut where they cross into the next column.
      let from = position;
      const to = position + length;
      while (from < to) {
        const x = Math.floor(from / h);
        const y = from - x * h;
        const run = Math.min(to - from, h - y);
        parts.push(`M${x} ${y}h1v${run}h-1z`);
        from += run;
      }
    }
    position += length;
  }
  return parts.join('');
}
