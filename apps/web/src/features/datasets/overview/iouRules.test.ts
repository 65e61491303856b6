import { expect, test } from 'vitest';
import { canApplyIou, hasIouThreshold, isIouInRange } from './iouRules';

test('only detection and instance segmentation datasets have an IoU threshold', () => {
  expect(hasIouThreshold('object_detection')).toBe(true);
  expect(hasIouThreshold('instance_segmentation')).toBe(true);
  expect(hasIouThreshold('semantic_segmentation')).toBe(false);
  expect(hasIouThreshold('classification')).toBe(false);
});

test('the threshold is a number from 0 to 1', () => {
  for (const value of [0, 0.1, 0.5, 1]) expect(isIouInRange(value)).toBe(true);
  for (const value of [-0.1, 1.1, Number.NaN, null, undefined])
    expect(isIouInRange(value)).toBe(false);
});

test('Apply is offered only for a changed value in range', () => {
  expect(canApplyIou(0.6, 0.5)).toBe(true);
  expect(canApplyIou(0.5, 0.5)).toBe(false);
  expect(canApplyIou(1.2, 0.5)).toBe(false);
  expect(canApplyIou(null, 0.5)).toBe(false);
  expect(canApplyIou(0.6, undefined)).toBe(false);
});
