import type { MetadataFieldInfo } from '@loupe/contracts';
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
  test('a scale colours values and leaves missing ones uncoloured; class colours win', () => {
    const scale = colorScale(
      field({ options: { allowed_values: ['car', 'bus'] } }),
      'categorical',
      {
        car: '#ff0000',
      },
    );
    expect(scale.colorOf('car')).toBe('#ff0000');
    expect(scale.colorOf('bus')).toBe(categoricalColor(1));
    expect(scale.colorOf(null)).toBeNull();
    const numeric = colorScale(
      field({ type: 'numeric', options: { min: 0, max: 1 } }),
      'continuous',
    );
    expect(numeric.colorOf(1)).toBe(continuousStepColor(199));
    expect(numeric.colorOf(undefined)).toBeNull();
  });
});
