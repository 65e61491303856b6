import { expect, test } from 'vitest';
import { canVisit, furthestReachableStep } from './wizardSteps';

test('steps can be revisited up to one past the last completed step', () => {
  expect(furthestReachableStep(new Set())).toBe(0);
  expect(furthestReachableStep(new Set([0]))).toBe(1);
  expect(furthestReachableStep(new Set([0, 1]))).toBe(2);
  expect(canVisit(2, new Set([0]), false)).toBe(false);
  expect(canVisit(1, new Set([0]), false)).toBe(true);
  expect(canVisit(0, new Set([0, 1]), false)).toBe(true);
});

test('once set up, only finished steps and the final one remain', () => {
  const done = new Set([0, 1, 2]);
  expect(canVisit(3, done, true)).toBe(true);
  expect(canVisit(1, done, true)).toBe(true);
});
