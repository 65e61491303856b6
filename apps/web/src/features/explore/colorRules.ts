// Colouring the grid by a metadata property (docs/product.md, Datasets §5, §9): which properties can
// colour, a categorical palette that stays distinct past 200 classes, and a 200-step continuous
// scale for numbers and timestamps.
import { categoricalColor, type MetadataFieldInfo, type MetadataValue } from '@loupe/contracts';
import { CONTINUOUS_STEPS, continuousStep, continuousStepColor } from '../../lib/continuousScale';

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

export { CONTINUOUS_STEPS, continuousStep, continuousStepColor };

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
