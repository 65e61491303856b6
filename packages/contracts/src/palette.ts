// The palettes behind every colouring (field-colors.ts says which value takes which colour):
// categorical colours as golden-angle hues with cycling lightness and saturation, so neighbouring
// indices differ strongly and 200+ classes still get distinct colours; and a 200-step continuous
// scale for numbers and timestamps.

const GOLDEN_ANGLE = 137.50776405003785;
/** Lightness and saturation cycle with a period coprime to the hue walk's near-repeats. */
const LIGHTNESS = [0.5, 0.36, 0.64];
const SATURATION = [0.72, 0.6, 0.85, 0.5];

function hex(value: number): string {
  return Math.round(Math.min(1, Math.max(0, value)) * 255)
    .toString(16)
    .padStart(2, '0');
}

/** HSL (hue in degrees, saturation and lightness 0..1) as #rrggbb. */
export function hslToHex(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return `#${hex(channel(0))}${hex(channel(8))}${hex(channel(4))}`;
}

/** The colour of the category at `index` (0-based) as #rrggbb. */
export function categoricalColor(index: number): string {
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`index must be a non-negative integer, got ${index}`);
  const hue = (index * GOLDEN_ANGLE) % 360;
  return hslToHex(
    hue,
    SATURATION[index % SATURATION.length]!,
    LIGHTNESS[index % LIGHTNESS.length]!,
  );
}

/** Label → colour for labels in the given order (the dataset's class order). */
export function categoricalColorMap(labels: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  labels.forEach((label, i) => {
    if (!(label in out)) out[label] = categoricalColor(i);
  });
  return out;
}

/** Steps of the continuous scale (docs/product.md, Datasets §9). */
export const CONTINUOUS_STEPS = 200;

// Viridis anchors: perceptually uniform and readable on light and dark backgrounds.
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of step `step` of `CONTINUOUS_STEPS`, as CSS `rgb()`. */
export function continuousStepColor(step: number): string {
  const t = Math.min(1, Math.max(0, step / (CONTINUOUS_STEPS - 1)));
  const position = t * (VIRIDIS.length - 1);
  const low = Math.min(VIRIDIS.length - 2, Math.floor(position));
  const f = position - low;
  const [a, b] = [VIRIDIS[low]!, VIRIDIS[low + 1]!];
  const mix = (i: number) => Math.round(a[i]! + (b[i]! - a[i]!) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Which of the 200 steps a value falls in; the maximum belongs to the last step. */
export function continuousStep(value: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  const t = (value - min) / (max - min);
  return Math.min(CONTINUOUS_STEPS - 1, Math.max(0, Math.floor(t * CONTINUOUS_STEPS)));
}
