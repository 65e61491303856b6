import { expect, test } from 'vitest';
import { leaveComparison, withoutComparisonFilters } from './leaveComparison';

test('leaving a comparison drops its fields from filter, sort, colour and cards only', () => {
  const change = leaveComparison({
    filter: {
      type: 'and',
      children: [
        { type: 'string', metadata_id: 'object.type', op: 'in', value: ['gt'] },
        {
          type: 'string',
          metadata_id: 'comparison.category',
          op: 'in',
          value: ['model_a_is_better'],
        },
      ],
    },
    sort: [
      { name: 'comparison.delta', direction: 'ascending' },
      { name: 'width', direction: 'descending' },
    ],
    colorBy: 'comparison.category',
    cardToggles: ['label', 'comparison.category', 'comparison.delta'],
  });
  expect(change).toEqual({
    compare: null,
    filter: {
      type: 'and',
      children: [{ type: 'string', metadata_id: 'object.type', op: 'in', value: ['gt'] }],
    },
    sort: [{ name: 'width', direction: 'descending' }],
    colorBy: null,
    cardToggles: ['label'],
  });
  expect(
    leaveComparison({ filter: null, sort: [], colorBy: 'label', cardToggles: [] }),
  ).toMatchObject({ filter: null, colorBy: 'label' });
});

test('a filter only on comparison fields is no filter; other conditions stay as they are', () => {
  expect(
    withoutComparisonFilters({
      type: 'not',
      child: { type: 'numeric', metadata_id: 'comparison.bin', op: 'between', value: [3, 3] },
    }),
  ).toBeNull();
  const history = { type: 'history', record_id: 'r1' } as const;
  expect(withoutComparisonFilters({ type: 'or', children: [history] })).toEqual({
    type: 'or',
    children: [history],
  });
});
