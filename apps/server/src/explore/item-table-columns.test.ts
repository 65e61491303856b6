import { describe, expect, it } from 'vitest';
import type { FieldDef } from './field-catalogue.js';
import { Columns } from './item-table-columns.js';

const field = (id: string, type: FieldDef['type']): FieldDef => ({
  id,
  name: id,
  label: id,
  description: '',
  group: 'Uploaded',
  source: 'uploaded',
  type,
});

describe('Columns', () => {
  const defs = [
    field('size', 'numeric'),
    field('taken', 'timestamp'),
    field('ok', 'boolean'),
    field('camera', 'string'),
  ];

  it('keeps values of the field’s type, and counts others as missing', () => {
    const columns = new Columns(defs, 4);
    columns.set('size', 0, 3.5);
    columns.set('size', 1, '4'); // a string in a numeric field
    columns.set('size', 2, Infinity);
    columns.set('size', 3, 7);
    columns.set('taken', 0, '2024-01-02T00:00:00Z');
    columns.set('taken', 1, 'yesterday');
    columns.set('ok', 0, true);
    columns.set('ok', 1, 'true'); // not a boolean
    columns.set('camera', 2, 'x100');
    columns.set('camera', 3, 7);
    columns.set('unknown', 0, 1); // no such field: ignored
    const inputs = columns.inputs(4);
    expect(Array.from((inputs.size as { values: Float64Array }).values)).toEqual([
      3.5,
      NaN,
      NaN,
      7,
    ]);
    expect((inputs.taken as { values: Float64Array }).values[0]).toBe(
      Date.parse('2024-01-02T00:00:00Z'),
    );
    expect(Number.isNaN((inputs.taken as { values: Float64Array }).values[1])).toBe(true);
    expect(inputs.ok).toEqual({ type: 'boolean', codes: Int32Array.from([1, -1, -1, -1]) });
    expect(inputs.camera).toEqual({
      type: 'string',
      codes: Int32Array.from([-1, -1, 0, -1]),
      categories: ['x100'],
    });
  });

  it('permutes every column by the given order (new row → old row)', () => {
    const columns = new Columns(defs, 3);
    ['a', 'b', 'c'].forEach((camera, row) => {
      columns.set('camera', row, camera);
      columns.set('size', row, row * 10);
    });
    const inputs = columns.inputs(3, Uint32Array.from([2, 0, 1]));
    expect(Array.from((inputs.size as { values: Float64Array }).values)).toEqual([20, 0, 10]);
    expect((inputs.camera as { codes: Int32Array }).codes).toEqual(Int32Array.from([2, 0, 1]));
  });
});
