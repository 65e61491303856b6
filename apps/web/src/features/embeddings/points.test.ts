import { encodeIndices } from '@loupe/contracts';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { buildColorScheme } from './legend';
import {
  decodeBinaryPoints,
  FIT,
  fitCoordinates,
  MISSING_CODE,
  paletteIndices,
  type DecodedPoints,
} from './points';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** The server's binary answer, written byte by byte in little-endian order. */
function binary(
  rows: number[],
  xy: number[],
  colors: { codes: number[] } | { values: number[] } | null,
  version = 7,
) {
  const xyBytes = new DataView(new ArrayBuffer(xy.length * 4));
  xy.forEach((v, i) => xyBytes.setFloat32(i * 4, v, true));
  let colorBytes: Uint8Array | null = null;
  if (colors && 'codes' in colors) {
    const view = new DataView(new ArrayBuffer(colors.codes.length * 2));
    colors.codes.forEach((v, i) => view.setUint16(i * 2, v, true));
    colorBytes = new Uint8Array(view.buffer);
  } else if (colors) {
    const view = new DataView(new ArrayBuffer(colors.values.length * 4));
    colors.values.forEach((v, i) => view.setFloat32(i * 4, v, true));
    colorBytes = new Uint8Array(view.buffer);
  }
  return {
    rows: base64(encodeIndices(Uint32Array.from(rows), { version, format: 'u32' })),
    xy: base64(new Uint8Array(xyBytes.buffer)),
    colors: colorBytes ? base64(colorBytes) : null,
  };
}

test('reads rows, version, coordinates and category codes of the binary answer', () => {
  const points = decodeBinaryPoints(
    binary([40, 3, 17], [10, 100, 30, 100, 20, 105], { codes: [2, MISSING_CODE, 0] }),
    'categorical',
  );
  expect([...points.rows]).toEqual([40, 3, 17]);
  expect(points.version).toBe(7);
  expect(points.colors).toEqual({ kind: 'codes', codes: Uint16Array.from([2, 65535, 0]) });
  // Width 20 is the larger extent: x spans the full fit, y a quarter of it, centred.
  expect([...points.x]).toEqual([-FIT, FIT, 0].map(Math.fround));
  expect(points.y[0]).toBeCloseTo(-FIT / 4);
  expect(points.y[2]).toBeCloseTo(FIT / 4);
});

test('continuous colours are float32 values; no colour_by means no colours', () => {
  const continuous = decodeBinaryPoints(
    binary([0, 1], [0, 0, 1, 1], { values: [0.25, NaN] }),
    'continuous',
  );
  expect(continuous.colors?.kind).toBe('values');
  const values = (continuous.colors as { values: Float32Array }).values;
  expect(values[0]).toBe(0.25);
  expect(Number.isNaN(values[1])).toBe(true);
  expect(decodeBinaryPoints(binary([0], [5, 5], null), null).colors).toBeNull();
});

test('a single point, or points on one spot, sit in the middle', () => {
  const one = fitCoordinates(Float32Array.from([5, 5]));
  expect([one.x[0], one.y[0]]).toEqual([0, 0]);
});

test('an answer whose arrays disagree in length is refused', () => {
  expect(() => decodeBinaryPoints(binary([0, 1], [0, 0], null), null)).toThrow(/2 rows but 1/);
  expect(() =>
    decodeBinaryPoints(binary([0, 1], [0, 0, 1, 1], { codes: [1] }), 'categorical'),
  ).toThrow(/2 rows but 1 colours/);
});

test('any points keep their rows and fit within the square', () => {
  const coord = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), coord, coord), {
        minLength: 1,
        maxLength: 50,
      }),
      (points) => {
        const decoded = decodeBinaryPoints(
          binary(
            points.map(([row]) => row),
            points.flatMap(([, x, y]) => [x, y]),
            null,
          ),
          null,
        );
        expect([...decoded.rows]).toEqual(points.map(([row]) => row));
        for (let i = 0; i < points.length; i++) {
          expect(Math.abs(decoded.x[i]!)).toBeLessThanOrEqual(FIT + 1e-6);
          expect(Math.abs(decoded.y[i]!)).toBeLessThanOrEqual(FIT + 1e-6);
        }
      },
    ),
  );
});

test('palette indices follow the legend: categories by key, values by step, missing last', () => {
  const colors = { neutral: '#111111', missing: '#999999' };
  const categorical = buildColorScheme(
    {
      type: 'categorical',
      // Only the codes present are in the legend, in code order: 2 and 5.
      categories: [
        { key: '2', label: 'dog', color: '#ff0000' },
        { key: '5', label: 'cat', color: '#00ff00' },
      ],
    },
    colors,
  );
  const points = (colors: DecodedPoints['colors']): DecodedPoints => ({
    rows: Uint32Array.from([0, 1, 2]),
    version: 1,
    x: new Float32Array(3),
    y: new Float32Array(3),
    colors,
  });
  expect([
    ...paletteIndices(
      points({ kind: 'codes', codes: Uint16Array.from([5, MISSING_CODE, 2]) }),
      categorical,
    ),
  ]).toEqual([1, 2, 0]);
  const continuous = buildColorScheme({ type: 'continuous', min: 0, max: 1 }, colors);
  const steps = paletteIndices(
    points({ kind: 'values', values: Float32Array.from([0, 1, NaN]) }),
    continuous,
  );
  expect(steps[0]).toBe(continuous.indexOf('0'));
  expect(steps[1]).toBe(continuous.indexOf('1'));
  expect(steps[2]).toBe(continuous.missingIndex);
  const none = buildColorScheme(null, colors);
  expect([...paletteIndices(points(null), none)]).toEqual([0, 0, 0]);
});
