import type { MetadataFieldInfo } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { formatMetadataValue, groupMetadata } from './formatMetadata';

const field = (
  id: string,
  group: string,
  type: MetadataFieldInfo['type'],
  label = id,
): MetadataFieldInfo => ({
  id,
  name: id,
  label,
  description: '',
  group,
  source: 'computed',
  state: 'available',
  type,
});

test('values: numbers to 3 decimals, timestamps as dates, booleans, missing', () => {
  expect(formatMetadataValue(0.123456, 'numeric')).toBe('0.123');
  expect(formatMetadataValue(2, 'numeric')).toBe('2');
  expect(formatMetadataValue(true, 'boolean')).toBe('true');
  expect(formatMetadataValue(null, 'string')).toBe('—');
  const ts = Date.UTC(2024, 0, 2, 3, 4, 5);
  expect(formatMetadataValue(ts, 'timestamp')).toBe(new Date(ts).toLocaleString());
  expect(formatMetadataValue('cloudy', 'string')).toBe('cloudy');
});

test("the 'Card config' group comes first, then groups by name; search filters rows", () => {
  const fields = [
    field('brightness', 'Image', 'numeric', 'Brightness'),
    field('city', 'Uploaded', 'string', 'City'),
    field('split', 'Builtin', 'string', 'Split'),
  ];
  const values = { brightness: 0.51234, city: 'Oslo', split: 'train' };
  const groups = groupMetadata(fields, values, ['city']);
  expect(groups.map((g) => g.name)).toEqual(['Card config', 'Builtin', 'Image', 'Uploaded']);
  expect(groups[0]!.rows).toEqual([{ id: 'city', label: 'City', value: 'Oslo' }]);
  expect(groupMetadata(fields, values, [], 'bright')).toEqual([
    { name: 'Image', rows: [{ id: 'brightness', label: 'Brightness', value: '0.512' }] },
  ]);
  expect(groupMetadata(fields, values, [], 'oslo').map((g) => g.name)).toEqual(['Uploaded']);
  expect(groupMetadata(fields, values, ['city'], 'zzz')).toEqual([]);
});
