import fc from 'fast-check';
import { expect, test } from 'vitest';
import { FIT, parsePoint, parsePoints } from './points';

test('reads id|x|y|colorKey, with an empty colour key for a missing value', () => {
  expect(parsePoint('cat-1|0.5|-2|3')).toEqual({ id: 'cat-1', x: 0.5, y: -2, colorKey: '3' });
  expect(parsePoint('a|1|2|')).toEqual({ id: 'a', x: 1, y: 2, colorKey: '' });
  expect(parsePoint('a|1e3|-4.5e-2|7.25')).toEqual({
    id: 'a',
    x: 1000,
    y: -0.045,
    colorKey: '7.25',
  });
});

test('ids may contain the separator', () => {
  expect(parsePoint('s3|a|b.jpg|1|2|k')).toEqual({ id: 's3|a|b.jpg', x: 1, y: 2, colorKey: 'k' });
});

test('malformed lines are skipped and counted', () => {
  for (const line of [
    '',
    'a',
    'a|1|2',
    '|1|2|k',
    'a|x|2|k',
    'a||2|k',
    'a|1|NaN|k',
    'a|Infinity|1|',
  ])
    expect(parsePoint(line)).toBeNull();
  const parsed = parsePoints(['a|0|0|', 'bad', 'b|1|1|']);
  expect(parsed.ids).toEqual(['a', 'b']);
  expect(parsed.invalid).toBe(1);
});

test('coordinates are fitted into [-0.9, 0.9] keeping the aspect ratio and centre', () => {
  const parsed = parsePoints(['a|10|100|', 'b|30|100|', 'c|20|105|']);
  // Width 20 is the larger extent: x spans the full fit, y a quarter of it, centred.
  expect([...parsed.x]).toEqual([-FIT, FIT, 0].map(Math.fround));
  expect(parsed.y[0]).toBeCloseTo(-FIT / 4);
  expect(parsed.y[2]).toBeCloseTo(FIT / 4);
});

test('a single point, or points on one spot, sit in the middle', () => {
  const one = parsePoints(['a|5|5|']);
  expect([one.x[0], one.y[0]]).toEqual([0, 0]);
});

test('any points round-trip their ids and keys and fit within the square', () => {
  const id = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\n'));
  const key = fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 300 }).map(String));
  const coord = fc.double({ min: -1e6, max: 1e6, noNaN: true });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(id, coord, coord, key), { minLength: 1, maxLength: 50 }),
      (rows) => {
        const parsed = parsePoints(rows.map(([i, x, y, k]) => `${i}|${x}|${y}|${k}`));
        expect(parsed.ids).toEqual(rows.map(([i]) => i));
        expect(parsed.colorKeys).toEqual(rows.map(([, , , k]) => k));
        for (let i = 0; i < rows.length; i++) {
          expect(Math.abs(parsed.x[i]!)).toBeLessThanOrEqual(FIT + 1e-6);
          expect(Math.abs(parsed.y[i]!)).toBeLessThanOrEqual(FIT + 1e-6);
        }
      },
    ),
  );
});
