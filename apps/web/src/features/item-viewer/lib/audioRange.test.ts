import { expect, test } from 'vitest';
import {
  clipDurationBounds,
  peaksForWindow,
  shownDuration,
  visibleDurationBounds,
} from './audioRange';

test('the slider runs 0.1 to 11.48 s unless the dataset says otherwise', () => {
  expect(visibleDurationBounds({})).toEqual({ min: 0.1, max: 11.48, initial: 11.48 });
  expect(
    visibleDurationBounds({ min_duration: 0.5, max_duration: 4, default_duration: 2 }),
  ).toEqual({
    min: 0.5,
    max: 4,
    initial: 2,
  });
  // Every clip 3 s long: the range still starts at 0.1.
  expect(visibleDurationBounds({ min_duration: 3, max_duration: 3 })).toEqual({
    min: 0.1,
    max: 3,
    initial: 3,
  });
  expect(visibleDurationBounds({ max_duration: 2, default_duration: 9 }).initial).toBe(2);
});

test('peaks: the lowest and highest sample of each column', () => {
  // 8 samples at 4 Hz = 2 s; two columns over the whole clip.
  const samples = Float32Array.from([0.1, -0.5, 0.2, 0.3, -0.1, 0.9, -0.2, 0]);
  expect(Array.from(peaksForWindow(samples, 4, 0, 2, 2))).toEqual([
    -0.5, 0.30000001192092896, -0.20000000298023224, 0.8999999761581421,
  ]);
  // The second second only, in one column.
  expect(Array.from(peaksForWindow(samples, 4, 1, 2, 1))).toEqual([
    -0.20000000298023224, 0.8999999761581421,
  ]);
});

test('a clip shorter than the dataset window is shown whole and the readout names its length', () => {
  // The dataset's longest clip is 2 s; this one is 1.4 s.
  const dataset = visibleDurationBounds({
    min_duration: 0.6,
    max_duration: 2,
    default_duration: 2,
  });
  const clip = clipDurationBounds(dataset, 1.4);
  expect(clip).toEqual({ min: 0.6, max: 1.4, initial: 1.4 });
  // Whatever the slider held before (the dataset's 2 s), the window shown is the clip.
  expect(shownDuration(clip, dataset.initial)).toBe(1.4);
  expect(shownDuration(clip, 1)).toBe(1);
  expect(shownDuration(clip, 0.2)).toBe(0.6);
  // The dataset's shortest clip, or shorter: the slider still zooms in, down to 0.1 s.
  expect(clipDurationBounds(dataset, 0.6)).toEqual({ min: 0.1, max: 0.6, initial: 0.6 });
  expect(clipDurationBounds(dataset, 0.05)).toEqual({ min: 0.05, max: 0.05, initial: 0.05 });
  // Longer clips, or a length not known yet, keep the dataset's bounds.
  expect(clipDurationBounds(dataset, 5)).toBe(dataset);
  expect(clipDurationBounds(dataset, 0)).toBe(dataset);
});
