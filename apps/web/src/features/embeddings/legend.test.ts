import {
  BOOLEAN_COLORS,
  categoricalColorMap,
  fieldColorScale,
  type ColorField,
} from '@loupe/contracts';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  CONTINUOUS_STEPS,
  categoricalColor,
  continuousStep,
  continuousStepColor,
  opaqueOver,
  stableColor,
  toRgba,
} from './colors';
import { buildColorScheme } from './legend';

const base = { neutral: '#1668dc', missing: '#cccccc' };

test('no colouring: one colour for every point', () => {
  const scheme = buildColorScheme(null, base);
  expect(scheme.kind).toBe('none');
  expect(scheme.palette[scheme.indexOf('anything')]).toBe('#1668dc');
});

test('categories keep the server colour, fall back to one by label, and unknown or empty keys are missing', () => {
  const scheme = buildColorScheme(
    {
      type: 'categorical',
      categories: [
        { key: '0', label: 'cat', color: '#ff0000' },
        { key: '1', label: 'dog', color: '' },
      ],
    },
    base,
  );
  expect(scheme.categories.map((c) => [c.label, c.color])).toEqual([
    ['cat', '#ff0000'],
    ['dog', stableColor('dog')],
  ]);
  expect(scheme.palette[scheme.indexOf('0')]).toBe('#ff0000');
  expect(scheme.palette[scheme.indexOf('1')]).toBe(stableColor('dog'));
  expect(scheme.palette[scheme.indexOf('')]).toBe('#cccccc');
  expect(scheme.palette[scheme.indexOf('7')]).toBe('#cccccc');
});

test('250 classes get 250 different colours', () => {
  const colors = new Set(Array.from({ length: 250 }, (_, i) => categoricalColor(i)));
  expect(colors.size).toBe(250);
});

test('continuous: 200 steps from min to max, the maximum in the last step, non-numbers missing', () => {
  const scheme = buildColorScheme({ type: 'continuous', min: 10, max: 20 }, base);
  expect(scheme.palette).toHaveLength(CONTINUOUS_STEPS + 1);
  expect(scheme.range).toEqual([10, 20]);
  expect(scheme.indexOf('10')).toBe(0);
  expect(scheme.indexOf('15')).toBe(100);
  expect(scheme.indexOf('20')).toBe(199);
  expect(scheme.indexOf('25')).toBe(199);
  expect(scheme.indexOf('')).toBe(CONTINUOUS_STEPS);
  expect(scheme.indexOf('n/a')).toBe(CONTINUOUS_STEPS);
  expect(continuousStep(3, 3, 3)).toBe(0);
});

test('CSS colours become normalised RGBA for WebGL', () => {
  expect(toRgba('#ff0000')).toEqual([1, 0, 0, 1]);
  expect(toRgba('#0f0')).toEqual([0, 1, 0, 1]);
  expect(toRgba('rgba(0, 0, 0, 0.25)')).toEqual([0, 0, 0, 0.25]);
  expect(toRgba('rgb(255 255 255)')).toEqual([1, 1, 1, 1]);
  expect(toRgba('chartreuse')).toEqual([0.5, 0.5, 0.5, 1]);
});

test('a translucent colour over a background becomes the opaque mix', () => {
  expect(opaqueOver('rgba(0, 0, 0, 0.25)', '#ffffff')).toEqual([0.75, 0.75, 0.75, 1]);
  expect(opaqueOver('#ff0000', '#000000')).toEqual([1, 0, 0, 1]);
});

test('a value has the colour the grid gives it, whatever the legend lists and in which order', () => {
  // The server lists the values present after the filter, each coloured by fieldColorScale; the
  // grid colours by the same rule with the colour map (explore colorRules.test.ts).
  const classes = ['circle', 'square', 'triangle'];
  const values = ['triangle', 'hexagon', 'circle', 'square'];
  const fields: ColorField[] = [
    { id: 'prediction.is_correct', type: 'boolean' },
    { id: 'label', type: 'string', options: { allowed_values: values } },
    { id: 'camera', type: 'string', options: { allowed_values: values } },
  ];
  fc.assert(
    fc.property(
      fc.constantFrom(...fields),
      fc.shuffledSubarray(values, { minLength: 1 }),
      fc.shuffledSubarray(['false', 'true'], { minLength: 1 }),
      (field, strings, booleans) => {
        const present = field.type === 'boolean' ? booleans : strings;
        const server = fieldColorScale(field, { class_names: classes });
        const grid = fieldColorScale(field, { color_map: categoricalColorMap(classes) });
        const scheme = buildColorScheme(
          {
            type: 'categorical',
            categories: present.map((label, code) => ({
              key: String(code),
              label,
              color: server(label)!,
            })),
          },
          base,
        );
        present.forEach((value, code) => {
          expect(scheme.palette[scheme.indexOf(String(code))]).toBe(grid(value));
        });
      },
    ),
  );
  const booleans = buildColorScheme(
    {
      type: 'categorical',
      categories: ['true', 'false'].map((label, code) => ({
        key: String(code),
        label,
        color: fieldColorScale(fields[0]!)(label)!,
      })),
    },
    base,
  );
  expect(booleans.palette.slice(0, 2)).toEqual([BOOLEAN_COLORS.true, BOOLEAN_COLORS.false]);
});

test('continuous: the legend range is the field’s, so a value keeps its step under any filter', () => {
  const field: ColorField = { id: 'exposure', type: 'numeric', options: { min: 0, max: 40 } };
  const scheme = buildColorScheme({ type: 'continuous', min: 0, max: 40 }, base);
  for (const value of [0, 7.5, 20, 39.9, 40])
    expect(scheme.palette[scheme.indexOfValue(value)]).toBe(fieldColorScale(field)(value));
  expect(scheme.palette[scheme.indexOfValue(40)]).toBe(continuousStepColor(CONTINUOUS_STEPS - 1));
});
