import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  formatFrequency,
  formatTimeTick,
  logFrequencyTicks,
  spectrogramBand,
  timeTicks,
} from './audioAxes';

test('time ticks: the smallest 1-2-5 step that keeps labels 72 px apart, at its multiples', () => {
  // A 1.4 s clip across 1000 px: 0.1 s is 71 px (too close), 0.2 s is 143 px.
  expect(timeTicks(0, 1.4, 1000 / 1.4)).toEqual({
    step: 0.2,
    ticks: [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4],
  });
  // Zoomed to 0.1 s over 1000 px, scrolled to 0.35 s: hundredths.
  expect(timeTicks(0.35, 0.45, 10_000)).toEqual({
    step: 0.01,
    ticks: [0.35, 0.36, 0.37, 0.38, 0.39, 0.4, 0.41, 0.42, 0.43, 0.44, 0.45],
  });
  // Ten minutes over 1200 px: a minute apart.
  expect(timeTicks(0, 600, 2).step).toBe(60);
  expect(timeTicks(0, 600, 2).ticks).toHaveLength(11);
  // Nothing to draw.
  expect(timeTicks(0, 1, 0).ticks).toEqual([]);
  expect(timeTicks(2, 1, 100).ticks).toEqual([]);
});

test('time ticks never crowd closer than the spacing and stay bounded', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 5000, noNaN: true }),
      fc.double({ min: 0, max: 4000, noNaN: true }),
      fc.double({ min: 0.01, max: 20_000, noNaN: true }),
      (start, viewWidth, pxPerSecond) => {
        const end = start + viewWidth / pxPerSecond;
        const { step, ticks } = timeTicks(start, end, pxPerSecond);
        expect(step * pxPerSecond >= 72 || step === 86_400).toBe(true);
        expect(ticks.length).toBeLessThanOrEqual(viewWidth / 72 + 1);
        for (const t of ticks) {
          expect(t).toBeGreaterThanOrEqual(start - 1e-3);
          expect(t).toBeLessThanOrEqual(end + 1e-3);
        }
      },
    ),
  );
});

test('time labels: seconds below a minute, m:ss past it, h:mm:ss past an hour', () => {
  expect(formatTimeTick(0, 0.2)).toBe('0 s');
  expect(formatTimeTick(0.5, 0.5)).toBe('0.5 s');
  expect(formatTimeTick(1, 0.5)).toBe('1 s');
  expect(formatTimeTick(0.35, 0.05)).toBe('0.35 s');
  expect(formatTimeTick(12, 2)).toBe('12 s');
  expect(formatTimeTick(65, 5)).toBe('1:05');
  expect(formatTimeTick(65.5, 0.5)).toBe('1:05.5');
  expect(formatTimeTick(60, 1)).toBe('1:00');
  // Rounded to the step's decimals first: never '0:60' or '60 s'.
  expect(formatTimeTick(59.99, 0.1)).toBe('1:00');
  expect(formatTimeTick(3725, 5)).toBe('1:02:05');
});

test('the frequency band is the server spectrogram one: 40 Hz to Nyquist', () => {
  expect(spectrogramBand(16_000)).toEqual({ low: 40, high: 8000 });
  expect(spectrogramBand(44_100)).toEqual({ low: 40, high: 22_050 });
  // A very low rate: the bottom is half the Nyquist frequency.
  expect(spectrogramBand(100)).toEqual({ low: 25, high: 50 });
  expect(spectrogramBand(null)).toBeNull();
  expect(spectrogramBand('16000')).toBeNull();
  expect(spectrogramBand(0)).toBeNull();
});

test('log frequency ticks: 1-2-5 per decade where they fit, 1-3 or decades where not', () => {
  const tall = logFrequencyTicks(40, 8000, 400);
  expect(tall.map((tick) => tick.hz)).toEqual([50, 100, 200, 500, 1000, 2000, 5000]);
  // Positions on the log scale: 40 Hz at 0, 8 kHz at 1; 400 Hz is log(10)/log(200) of the way.
  expect(tall[0]!.position).toBeCloseTo(Math.log(50 / 40) / Math.log(200));
  expect(tall[4]!.position).toBeCloseTo(Math.log(1000 / 40) / Math.log(200));
  // 160 px over 2.7 decades: a factor 2 is 17.6 px, too close; 1-3 per decade (28 px).
  expect(logFrequencyTicks(40, 22_050, 160).map((tick) => tick.hz)).toEqual([
    100, 300, 1000, 3000, 10_000,
  ]);
  // Very short: decades alone.
  expect(logFrequencyTicks(40, 22_050, 60).map((tick) => tick.hz)).toEqual([100, 1000, 10_000]);
  expect(logFrequencyTicks(40, 8000, 0)).toEqual([]);
  expect(logFrequencyTicks(0, 8000, 100)).toEqual([]);
});

test('frequency labels in Hz below 1 kHz, kHz above', () => {
  expect(formatFrequency(50)).toBe('50 Hz');
  expect(formatFrequency(500)).toBe('500 Hz');
  expect(formatFrequency(1000)).toBe('1 kHz');
  expect(formatFrequency(2500)).toBe('2.5 kHz');
  expect(formatFrequency(20_000)).toBe('20 kHz');
});
