// Categorical colours shared by the server's colour map and the web app's categorical colouring:
// golden-angle hues with cycling lightness and saturation, so neighbouring indices differ
// strongly and 200+ classes still get distinct colours.

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
