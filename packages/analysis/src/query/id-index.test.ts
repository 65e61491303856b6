import { describe, expect, it } from 'vitest';
import { rowIndex } from './id-index.js';

const tableOf = (ids: string[]) => ({ ids, length: ids.length });

describe('rowIndex', () => {
  it('finds the row of every id of a large table and nothing else', () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => `img-${String(i).padStart(7, '0')}.jpg`);
    const index = rowIndex(tableOf(ids));
    for (let row = 0; row < ids.length; row += 7) expect(index.get(ids[row]!)).toBe(row);
    expect(index.get(ids[ids.length - 1]!)).toBe(ids.length - 1);
    expect(index.get('img-0050000.jpg')).toBeUndefined();
    expect(index.get('')).toBeUndefined();
    expect(index.get('img-0000001.jpg ')).toBeUndefined();
  });

  it('answers ids of any characters, and keeps the last row of a repeated id as a Map would', () => {
    const ids = ['a', 'é/ü', '日本', 'a', '', 'x'.repeat(1000)];
    const index = rowIndex(tableOf(ids));
    expect(index.get('a')).toBe(3);
    expect(index.get('é/ü')).toBe(1);
    expect(index.get('日本')).toBe(2);
    expect(index.get('')).toBe(4);
    expect(index.get('x'.repeat(1000))).toBe(5);
    expect(index.get('x'.repeat(999))).toBeUndefined();
  });

  it('indexes only the table’s rows, and is kept per ids array', () => {
    const ids = ['a', 'b', 'c'];
    const short = { ids, length: 2 };
    const index = rowIndex(short);
    expect(index.get('b')).toBe(1);
    expect(index.get('c')).toBeUndefined();
    // A snapshot sharing the ids array shares the index; another array gets its own.
    expect(rowIndex({ ids, length: 2 })).toBe(index);
    expect(rowIndex(tableOf(['a', 'b', 'c']))).not.toBe(index);
    expect(rowIndex(tableOf([])).get('a')).toBeUndefined();
  });
});
