// Turns the points answer's legend into a colour scheme for the scatter (palette + one colour
// index per point) and for the legend panel. The server gives each category the colour the grid
// gives its value (the contracts' fieldColorScale), and the continuous range is the field's own,
// so a value looks the same in both panes whatever the filter.
import type { EmbeddingsLegend } from '@loupe/contracts';
import { CONTINUOUS_STEPS, continuousStep, continuousStepColor, stableColor } from './colors';

export interface ColorScheme {
  kind: 'none' | 'categorical' | 'continuous';
  /** Palette for the scatter; the last entry is the missing-value colour. */
  palette: string[];
  missingIndex: number;
  /** The palette index of a point's colour key (a category's key, or a number as text). */
  indexOf(colorKey: string): number;
  /** The palette index of a continuous colour value (NaN = missing). */
  indexOfValue(value: number): number;
  /** Categorical legend rows. */
  categories: { key: string; label: string; color: string }[];
  /** Continuous legend range. */
  range: [number, number] | null;
}

export function buildColorScheme(
  legend: EmbeddingsLegend | null,
  { neutral, missing }: { neutral: string; missing: string },
): ColorScheme {
  if (!legend) {
    return {
      kind: 'none',
      palette: [neutral, missing],
      missingIndex: 1,
      indexOf: () => 0,
      indexOfValue: () => 0,
      categories: [],
      range: null,
    };
  }
  if (legend.type === 'continuous') {
    const steps = Array.from({ length: CONTINUOUS_STEPS }, (_, step) => continuousStepColor(step));
    const { min, max } = legend;
    // No range means no item has a value: every point is missing.
    const range: [number, number] | null = min !== null && max !== null ? [min, max] : null;
    const indexOfValue = (value: number) =>
      range && Number.isFinite(value)
        ? continuousStep(value, range[0], range[1])
        : CONTINUOUS_STEPS;
    return {
      kind: 'continuous',
      palette: [...steps, missing],
      missingIndex: CONTINUOUS_STEPS,
      indexOf: (colorKey) => indexOfValue(colorKey === '' ? NaN : Number(colorKey)),
      indexOfValue,
      categories: [],
      range,
    };
  }
  // A category without a colour keeps one by its label, never by its place in this answer.
  const categories = legend.categories.map((category) => ({
    key: category.key,
    label: category.label,
    color: category.color || stableColor(category.label),
  }));
  const byKey = new Map(categories.map((category, index) => [category.key, index]));
  const missingIndex = categories.length;
  return {
    kind: 'categorical',
    palette: [...categories.map((category) => category.color), missing],
    missingIndex,
    indexOf: (colorKey) => (colorKey === '' ? missingIndex : (byKey.get(colorKey) ?? missingIndex)),
    indexOfValue: () => missingIndex,
    categories,
    range: null,
  };
}
