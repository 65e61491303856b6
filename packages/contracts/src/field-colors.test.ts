import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOOLEAN_COLORS,
  classColor,
  fieldColorScale,
  fieldValueColor,
  stableColor,
  type ColorField,
} from './field-colors.js';
import { categoricalColor, categoricalColorMap, continuousStepColor } from './palette.js';

/** Hue in degrees of #rrggbb. */
function hue(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

const boolean: ColorField = { id: 'prediction.is_correct', type: 'boolean' };
const classes = ['circle', 'square', 'triangle'];

describe('one colour per field and value', () => {
  it('booleans: false is warm, true is cool, whether given as booleans or text', () => {
    expect(fieldValueColor(boolean, false)).toBe(BOOLEAN_COLORS.false);
    expect(fieldValueColor(boolean, 'false')).toBe(BOOLEAN_COLORS.false);
    expect(fieldValueColor(boolean, true)).toBe(BOOLEAN_COLORS.true);
    expect(fieldValueColor(boolean, 'true')).toBe(BOOLEAN_COLORS.true);
    expect(fieldValueColor(boolean, null)).toBeNull();
    const warm = hue(BOOLEAN_COLORS.false);
    const cool = hue(BOOLEAN_COLORS.true);
    expect(warm < 60 || warm > 330).toBe(true);
    expect(cool).toBeGreaterThan(180);
    expect(cool).toBeLessThan(260);
  });

  it('class labels: the colour map first, then the class order, whatever field carries them', () => {
    for (const id of ['label', 'object.label', 'prediction.label']) {
      const field: ColorField = { id, type: 'string', options: { allowed_values: ['triangle'] } };
      expect(fieldValueColor(field, 'triangle', { class_names: classes })).toBe(
        categoricalColor(2),
      );
      expect(fieldValueColor(field, 'triangle', { color_map: categoricalColorMap(classes) })).toBe(
        categoricalColor(2),
      );
    }
    expect(classColor('square', { class_names: classes, color_map: { square: '#123456' } })).toBe(
      '#123456',
    );
  });

  it('a label outside the class list hashes to a colour no class has', () => {
    const outside = classColor('hexagon', { class_names: classes });
    expect(outside).toBe(stableColor('hexagon'));
    expect(classColor('hexagon', { color_map: categoricalColorMap(classes) })).toBe(outside);
    const classColors = new Set(Array.from({ length: 300 }, (_, i) => categoricalColor(i)));
    expect(classColors.has(outside)).toBe(false);
    // Names that are also Object.prototype's keys are labels like any other.
    expect(classColor('constructor', { color_map: {} })).toBe(stableColor('constructor'));
  });

  it('other strings by their place in the allowed values, never by where they appear', () => {
    const field: ColorField = {
      id: 'camera',
      type: 'string',
      options: { allowed_values: ['A', 'B', 'C'] },
    };
    expect(['A', 'B', 'C'].map((v) => fieldValueColor(field, v))).toEqual([
      categoricalColor(0),
      categoricalColor(1),
      categoricalColor(2),
    ]);
    expect(fieldValueColor(field, 'Z')).toBe(stableColor('Z'));
    // A field named like a class is not a label field: its own order decides.
    expect(fieldValueColor(field, 'A', { color_map: { A: '#000000' } })).toBe(categoricalColor(0));
  });

  it('numbers and timestamps: 200 steps over the field’s own range', () => {
    const numeric: ColorField = { id: 'exposure', type: 'numeric', options: { min: 0, max: 10 } };
    expect(fieldValueColor(numeric, 10)).toBe(continuousStepColor(199));
    expect(fieldValueColor(numeric, 5)).toBe(continuousStepColor(100));
    expect(fieldValueColor(numeric, NaN)).toBeNull();
    const start = Date.UTC(2026, 0, 1);
    const time: ColorField = {
      id: 'captured_at',
      type: 'timestamp',
      options: { min: start, max: start + 1000 },
    };
    expect(fieldValueColor(time, new Date(start + 1000).toISOString())).toBe(
      continuousStepColor(199),
    );
    expect(fieldValueColor(time, '')).toBeNull();
  });

  it('a value’s colour does not depend on which values are present or in which order', () => {
    const values = ['circle', 'square', 'triangle', 'hexagon', 'star'];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(values, { minLength: 1 }),
        fc.constantFrom('label', 'camera'),
        (present, id) => {
          // What the grid knows (allowed values + colour map) and what the server knows (class
          // names); the values present on one side come in any order.
          const grid = fieldColorScale(
            { id, type: 'string', options: { allowed_values: values } },
            { color_map: categoricalColorMap(classes) },
          );
          const server = fieldColorScale(
            { id, type: 'string', options: { allowed_values: values } },
            { class_names: classes },
          );
          for (const value of present) expect(server(value)).toBe(grid(value));
        },
      ),
    );
  });
});
