// Point colours of the map (docs/product.md, Datasets "Colouring"): categories from the server's
// legend (the contracts' one colour per field and value, else a colour hashed from the label), a
// continuous 200-step viridis scale (lib/continuousScale.ts), and one neutral colour for points
// with a missing value.

export { categoricalColor, stableColor } from '@loupe/contracts';

export { CONTINUOUS_STEPS, continuousStep, continuousStepColor } from '../../lib/continuousScale';

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
