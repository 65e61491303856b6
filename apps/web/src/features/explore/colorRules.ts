// Colouring the grid by a metadata property (dataset-side.md §5, §9): which properties can
// colour, a categorical palette that stays distinct past 200 classes, and a 200-step continuous
// scale for numbers and timestamps.
import { categoricalColor, type MetadataFieldInfo, type MetadataValue } from '@loupe/contracts';

export type ColorKind = 'categorical' | 'continuous';

export interface ColorAvailability {
  kind: ColorKind | null;
  /** Why the property cannot colour; null when it can. */
  reason: string | null;
}

export function colorAvailability(
  field: MetadataFieldInfo,
  messages: { tooManyValues: string; recomputing: string },
): ColorAvailability {
  if (field.state === 'pending') return { kind: null, reason: messages.recomputing };
  if (field.type === 'numeric' || field.type === 'timestamp')
    return { kind: 'continuous', reason: null };
  if (field.type === 'boolean') return { kind: 'categorical', reason: null };
  if (field.options?.allowed_values) return { kind: 'categorical', reason: null };
  return { kind: null, reason: messages.tooManyValues };
}

/** Categorical colours come from the palette the server's colour map uses too. */
export { categoricalColor };

export const CONTINUOUS_STEPS = 200;

// Viridis anchors (perceptually uniform, readable on light and dark backgrounds).
const VIRIDIS: [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of step `step` of `CONTINUOUS_STEPS`. */
export function continuousStepColor(step: number): string {
  const t = Math.min(1, Math.max(0, step / (CONTINUOUS_STEPS - 1)));
  const position = t * (VIRIDIS.length - 1);
  const low = Math.min(VIRIDIS.length - 2, Math.floor(position));
  const f = position - low;
  const [a, b] = [VIRIDIS[low]!, VIRIDIS[low + 1]!];
  const mix = (i: number) => Math.round(a[i]! + (b[i]! - a[i]!) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Which of the 200 steps a value falls in. */
export function continuousStep(value: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  const t = (value - min) / (max - min);
  return Math.min(CONTINUOUS_STEPS - 1, Math.max(0, Math.floor(t * CONTINUOUS_STEPS)));
}

export interface ColorScale {
  kind: ColorKind;
  /** The colour of a value, or null for a missing value. */
  colorOf(value: MetadataValue | undefined): string | null;
  /** Categorical: the categories with their colours. */
  categories?: { value: string; color: string }[];
  /** Continuous: the range. */
  range?: [number, number];
}

/**
 * Builds the scale of a property. Label-like properties use the dataset's class colour map so a
 * class has the same colour in boxes and borders.
 */
export function colorScale(
  field: MetadataFieldInfo,
  kind: ColorKind,
  classColors: Record<string, string> = {},
): ColorScale {
  if (kind === 'continuous') {
    const min = field.options?.min ?? 0;
    const max = field.options?.max ?? 1;
    return {
      kind,
      range: [min, max],
      colorOf: (value) => {
        // Timestamps may arrive as ISO strings.
        const number = typeof value === 'string' ? Date.parse(value) : value;
        return typeof number === 'number' && Number.isFinite(number)
          ? continuousStepColor(continuousStep(number, min, max))
          : null;
      },
    };
  }
  const values =
    field.type === 'boolean' ? ['true', 'false'] : (field.options?.allowed_values ?? []);
  const categories = values.map((value, index) => ({
    value,
    color: classColors[value] ?? categoricalColor(index),
  }));
  const byValue = new Map(categories.map((category) => [category.value, category.color]));
  return {
    kind,
    categories,
    colorOf: (value) =>
      value === null || value === undefined ? null : (byValue.get(String(value)) ?? null),
  };
}
