import {
  BOOLEAN_COLORS,
  categoricalColorMap,
  fieldColorScale,
  stableColor,
  type MetadataFieldInfo,
} from '@loupe/contracts';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CONTINUOUS_STEPS,
  categoricalColor,
  colorAvailability,
  colorScale,
  continuousStep,
  continuousStepColor,
} from './colorRules';

const field = (change: Partial<MetadataFieldInfo>): MetadataFieldInfo => ({
  id: 'f',
  name: 'f',
  label: 'F',
  description: '',
  group: 'Uploaded',
  source: 'uploaded',
  state: 'available',
  type: 'string',
  ...change,
});
const messages = {
  tooManyValues: 'Cannot color due to too many unique categorical values',
  recomputing: 'Recomputing',
};

describe('which properties can colour', () => {
  test('categorical: booleans and strings with allowed values; continuous: numbers and timestamps', () => {
    expect(colorAvailability(field({ type: 'boolean' }), messages)).toEqual({
      kind: 'categorical',
      reason: null,
    });
    expect(colorAvailability(field({ options: { allowed_values: ['a'] } }), messages).kind).toBe(
      'categorical',
    );
    expect(colorAvailability(field({ type: 'numeric' }), messages).kind).toBe('continuous');
    expect(colorAvailability(field({ type: 'timestamp' }), messages).kind).toBe('continuous');
  });
  test('strings without allowed values and pending properties cannot colour, with a reason', () => {
    expect(colorAvailability(field({}), messages)).toEqual({
      kind: null,
      reason: 'Cannot color due to too many unique categorical values',
    });
    expect(colorAvailability(field({ type: 'numeric', state: 'pending' }), messages).reason).toBe(
      'Recomputing',
    );
  });
});

describe('palettes', () => {
  test('the categorical palette gives 250 classes 250 different colours', () => {
    const colors = new Set(Array.from({ length: 250 }, (_, i) => categoricalColor(i)));
    expect(colors.size).toBe(250);
  });
  test('the continuous scale has 200 steps from min to max', () => {
    expect(continuousStep(0, 0, 10)).toBe(0);
    expect(continuousStep(10, 0, 10)).toBe(CONTINUOUS_STEPS - 1);
    expect(continuousStep(5, 0, 10)).toBe(100);
    expect(continuousStep(-3, 0, 10)).toBe(0);
    const steps = new Set(
      Array.from({ length: CONTINUOUS_STEPS }, (_, i) => continuousStepColor(i)),
    );
    expect(steps.size).toBeGreaterThan(150);
    expect(continuousStepColor(0)).toBe('rgb(68, 1, 84)');
    expect(continuousStepColor(199)).toBe('rgb(253, 231, 37)');
  });
  test('a scale colours values and leaves missing ones uncoloured; label fields take class colours', () => {
    const scale = colorScale(
      field({ id: 'label', options: { allowed_values: ['bus', 'car'] } }),
      'categorical',
      { car: '#ff0000' },
    );
    expect(scale.colorOf('car')).toBe('#ff0000');
    expect(scale.colorOf(null)).toBeNull();
    // Another string field keeps its own order, even where a value is also a class name.
    const other = colorScale(
      field({ options: { allowed_values: ['car', 'bus'] } }),
      'categorical',
      { bus: '#ff0000' },
    );
    expect(other.colorOf('bus')).toBe(categoricalColor(1));
    const numeric = colorScale(
      field({ type: 'numeric', options: { min: 0, max: 1 } }),
      'continuous',
    );
    expect(numeric.colorOf(1)).toBe(continuousStepColor(199));
    expect(numeric.colorOf(undefined)).toBeNull();
  });
});

// The map's legend colours come from the same fieldColorScale on the server (embeddings
// legend.test.ts and the server's embeddings tests show it); here the grid's side.
describe('the grid colours by the shared rule', () => {
  const classes = ['circle', 'square', 'triangle'];
  const colorMap = categoricalColorMap(classes);

  test('booleans: false warm, true cool, in the cards and the legend', () => {
    const info = field({ id: 'prediction.is_correct', type: 'boolean' });
    const grid = colorScale(info, 'categorical', colorMap);
    expect(grid.colorOf(false)).toBe(BOOLEAN_COLORS.false);
    expect(grid.colorOf('false')).toBe(BOOLEAN_COLORS.false);
    expect(grid.colorOf(true)).toBe(BOOLEAN_COLORS.true);
    expect(grid.categories).toEqual([
      { value: 'false', color: BOOLEAN_COLORS.false },
      { value: 'true', color: BOOLEAN_COLORS.true },
    ]);
  });

  test('class labels and other strings: the rule’s colour, as the server computes it from class names', () => {
    const values = ['triangle', 'hexagon', 'circle', 'square'];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(values, { minLength: 1 }),
        fc.constantFrom('label', 'object.label', 'prediction.label', 'camera'),
        (allowed, id) => {
          const info = field({ id, options: { allowed_values: allowed } });
          const grid = colorScale(info, 'categorical', colorMap);
          // The server knows the class names, not the colour map.
          const server = fieldColorScale(info, { class_names: classes });
          for (const value of values) expect(grid.colorOf(value)).toBe(server(value));
          for (const { value, color } of grid.categories!) expect(color).toBe(server(value));
        },
      ),
    );
    // A class keeps its class's colour wherever it is listed; a label outside the class list a
    // stable one.
    const label = colorScale(
      field({ id: 'label', options: { allowed_values: ['square', 'hexagon'] } }),
      'categorical',
      colorMap,
    );
    expect(label.colorOf('square')).toBe(categoricalColor(1));
    expect(label.colorOf('hexagon')).toBe(stableColor('hexagon'));
  });
});
