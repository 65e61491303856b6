// The filter builder's conditions to the explorer's filter and back.
import { expect, test } from 'vitest';
import { conditionsFilter, conditionsOf, type Condition } from './filterRules';

test('complete conditions make an and-filter; any incomplete one makes none', () => {
  const conditions: Condition[] = [
    { fieldId: 'blurry', type: 'boolean', value: true },
    { fieldId: 'width', type: 'numeric', from: 10, to: null },
    { fieldId: 'split', type: 'string', values: ['train'] },
  ];
  const filter = conditionsFilter(conditions);
  expect(filter).toEqual({
    type: 'and',
    children: [
      { type: 'boolean', metadata_id: 'blurry', op: 'bool_equals', value: true },
      { type: 'numeric', metadata_id: 'width', op: 'between', value: [10, null] },
      { type: 'string', metadata_id: 'split', op: 'in', value: ['train'] },
    ],
  });
  expect(conditionsOf(filter)).toEqual(conditions);
  expect(conditionsFilter([])).toBeNull();
  expect(conditionsFilter([...conditions, { fieldId: null }])).toBeNull();
  expect(conditionsFilter([{ fieldId: 'w', type: 'numeric', from: 5, to: 1 }])).toBeNull();
  expect(conditionsFilter([{ fieldId: 's', type: 'string', values: [] }])).toBeNull();
});
