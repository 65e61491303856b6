import type { HistoryRecord } from '@loupe/contracts';
import { describe, expect, test } from 'vitest';
import {
  countFilters,
  filtersEqual,
  historyDisabledReason,
  isDateOutside,
  numericFilter,
  numericStep,
  roundBounds,
  timestampFilter,
  validateNumericRange,
  withChild,
  withoutChild,
} from './filterRules';
import { exploreStrings as strings } from './strings';

const messages = { from: strings.fromError, to: strings.toError };

describe('numeric bounds', () => {
  test('are rounded outward to two decimals', () => {
    expect(roundBounds(0.123, 9.871)).toEqual([0.12, 9.88]);
    expect(roundBounds(-1.005, 2)).toEqual([-1.01, 2]);
    // 0.29 * 100 is 28.999999999999996 in floating point: still 0.29, not 0.28.
    expect(roundBounds(0.29, 0.57)).toEqual([0.29, 0.57]);
  });
  test('step is one hundredth of the range', () => {
    expect(numericStep(0, 50)).toBe(0.5);
    expect(numericStep(3, 3)).toBe(0.01);
  });
  test('From must lie in [min, To] and To in [From, max], else the input has an error', () => {
    const bounds: [number, number] = [0, 10];
    expect(validateNumericRange(2, 8, bounds, messages)).toEqual({});
    expect(validateNumericRange(-1, 8, bounds, messages)).toEqual({
      from: 'From must be at least 0 and at most To.',
    });
    expect(validateNumericRange(2, 11, bounds, messages)).toEqual({
      to: 'To must be at most 10 and at least From.',
    });
    expect(Object.keys(validateNumericRange(9, 3, bounds, messages))).toEqual(['from', 'to']);
    expect(validateNumericRange(null, null, bounds, messages)).toEqual({});
  });
});

describe('the filter tree', () => {
  test('keeps one child per property, counts children and drops an empty and', () => {
    let filter = withChild(null, numericFilter('width', 1, 2));
    filter = withChild(filter, {
      type: 'boolean',
      metadata_id: 'ok',
      op: 'bool_equals',
      value: true,
    });
    filter = withChild(filter, numericFilter('width', 3, 4));
    expect(countFilters(filter)).toBe(2);
    expect(filter).toEqual({
      type: 'and',
      children: [
        numericFilter('width', 3, 4),
        { type: 'boolean', metadata_id: 'ok', op: 'bool_equals', value: true },
      ],
    });
    expect(withoutChild(withoutChild(filter, 'width'), 'ok')).toBeNull();
  });
  test('an empty and equals no filter; other shapes throw', () => {
    expect(filtersEqual({ type: 'and', children: [] }, null)).toBe(true);
    expect(filtersEqual(withChild(null, numericFilter('w', 1, 2)), null)).toBe(false);
    expect(() => countFilters({ type: 'or', children: [] })).toThrow(
      "Unsupported filter type 'or'",
    );
  });
});

describe('timestamps', () => {
  test('equal start and end become ts_equals', () => {
    expect(timestampFilter('taken', 5, 5)).toEqual({
      type: 'timestamp',
      metadata_id: 'taken',
      op: 'ts_equals',
      value: 5,
    });
    expect(timestampFilter('taken', 5, 9).op).toBe('ts_between');
  });
  test('days outside the property range are disabled', () => {
    const min = Date.UTC(2024, 0, 10, 12);
    const max = Date.UTC(2024, 0, 20, 8);
    expect(isDateOutside(Date.UTC(2024, 0, 9), min, max)).toBe(true);
    expect(isDateOutside(Date.UTC(2024, 0, 10), min, max)).toBe(false);
    expect(isDateOutside(Date.UTC(2024, 0, 20), min, max)).toBe(false);
    expect(isDateOutside(Date.UTC(2024, 0, 21), min, max)).toBe(true);
  });
});

describe('history options', () => {
  const record = (change: Partial<HistoryRecord>): HistoryRecord => ({
    id: 'r1',
    timestamp: 0,
    num_items: 3,
    data_level: 'image',
    operation_type: 'sample.label:edit',
    user_name: 'Ana',
    restorable: false,
    restored_by: null,
    items_deleted: false,
    ...change,
  });
  const texts = { deleted: strings.historyDeleted, otherLevel: strings.historyOtherLevel };
  test('deletions cannot be filtered by', () => {
    for (const operation_type of ['sample:delete', 'object:delete'] as const) {
      expect(
        historyDisabledReason(record({ operation_type }), 'image', 'object_detection', texts),
      ).toBe('Cannot filter by this action - items have been deleted');
    }
    // A relabel whose items were deleted afterwards has nothing left to show.
    expect(
      historyDisabledReason(record({ items_deleted: true }), 'image', 'object_detection', texts),
    ).toBe('Cannot filter by this action - items have been deleted');
  });
  test('a record of another data level names that level', () => {
    expect(
      historyDisabledReason(
        record({ data_level: 'image_object', operation_type: 'object.label:edit' }),
        'image',
        'object_detection',
        texts,
      ),
    ).toBe('Cannot filter by this action - it was performed on object data level');
    expect(historyDisabledReason(record({}), 'image_object', 'object_detection', texts)).toBe(
      'Cannot filter by this action - it was performed on sample data level',
    );
    expect(historyDisabledReason(record({}), 'image', 'object_detection', texts)).toBeNull();
  });
});
