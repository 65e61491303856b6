import { categoricalColor, categoricalColorMap, fieldValueColor } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { labelColor } from './classColors';

const classes = ['circle', 'square', 'triangle'];
const label = { id: 'label', type: 'string' as const };

test('a class has the colour the grid and the map give it, with or without the colour map', () => {
  const colorMap = categoricalColorMap(classes);
  for (const name of [...classes, 'hexagon']) {
    const grid = fieldValueColor(label, name, { color_map: colorMap });
    expect(labelColor(name, colorMap, classes), name).toBe(grid);
    // Before the colour map arrives the class order gives the same colours.
    expect(labelColor(name, undefined, classes), name).toBe(grid);
  }
  expect(labelColor('triangle', undefined, classes)).toBe(categoricalColor(2));
});

test('the colour map wins, and a label outside the class list keeps one colour', () => {
  expect(labelColor('square', { square: '#123456' }, classes)).toBe('#123456');
  const outside = labelColor('hexagon', undefined, classes);
  expect(labelColor('hexagon', undefined, [...classes, 'star'])).toBe(outside);
  expect(classes.map((name) => labelColor(name, undefined, classes))).not.toContain(outside);
});
