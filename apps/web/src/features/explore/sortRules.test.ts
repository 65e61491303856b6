import { describe, expect, test } from 'vitest';
import {
  addSort,
  canAddSort,
  changeSortDirection,
  changeSortProperty,
  chooseSort,
  moveSort,
  removeSort,
} from './sortRules';

const asc = (name: string) => ({ name, direction: 'ascending' as const });
const desc = (name: string) => ({ name, direction: 'descending' as const });

describe('quick sort choice', () => {
  test('with no sort, choosing a property sorts ascending by it', () => {
    expect(chooseSort([], 'width')).toEqual([asc('width')]);
  });
  test('with one sort, choosing another replaces it and keeps the direction', () => {
    expect(chooseSort([desc('width')], 'height')).toEqual([desc('height')]);
    expect(chooseSort([asc('width')], 'height')).toEqual([asc('height')]);
  });
  test('choosing the single sorted property again clears the sort', () => {
    expect(chooseSort([desc('width')], 'width')).toEqual([]);
  });
});

describe('multi-sort editor', () => {
  const properties = ['width', 'height', 'label'];
  test('added sorts take the next unused property, descending', () => {
    expect(addSort([asc('width')], properties)).toEqual([asc('width'), desc('height')]);
  });
  test('multi-add is offered only while unused properties remain', () => {
    expect(canAddSort([asc('width'), desc('height')], properties)).toBe(true);
    const all = [asc('width'), desc('height'), desc('label')];
    expect(canAddSort(all, properties)).toBe(false);
    expect(addSort(all, properties)).toBe(all);
  });
  test('entries change, move and go', () => {
    const sorts = [asc('width'), desc('height'), desc('label')];
    expect(moveSort(sorts, 2, 0)).toEqual([desc('label'), asc('width'), desc('height')]);
    expect(moveSort(sorts, 0, 5)).toBe(sorts);
    expect(removeSort(sorts, 1)).toEqual([asc('width'), desc('label')]);
    expect(changeSortDirection(sorts, 0, 'descending')[0]).toEqual(desc('width'));
    expect(changeSortProperty([asc('width')], 0, 'label')).toEqual([asc('label')]);
    // A property already used elsewhere is not taken twice.
    expect(changeSortProperty(sorts, 0, 'label')).toBe(sorts);
  });
});
