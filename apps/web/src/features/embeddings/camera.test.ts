import fc from 'fast-check';
import { expect, test } from 'vitest';
import { DISTANCE_MAX, DISTANCE_MIN, canZoomIn, canZoomOut, zoomedDistance } from './camera';

test('zoom in multiplies the distance by 0.7 and zoom out by 1.3', () => {
  expect(zoomedDistance(1, 'in')).toBeCloseTo(0.7);
  expect(zoomedDistance(1, 'out')).toBeCloseTo(1.3);
});

test('the scale stays within 0.5 and 160: distance between 1/160 and 2', () => {
  expect(DISTANCE_MIN).toBeCloseTo(1 / 160);
  expect(DISTANCE_MAX).toBe(2);
  expect(zoomedDistance(1.9, 'out')).toBe(2);
  expect(zoomedDistance(0.007, 'in')).toBe(1 / 160);
});

test('buttons disable exactly at the bounds', () => {
  expect(canZoomOut(1)).toBe(true);
  expect(canZoomIn(1)).toBe(true);
  expect(canZoomOut(2)).toBe(false);
  expect(canZoomIn(1 / 160)).toBe(false);
});

test('pressing zoom in repeatedly reaches the bound and stops there, as does zoom out', () => {
  let distance = 1;
  let presses = 0;
  while (canZoomIn(distance)) {
    distance = zoomedDistance(distance, 'in');
    presses++;
  }
  // 0.7^n <= 1/160 first at n = ceil(ln(160)/ln(1/0.7)) = 15.
  expect(presses).toBe(Math.ceil(Math.log(160) / Math.log(1 / 0.7)));
  expect(distance).toBe(DISTANCE_MIN);
  distance = 1;
  presses = 0;
  while (canZoomOut(distance)) {
    distance = zoomedDistance(distance, 'out');
    presses++;
  }
  expect(presses).toBe(Math.ceil(Math.log(2) / Math.log(1.3)));
  expect(distance).toBe(DISTANCE_MAX);
});

test('any sequence of presses keeps the distance within the bounds', () => {
  fc.assert(
    fc.property(
      fc.double({ min: DISTANCE_MIN, max: DISTANCE_MAX, noNaN: true }),
      fc.array(fc.constantFrom<'in' | 'out'>('in', 'out'), { maxLength: 60 }),
      (start, presses) => {
        const end = presses.reduce(zoomedDistance, start);
        return end >= DISTANCE_MIN && end <= DISTANCE_MAX;
      },
    ),
  );
});
