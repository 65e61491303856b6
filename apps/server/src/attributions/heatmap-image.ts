// A heatmap given as rows of numbers, drawn as RGBA pixels on the jet colour scale (blue for the
// grid's minimum, red for its maximum, the usual look of saliency maps); a value that is not a
// finite number is transparent. Also turns an uploaded heatmap image into a PNG.
import sharp from 'sharp';

/** Jet: position on the scale, then red, green, blue. */
const STOPS: readonly (readonly [number, number, number, number])[] = [
  [0, 0, 0, 128],
  [0.125, 0, 0, 255],
  [0.375, 0, 255, 255],
  [0.625, 255, 255, 0],
  [0.875, 255, 0, 0],
  [1, 128, 0, 0],
];

/** The colour of t in [0, 1] on the scale. */
export function jet(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t));
  let i = 1;
  while (i < STOPS.length - 1 && STOPS[i]![0] < x) i++;
  const [p0, r0, g0, b0] = STOPS[i - 1]!;
  const [p1, r1, g1, b1] = STOPS[i]!;
  const f = (x - p0) / (p1 - p0);
  return [
    Math.round(r0 + (r1 - r0) * f),
    Math.round(g0 + (g1 - g0) * f),
    Math.round(b0 + (b1 - b0) * f),
  ];
}

export interface HeatmapPixels {
  width: number;
  height: number;
  /** width × height × 4 bytes, row by row. */
  rgba: Uint8Array;
}

/**
 * Rows of numbers as pixels: one pixel per value, the rows as long as the longest (shorter rows
 * end transparent). A grid of one value throughout is drawn at the scale's bottom.
 */
export function heatmapPixels(rows: readonly (readonly number[])[]): HeatmapPixels {
  const height = Math.max(1, rows.length);
  const width = Math.max(1, ...rows.map((row) => row.length));
  let min = Infinity;
  let max = -Infinity;
  for (const row of rows)
    for (const v of row)
      if (Number.isFinite(v)) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
  const span = max > min ? max - min : 1;
  const rgba = new Uint8Array(width * height * 4);
  rows.forEach((row, y) => {
    row.forEach((v, x) => {
      if (!Number.isFinite(v)) return;
      const [r, g, b] = jet((v - min) / span);
      const at = (y * width + x) * 4;
      rgba[at] = r;
      rgba[at + 1] = g;
      rgba[at + 2] = b;
      rgba[at + 3] = 255;
    });
  });
  return { width, height, rgba };
}

export function heatmapPng(rows: readonly (readonly number[])[]): Promise<Buffer> {
  const { width, height, rgba } = heatmapPixels(rows);
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** An uploaded heatmap image as a PNG (whatever format it came in; throws when not an image). */
export function imageAsPng(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).png().toBuffer();
}
