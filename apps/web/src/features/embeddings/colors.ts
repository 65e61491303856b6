// Point colours of the map (dataset-side.md §9): categories from the server's legend (its colour,
// else the shared golden-angle palette that stays distinct past 200 classes), a continuous 200-step
// viridis scale, and one neutral colour for points with a missing value.

export { categoricalColor } from '@loupe/contracts';

export const CONTINUOUS_STEPS = 200;

// Viridis anchors: perceptually uniform and readable on light and dark backgrounds.
const VIRIDIS: [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

export function continuousStepColor(step: number): string {
  const t = Math.min(1, Math.max(0, step / (CONTINUOUS_STEPS - 1)));
  const position = t * (VIRIDIS.length - 1);
  const low = Math.min(VIRIDIS.length - 2, Math.floor(position));
  const f = position - low;
  const a = VIRIDIS[low]!;
  const b = VIRIDIS[low + 1]!;
  const mix = (i: number) => (a[i]! + (b[i]! - a[i]!) * f) / 255;
  return `#${hex(mix(0))}${hex(mix(1))}${hex(mix(2))}`;
}

/** Which of the 200 steps a value falls in; the maximum belongs to the last step. */
export function continuousStep(value: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  const t = (value - min) / (max - min);
  return Math.min(CONTINUOUS_STEPS - 1, Math.max(0, Math.floor(t * CONTINUOUS_STEPS)));
}

function hex(value: number): string {
  return Math.round(Math.min(1, Math.max(0, value)) * 255)
    .toString(16)
    .padStart(2, '0');
}

export type Rgba = [number, number, number, number];

/**
 * A CSS colour as normalised RGBA for WebGL. Reads what antd tokens and the palettes produce
 * (#rgb, #rrggbb, #rrggbbaa, rgb(), rgba()); anything else becomes a mid grey.
 */
export function toRgba(color: string): Rgba {
  const text = color.trim().toLowerCase();
  const hexMatch = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text);
  if (hexMatch) {
    let digits = hexMatch[1]!;
    if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
    const channel = (i: number) => parseInt(digits.slice(i * 2, i * 2 + 2), 16) / 255;
    return [channel(0), channel(1), channel(2), digits.length === 8 ? channel(3) : 1];
  }
  const rgbMatch = /^rgba?\(([^)]+)\)$/.exec(text);
  if (rgbMatch) {
    const parts = rgbMatch[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (parts.length >= 3 && parts.every(Number.isFinite)) {
      const [r, g, b, a = 1] = parts as [number, number, number, number?];
      return [r / 255, g / 255, b / 255, Math.min(1, Math.max(0, a))];
    }
  }
  return [0.5, 0.5, 0.5, 1];
}

/** A translucent colour painted over an opaque background, as one opaque colour. */
export function opaqueOver(color: string, background: string): Rgba {
  const [r, g, b, a] = toRgba(color);
  const [br, bg, bb] = toRgba(background);
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a), 1];
}
