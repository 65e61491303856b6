import { describe, expect, it } from 'vitest';
import { GrowingArray } from './growing.js';

describe('GrowingArray', () => {
  it('keeps what was pushed and written into reserved room, past its first capacity', () => {
    const grown = new GrowingArray(new Int32Array(2));
    for (let i = 0; i < 5; i++) grown.push(i * 10);
    const room = grown.reserve(3);
    room.set([7, 8, 9], grown.length);
    grown.length += 3;
    grown.push(-1);
    const out = grown.toArray();
    expect(out).toBeInstanceOf(Int32Array);
    expect([...out]).toEqual([0, 10, 20, 30, 40, 7, 8, 9, -1]);
  });

  it('answers an empty array of its type when nothing was added', () => {
    const out = new GrowingArray(new Float32Array(4)).toArray();
    expect(out).toBeInstanceOf(Float32Array);
    expect(out).toHaveLength(0);
  });
});
