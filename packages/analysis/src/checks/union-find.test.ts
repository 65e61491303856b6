import { describe, expect, it } from 'vitest';
import { filterGroups, UnionFind } from './union-find.js';

const lists = (members: Int32Array[]) => members.map((m) => Array.from(m));

describe('UnionFind', () => {
  it('joins sets and lists those of two or more rows, numbered by first member', () => {
    const union = new UnionFind(8);
    expect(union.union(5, 2)).toBe(true);
    expect(union.union(7, 1)).toBe(true);
    expect(union.union(2, 7)).toBe(true);
    expect(union.union(5, 1)).toBe(false);
    expect(union.union(3, 6)).toBe(true);
    expect(union.sizeOf(1)).toBe(4);
    const { group, members } = union.groups();
    expect(lists(members)).toEqual([
      [1, 2, 5, 7],
      [3, 6],
    ]);
    expect(Array.from(group)).toEqual([-1, 0, 0, 1, -1, 0, 1, 0]);
  });

  it('keeps chosen groups and renumbers them in order', () => {
    const union = new UnionFind(6);
    union.union(0, 1);
    union.union(2, 3);
    union.union(4, 5);
    const kept = filterGroups(union.groups(), (_, index) => index !== 1);
    expect(lists(kept.members)).toEqual([
      [0, 1],
      [4, 5],
    ]);
    expect(Array.from(kept.group)).toEqual([0, 0, -1, -1, 1, 1]);
  });
});
