import type { MetadataFieldInfo } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { BUILTIN_FIELDS, cardConfigFieldsFor, cardFieldsFor } from './cardFields';

const field = (id: string): MetadataFieldInfo => ({
  id,
  name: id,
  label: id,
  description: '',
  group: 'Uploaded',
  source: 'uploaded',
  state: 'available',
  type: 'string',
});
const byId = (fields: MetadataFieldInfo[]) => new Map(fields.map((f) => [f.id, f]));

test('card toggles resolve to fields in toggle order, once each, label across levels', () => {
  const objectLevel = [field('object.label'), field('width')];
  expect(
    cardFieldsFor(['width', 'label', 'object.label', 'unknown'], byId(objectLevel)).map(
      (f) => f.id,
    ),
  ).toEqual(['width', 'object.label']);
  // Without fields, the label and split are built in; other toggles wait for their field.
  expect(cardFieldsFor(['similarity_score', 'label', 'split'], byId([]))).toEqual([
    BUILTIN_FIELDS.label,
    BUILTIN_FIELDS.split,
  ]);
});

test('card config offers the built-in values no field carries, then every field', () => {
  const fields = [field('object.label'), field('width')];
  expect(cardConfigFieldsFor(fields, byId(fields)).map((f) => f.id)).toEqual([
    'split',
    'object.label',
    'width',
  ]);
  const withSplit = [field('label'), field('split')];
  expect(cardConfigFieldsFor(withSplit, byId(withSplit)).map((f) => f.id)).toEqual([
    'label',
    'split',
  ]);
});
