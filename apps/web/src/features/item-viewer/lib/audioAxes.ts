// Ticks and labels of the audio viewer's axes: time under the waveform and spectrogram (following
// zoom and scroll), frequency beside the spectrogram on the server's log scale.

/** Time steps an axis may use, in seconds: 1-2-5 below a minute, then clock-like steps. */
export const TIME_STEPS = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
  18_000, 36_000, 86_400,
] as const;

const LONGEST_TIME_STEP = 86_400;

/** Least distance between two time labels, in pixels: room for '1:05.5' and a gap. */
export const MIN_TIME_TICK_SPACING = 72;

export interface TimeTicks {
  step: number;
  /** Tick times in seconds, ascending. */
  ticks: number[];
}

/**
 * The ticks of [start, end] seconds drawn at `pxPerSecond`: the smallest step of TIME_STEPS whose
 * ticks lie at least `minSpacing` px apart, at its multiples. At most about
 * (end − start) · pxPerSecond / minSpacing + 1 ticks, whatever the input.
 */
export function timeTicks(
  start: number,
  end: number,
  pxPerSecond: number,
  minSpacing = MIN_TIME_TICK_SPACING,
): TimeTicks {
  const step: number =
    TIME_STEPS.find((candidate) => candidate * pxPerSecond >= minSpacing) ?? LONGEST_TIME_STEP;
  if (!(pxPerSecond > 0) || !(end >= start) || !Number.isFinite(end - start)) {
    return { step, ticks: [] };
  }
  const ticks: number[] = [];
  // Integer multiples, rounded, so 0.1 · 3 reads 0.3 and not 0.30000000000000004.
  const first = Math.ceil(start / step - 1e-9);
  const last = Math.floor(end / step + 1e-9);
  // `|| 0` turns -0 (from ceil of a tiny negative) into 0.
  for (let k = first; k <= last; k++) ticks.push(Math.round(k * step * 1000) / 1000 || 0);
  return { step, ticks };
}

/** `value` with `decimals` decimals at most, trailing zeros (and a bare point) dropped. */
function trimmed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * A time tick's label: '0.5 s', '12 s' below a minute, '1:05' (or '1:05.5') from a minute on,
 * '1:00:00' from an hour; as many decimals as the step needs, trailing zeros dropped.
 */
export function formatTimeTick(seconds: number, step: number): string {
  const decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
  const scale = 10 ** decimals;
  // Whole units of the last decimal, so 59.99 at one decimal reads 1:00.0, never 0:60.
  const units = Math.round(Math.max(0, seconds) * scale);
  if (units < 60 * scale) return `${trimmed(units / scale, decimals)} s`;
  const whole = Math.floor(units / scale);
  const fraction = units % scale;
  const fractionText =
    fraction === 0 ? '' : `.${String(fraction).padStart(decimals, '0').replace(/0+$/, '')}`;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secondsText = `${String(whole % 60).padStart(2, '0')}${fractionText}`;
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${secondsText}`
    : `${minutes}:${secondsText}`;
}

/** The bottom row's frequency of the server's spectrogram, where the clip allows it. */
export const SPECTROGRAM_LOWEST_HZ = 40;

/**
 * The frequency band of the server's spectrogram (packages/analysis/src/spectrogram.ts): rows on
 * a log scale from 40 Hz (or a quarter of the sample rate, when that is lower) at the bottom to
 * the Nyquist frequency at the top. Null for an unknown or unusable sample rate.
 */
export function spectrogramBand(sampleRate: unknown): { low: number; high: number } | null {
  if (typeof sampleRate !== 'number' || !Number.isFinite(sampleRate) || sampleRate <= 0) {
    return null;
  }
  const high = sampleRate / 2;
  return { low: Math.min(SPECTROGRAM_LOWEST_HZ, high / 2), high };
}

/** Least distance between two frequency labels, in pixels: one line of small text and a gap. */
export const MIN_FREQUENCY_TICK_SPACING = 18;

export interface FrequencyTick {
  hz: number;
  /** Height above the axis' bottom as a fraction of its length, 0 to 1. */
  position: number;
}

/**
 * Ticks of a log frequency axis from `low` to `high` Hz drawn over `length` px: 1-2-5 per decade
 * where they fit `minSpacing` apart, else 1-3, else the decades alone, else every other decade.
 */
export function logFrequencyTicks(
  low: number,
  high: number,
  length: number,
  minSpacing = MIN_FREQUENCY_TICK_SPACING,
): FrequencyTick[] {
  if (!(low > 0) || !(high > low) || !(length > 0) || !Number.isFinite(high)) return [];
  const span = Math.log(high / low);
  const position = (hz: number) => Math.log(hz / low) / span;
  const firstDecade = Math.floor(Math.log10(low));
  const lastDecade = Math.ceil(Math.log10(high));
  const candidates: [mantissas: number[], decadeStride: number][] = [
    [[1, 2, 5], 1],
    [[1, 3], 1],
    [[1], 1],
    [[1], 2],
  ];
  let ticks: FrequencyTick[] = [];
  for (const [mantissas, stride] of candidates) {
    ticks = [];
    for (let decade = firstDecade; decade <= lastDecade; decade++) {
      if ((decade - firstDecade) % stride !== 0) continue;
      for (const mantissa of mantissas) {
        const hz = mantissa * 10 ** decade;
        if (hz >= low - 1e-9 && hz <= high + 1e-9) ticks.push({ hz, position: position(hz) });
      }
    }
    let closest = Infinity;
    for (let i = 1; i < ticks.length; i++) {
      closest = Math.min(closest, (ticks[i]!.position - ticks[i - 1]!.position) * length);
    }
    if (closest >= minSpacing) return ticks;
  }
  return ticks;
}

/** A frequency label: '40 Hz', '500 Hz', '1 kHz', '2.5 kHz', '20 kHz'. */
export function formatFrequency(hz: number): string {
  if (hz < 1000) return `${trimmed(hz, 0)} Hz`;
  return `${trimmed(hz / 1000, 1)} kHz`;
}
