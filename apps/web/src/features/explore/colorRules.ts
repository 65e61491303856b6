// Colouring the grid by a metadata property (docs/product.md, Datasets "Colouring"): which
// properties can colour, and the scale and legend entries of one. The colour of each value comes
// from the contracts' fieldColorScale, which the map, the viewer and the server use too.
import {
  categoricalColor,
  fieldColorScale,
  type MetadataFieldInfo,
  type MetadataValue,
} from '@loupe/contracts';
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
 * Builds the scale of a property. `classColors` is the dataset's colour map: label fields take
 * their class's colour from it, as boxes and borders do.
 */
export function colorScale(
  field: MetadataFieldInfo,
  kind: ColorKind,
  classColors: Record<string, string> = {},
): ColorScale {
  const colorOf = fieldColorScale(field, { color_map: classColors });
  if (kind === 'continuous') {
    return {
      kind,
      range: [field.options?.min ?? 0, field.options?.max ?? 1],
      colorOf: (value) => colorOf(value),
    };
  }
  // Legend order: booleans as their columns store them, strings as their allowed values.
  const values =
    field.type === 'boolean' ? ['false', 'true'] : (field.options?.allowed_values ?? []);
  return {
    kind,
    categories: values.map((value) => ({ value, color: colorOf(value)! })),
    colorOf: (value) => colorOf(value),
  };
}
