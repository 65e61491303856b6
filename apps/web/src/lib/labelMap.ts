// Semantic-segmentation label maps (one class index per pixel) turned into coloured overlays:
// which classes an item shows, how much of the picture each covers, and the RGBA pixels of the
// visible ones: filled, outlined, or both.
// Pure, so grid cards and the item viewer paint the same way and tests need no canvas.

export interface LabelMapPixels {
  width: number;
  height: number;
  /** Row-major pixel values (the label map's first channel). */
  values: Uint8Array;
}

export type Rgb = readonly [number, number, number];

/** Whether a label-map value is drawn at all: 0, values the map does not name and 'background' are not. */
export function paintedClass(labelMap: Record<string, string>, value: number): string | null {
  if (value === 0) return null;
  const name = labelMap[String(value)];
  return name && name !== 'background' ? name : null;
}

/** Pixels per value, for the values that occur. */
export function labelMapCounts(pixels: LabelMapPixels): Map<number, number> {
  const counts = new Uint32Array(256);
  for (const value of pixels.values) counts[value]!++;
  const out = new Map<number, number>();
  counts.forEach((count, value) => {
    if (count > 0) out.set(value, count);
  });
  return out;
}

/** The drawn classes of a label map with the share of the picture each covers (0..1). */
export function labelMapClasses(
  pixels: LabelMapPixels,
  labelMap: Record<string, string>,
): Map<string, number> {
  const total = Math.max(1, pixels.width * pixels.height);
  const out = new Map<string, number>();
  for (const [value, count] of labelMapCounts(pixels)) {
    const name = paintedClass(labelMap, value);
    if (name) out.set(name, (out.get(name) ?? 0) + count / total);
  }
  return out;
}

/** #rgb, #rrggbb or rgb()/rgba() as RGB; null for anything else (the caller resolves it). */
export function parseRgb(color: string): Rgb | null {
  const text = color.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text);
  if (hex) {
    const digits = hex[1]!;
    const wide =
      digits.length === 3
        ? digits
            .split('')
            .map((d) => d + d)
            .join('')
        : digits;
    return [0, 2, 4].map((i) => parseInt(wide.slice(i, i + 2), 16)) as unknown as Rgb;
  }
  const fn = /^rgba?\(([^)]{1,80})\)$/i.exec(text);
  if (fn) {
    const parts = fn[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .slice(0, 3)
      .map(Number);
    if (parts.length === 3 && parts.every((v) => Number.isFinite(v)))
      return parts.map((v) => Math.min(255, Math.max(0, Math.round(v)))) as unknown as Rgb;
  }
  return null;
}

/**
 * Value → colour of the classes to draw: named, not background and not hidden. Hiding a class
 * leaves it out here, so its pixels stay clear in every overlay painted from the palette.
 */
export function labelMapPalette(
  labelMap: Record<string, string>,
  colorOf: (name: string) => string,
  hidden: ReadonlySet<string>,
  toRgb: (color: string) => Rgb = (color) => parseRgb(color) ?? [128, 128, 128],
): Map<number, Rgb> {
  const out = new Map<number, Rgb>();
  for (const key of Object.keys(labelMap)) {
    const value = Number(key);
    if (!Number.isInteger(value) || value < 0 || value > 255) continue;
    const name = paintedClass(labelMap, value);
    if (name && !hidden.has(name)) out.set(value, toRgb(colorOf(name)));
  }
  return out;
}

export interface PaintOptions {
  /** Width in pixels of the band inside each region's edge drawn opaque; 0 for none. */
  outline?: number;
  /** Opacity (0..1) of the rest of each region: 1 fills it, 0 leaves only the outline. */
  fillAlpha?: number;
}

/**
 * RGBA pixels of the label map in the palette's colours, transparent where the value is not in
 * the palette: regions filled at `fillAlpha`, their edges opaque `outline` pixels wide. Answers
 * the pixels and how many were painted.
 */
export function paintLabelMap(
  pixels: LabelMapPixels,
  palette: ReadonlyMap<number, Rgb>,
  { outline = 0, fillAlpha = 1 }: PaintOptions = {},
): { data: Uint8ClampedArray<ArrayBuffer>; painted: number } {
  const { width, height, values } = pixels;
  const data = new Uint8ClampedArray(new ArrayBuffer(width * height * 4));
  const lookup: (Rgb | undefined)[] = Array.from({ length: 256 }, (_, v) => palette.get(v));
  const band = Math.max(0, Math.floor(outline));
  const fill = Math.round(Math.min(1, Math.max(0, fillAlpha)) * 255);
  let painted = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const value = values[i]!;
      const rgb = lookup[value];
      if (!rgb) continue;
      const alpha = band > 0 && nearEdge(values, width, height, x, y, value, band) ? 255 : fill;
      if (alpha === 0) continue;
      const o = i * 4;
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
      data[o + 3] = alpha;
      painted++;
    }
  }
  return { data, painted };
}

/** Whether a pixel of another value (or the picture's edge) lies within `band` pixels along a row or column. */
function nearEdge(
  values: Uint8Array,
  width: number,
  height: number,
  x: number,
  y: number,
  value: number,
  band: number,
): boolean {
  for (let d = 1; d <= band; d++) {
    if (x - d < 0 || x + d >= width || y - d < 0 || y + d >= height) return true;
    if (
      values[y * width + x - d] !== value ||
      values[y * width + x + d] !== value ||
      values[(y - d) * width + x] !== value ||
      values[(y + d) * width + x] !== value
    )
      return true;
  }
  return false;
}
