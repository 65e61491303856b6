// Parses the points answer ('id|x|y|colorKey', dataset-side.md §3) into typed arrays the scatter
// draws, with coordinates fitted into WebGL's [-1, 1] square keeping the aspect ratio.

export interface ParsedPoints {
  ids: string[];
  /** Fitted coordinates, within [-FIT, FIT]. */
  x: Float32Array;
  y: Float32Array;
  colorKeys: string[];
  /** Lines that could not be read (skipped). */
  invalid: number;
}

/** Leaves a margin so edge points are not cut by the canvas border. */
export const FIT = 0.9;

export interface RawPoint {
  id: string;
  x: number;
  y: number;
  colorKey: string;
}

/**
 * Reads one point. Item ids may contain '|', colour keys (a category key or a number) may not, so
 * the line is read from the right.
 */
export function parsePoint(line: string): RawPoint | null {
  const keyAt = line.lastIndexOf('|');
  if (keyAt < 0) return null;
  const yAt = line.lastIndexOf('|', keyAt - 1);
  if (yAt < 0) return null;
  const xAt = line.lastIndexOf('|', yAt - 1);
  if (xAt <= 0) return null;
  const xText = line.slice(xAt + 1, yAt);
  const yText = line.slice(yAt + 1, keyAt);
  if (xText.trim() === '' || yText.trim() === '') return null;
  const x = Number(xText);
  const y = Number(yText);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  return { id: line.slice(0, xAt), x, y, colorKey: line.slice(keyAt + 1) };
}

export function parsePoints(lines: readonly string[]): ParsedPoints {
  const raw: RawPoint[] = [];
  for (const line of lines) {
    const point = parsePoint(line);
    if (point) raw.push(point);
  }
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const point of raw) {
    minX = Math.min(minX, point.x);
    maxX = Math.max(maxX, point.x);
    minY = Math.min(minY, point.y);
    maxY = Math.max(maxY, point.y);
  }
  const centerX = (minX + maxX) / 2;
  const centerY = (minY + maxY) / 2;
  const extent = Math.max(maxX - minX, maxY - minY);
  // One point, or all on one spot: put them in the middle.
  const factor = extent > 0 ? (2 * FIT) / extent : 0;
  const x = new Float32Array(raw.length);
  const y = new Float32Array(raw.length);
  raw.forEach((point, i) => {
    x[i] = (point.x - centerX) * factor;
    y[i] = (point.y - centerY) * factor;
  });
  return {
    ids: raw.map((point) => point.id),
    x,
    y,
    colorKeys: raw.map((point) => point.colorKey),
    invalid: lines.length - raw.length,
  };
}
