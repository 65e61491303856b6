// Image and audio quality from the metadata pass's measures (docs/health-checks.md, "Media
// quality"): one small rule per problem, deciding each item from its metadata columns. Every rule
// answers per item 1 (fails), 0 (passes) or −1 (not checked: the measure is missing).

import { madSpread, median, upperFence } from './robust.js';

/** Per item: 1 fails, 0 passes, −1 not checked. */
export type ItemVerdicts = Int8Array;

export const IMAGE_QUALITY_DEFAULTS = {
  /** Mean luma (0–1) below which an image is too dark. */
  darkBrightness: 0.12,
  /** Mean luma above which an image is too bright. */
  brightBrightness: 0.92,
  /**
   * Variance of the Laplacian (0–255 luma, measured at ≤ 512 px) below which an image is blurry.
   * Calibrated on synthetic images: every 3 × 3 (or wider) box-blurred one measures ≤ 40,
   * every sharp textured one ≥ 140 (docs/health-checks.md, "Media quality").
   */
  blurrySharpness: 50,
  /** RMS contrast (0–0.5) below which an image carries little information. */
  lowContrast: 0.03,
  /** Robust z of log aspect ratio (or log pixel count) above which it is unusual. */
  oddZ: 4,
  /** Aspect ratios outside [1 / maxAspectRatio, maxAspectRatio] are unusual whatever the data. */
  maxAspectRatio: 4,
  /** Images with a side shorter than this (pixels) are unusual whatever the data. */
  minSide: 32,
  /** Colourfulness below which an image is grey… */
  grayColorfulness: 1,
  /** …flagged only when at least colourShare of the images have colourfulness ≥ colourColorfulness. */
  colourColorfulness: 5,
  colourShare: 0.8,
} as const;

export const AUDIO_QUALITY_DEFAULTS = {
  /** Share of silent 20 ms frames from which a clip is silent. */
  silentFraction: 0.95,
  /** Share of samples at full scale from which a clip is clipped. */
  clippedFraction: 0.001,
  /** RMS level (dBFS) below which a clip that is not silent is too quiet. */
  quietDbfs: -45,
  /** Clips shorter than this (seconds) are too short. */
  minDuration: 0.5,
} as const;

/**
 * Floors of the robust spread of log aspect ratios and log pixel counts (natural log), so that a
 * dataset of one shape or one size (spread 0) flags only real departures: with z = 4 an aspect
 * ratio must be ×1.49 off the median, a pixel count ×4.
 */
const MIN_LOG_ASPECT_SPREAD = 0.1;
const MIN_LOG_PIXELS_SPREAD = Math.log(4) / 4;
/** Floor of the duration quartiles' spread, as a share of the median, for the upper fence. */
const MIN_DURATION_IQR_SHARE = 0.1;

function verdicts(n: number, decide: (i: number) => boolean | null): ItemVerdicts {
  const out = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const failed = decide(i);
    out[i] = failed === null ? -1 : failed ? 1 : 0;
  }
  return out;
}

const known = (value: number | undefined): value is number => Number.isFinite(value);

/** Items whose value is below `threshold` (NaN: not checked). */
export function belowThreshold(values: Float64Array, threshold: number): ItemVerdicts {
  return verdicts(values.length, (i) => (known(values[i]) ? values[i]! < threshold : null));
}

/** Items whose value is above `threshold` (NaN: not checked). */
export function aboveThreshold(values: Float64Array, threshold: number): ItemVerdicts {
  return verdicts(values.length, (i) => (known(values[i]) ? values[i]! > threshold : null));
}

/** Items whose value is at least `threshold` (NaN: not checked). */
export function atOrAboveThreshold(values: Float64Array, threshold: number): ItemVerdicts {
  return verdicts(values.length, (i) => (known(values[i]) ? values[i]! >= threshold : null));
}

/** Items flagged true by a boolean column (1 true, 0 false, −1 missing). */
export function trueValues(values: Int8Array): ItemVerdicts {
  return verdicts(values.length, (i) => (values[i]! < 0 ? null : values[i] === 1));
}

/** Items whose value is more than z · max(1.4826 · MAD, minSpread) from the median. */
function robustDeparture(values: Float64Array, z: number, minSpread: number): ItemVerdicts {
  const { median: middle, spread } = madSpread(values);
  const scale = Math.max(spread, minSpread);
  return verdicts(values.length, (i) =>
    known(values[i]) ? Math.abs(values[i]! - middle) > z * scale : null,
  );
}

function logs(values: Float64Array): Float64Array {
  return values.map((v) => (v > 0 ? Math.log(v) : NaN));
}

/**
 * Unusual aspect ratio: outside [1 / maxRatio, maxRatio], or its log more than z robust standard
 * deviations (floored at 0.1) from the dataset's median log aspect ratio.
 */
export function oddAspectRatio(
  aspectRatio: Float64Array,
  z: number = IMAGE_QUALITY_DEFAULTS.oddZ,
  maxRatio: number = IMAGE_QUALITY_DEFAULTS.maxAspectRatio,
): ItemVerdicts {
  const logRatio = logs(aspectRatio);
  const departure = robustDeparture(logRatio, z, MIN_LOG_ASPECT_SPREAD);
  const limit = Math.log(maxRatio);
  return verdicts(aspectRatio.length, (i) =>
    departure[i]! < 0 ? null : departure[i] === 1 || Math.abs(logRatio[i]!) > limit,
  );
}

/**
 * Unusual size: a side shorter than minSide, or the log pixel count more than z robust standard
 * deviations (floored at ln 4 / 4) from the dataset's median.
 */
export function oddSize(
  width: Float64Array,
  height: Float64Array,
  z: number = IMAGE_QUALITY_DEFAULTS.oddZ,
  minSide: number = IMAGE_QUALITY_DEFAULTS.minSide,
): ItemVerdicts {
  const logPixels = logs(width.map((w, i) => w * height[i]!));
  const departure = robustDeparture(logPixels, z, MIN_LOG_PIXELS_SPREAD);
  return verdicts(width.length, (i) =>
    departure[i]! < 0 ? null : departure[i] === 1 || Math.min(width[i]!, height[i]!) < minSide,
  );
}

/**
 * Grey images among colour ones: colourfulness below grayMax, flagged only when at least
 * colourShare of the measured images have colourfulness ≥ colourMin (a dataset of grey images
 * has no odd one out).
 */
export function grayscaleAmongColour(
  colorfulness: Float64Array,
  grayMax: number = IMAGE_QUALITY_DEFAULTS.grayColorfulness,
  colourMin: number = IMAGE_QUALITY_DEFAULTS.colourColorfulness,
  colourShare: number = IMAGE_QUALITY_DEFAULTS.colourShare,
): ItemVerdicts {
  let measured = 0;
  let colourful = 0;
  for (const v of colorfulness) {
    if (!known(v)) continue;
    measured++;
    if (v >= colourMin) colourful++;
  }
  const mostlyColour = measured > 0 && colourful >= colourShare * measured;
  return verdicts(colorfulness.length, (i) =>
    known(colorfulness[i]) ? mostlyColour && colorfulness[i]! < grayMax : null,
  );
}

/** Too quiet: RMS level below maxDbfs, among clips that are not silent. */
export function tooQuiet(
  rmsDbfs: Float64Array,
  silenceFraction: Float64Array,
  maxDbfs: number = AUDIO_QUALITY_DEFAULTS.quietDbfs,
  silentFraction: number = AUDIO_QUALITY_DEFAULTS.silentFraction,
): ItemVerdicts {
  return verdicts(rmsDbfs.length, (i) =>
    known(rmsDbfs[i]) && known(silenceFraction[i])
      ? rmsDbfs[i]! < maxDbfs && silenceFraction[i]! < silentFraction
      : null,
  );
}

/**
 * The default longest duration: Tukey's outer fence Q3 + 3 · IQR of the durations, the IQR
 * floored at a tenth of the median (a dataset of equal-length clips does not flag a clip a few
 * samples longer). NaN when no duration is known.
 */
export function durationUpperFence(duration: Float64Array): number {
  const middle = median(duration);
  return upperFence(duration, MIN_DURATION_IQR_SHARE * (known(middle) ? middle : 0));
}

/** Clips shorter than minSeconds or longer than maxSeconds (default: durationUpperFence). */
export function durationOutOfRange(
  duration: Float64Array,
  minSeconds: number = AUDIO_QUALITY_DEFAULTS.minDuration,
  maxSeconds: number = durationUpperFence(duration),
): ItemVerdicts {
  return verdicts(duration.length, (i) =>
    known(duration[i]) ? duration[i]! < minSeconds || duration[i]! > maxSeconds : null,
  );
}
