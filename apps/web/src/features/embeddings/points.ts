// Decodes the points answer of format 'binary' (docs/api.md "Embedding points") into typed
// arrays the scatter draws: each point's item-table row, its coordinates fitted into WebGL's
// [-1, 1] square keeping the aspect ratio, and its colour as a legend index or a value.
import { decodeIndices, type EmbeddingPointsBinary } from '@loupe/contracts';
import { base64ToBytes } from '../../api/explore';
import type { ColorScheme } from './legend';

/** Leaves a margin so edge points are not cut by the canvas border. */
export const FIT = 0.9;

/** The category code of a point whose categorical colour value is missing. */
export const MISSING_CODE = 65535;

export type PointColors =
  { kind: 'codes'; codes: Uint16Array } | { kind: 'values'; values: Float32Array } | null;

export interface DecodedPoints {
  /** The item-table row of each point (rows of the table of `version`). */
  rows: Uint32Array;
  version: number;
  /** Fitted coordinates, within [-FIT, FIT]. */
  x: Float32Array;
  y: Float32Array;
  colors: PointColors;
}

/** Centres the points and scales the longer extent to [-FIT, FIT] (one spot: the middle). */
export function fitCoordinates(xy: Float32Array): { x: Float32Array; y: Float32Array } {
  const n = xy.length / 2;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const px = xy[2 * i]!;
    const py = xy[2 * i + 1]!;
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
  }
  const centerX = (minX + maxX) / 2;
  const centerY = (minY + maxY) / 2;
  const extent = Math.max(maxX - minX, maxY - minY);
  const factor = extent > 0 ? (2 * FIT) / extent : 0;
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = (xy[2 * i]! - centerX) * factor;
    y[i] = (xy[2 * i + 1]! - centerY) * factor;
  }
  return { x, y };
}

/** Little-endian typed values from base64, whatever the platform's byte order. */
function littleEndian<T extends Float32Array | Uint16Array>(
  text: string,
  size: 2 | 4,
  make: (length: number) => T,
): T {
  const bytes = base64ToBytes(text);
  if (bytes.length % size !== 0) throw new Error('Embedding points: truncated binary array');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = make(bytes.length / size);
  for (let i = 0; i < out.length; i++) {
    out[i] = size === 4 ? view.getFloat32(i * 4, true) : view.getUint16(i * 2, true);
  }
  return out;
}

/**
 * The binary answer's points. `colorKind` is the legend's type: categorical colours are uint16
 * category codes, the legend's keys (MISSING_CODE when missing), continuous ones float32 values
 * (NaN when missing).
 */
export function decodeBinaryPoints(
  binary: EmbeddingPointsBinary,
  colorKind: 'categorical' | 'continuous' | null,
): DecodedPoints {
  const { indices: rows, version } = decodeIndices(base64ToBytes(binary.rows));
  const xy = littleEndian(binary.xy, 4, (n) => new Float32Array(n));
  if (xy.length !== 2 * rows.length) {
    throw new Error(`Embedding points: ${rows.length} rows but ${xy.length / 2} coordinates`);
  }
  let colors: PointColors = null;
  if (binary.colors !== null && colorKind !== null) {
    colors =
      colorKind === 'categorical'
        ? { kind: 'codes', codes: littleEndian(binary.colors, 2, (n) => new Uint16Array(n)) }
        : { kind: 'values', values: littleEndian(binary.colors, 4, (n) => new Float32Array(n)) };
    const count = colors.kind === 'codes' ? colors.codes.length : colors.values.length;
    if (count !== rows.length) {
      throw new Error(`Embedding points: ${rows.length} rows but ${count} colours`);
    }
  }
  return { rows, version, ...fitCoordinates(xy), colors };
}

/** Each point's palette index in `scheme` (categories by their legend key). */
export function paletteIndices(
  points: DecodedPoints,
  scheme: Pick<ColorScheme, 'indexOf' | 'indexOfValue' | 'missingIndex'>,
): Float32Array {
  const n = points.rows.length;
  const out = new Float32Array(n);
  const colors = points.colors;
  if (colors === null) return out.fill(scheme.indexOf(''));
  if (colors.kind === 'values') {
    for (let i = 0; i < n; i++) out[i] = scheme.indexOfValue(colors.values[i]!);
    return out;
  }
  const byCode = new Map<number, number>([[MISSING_CODE, scheme.missingIndex]]);
  for (let i = 0; i < n; i++) {
    const code = colors.codes[i]!;
    let index = byCode.get(code);
    if (index === undefined) {
      index = scheme.indexOf(String(code));
      byCode.set(code, index);
    }
    out[i] = index;
  }
  return out;
}
