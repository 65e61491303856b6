// Bounded arrays and filter depth: length before items, 20 wrong items listed and the rest counted.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ITEM_ISSUES_LISTED, boundedArray, boundedRecord } from './bounded.js';
import { FILTER_MAX_DEPTH, Filter, filterDepth } from './explore.js';

const Body = z.object({ ids: boundedArray(z.string(), 1_000_000).describe('ids') });

describe('boundedArray', () => {
  it('refuses an over-long array by its length alone', () => {
    const result = Body.safeParse({ ids: new Array(1_000_001).fill(1) });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'too_big',
        path: ['ids'],
        message: 'at most 1,000,000 items',
      }),
    ]);
  });

  it('lists the first wrong items and counts the rest', () => {
    const result = Body.safeParse({ ids: new Array(1_000_000).fill(1) });
    const issues = result.error!.issues;
    expect(issues).toHaveLength(ITEM_ISSUES_LISTED + 1);
    expect(issues[0]).toMatchObject({ code: 'invalid_type', path: ['ids', 0] });
    expect(issues.at(-1)).toMatchObject({
      code: 'custom',
      path: ['ids'],
      message: '… and 999,980 more invalid items',
      params: { more: 999_980 },
    });
  });

  it('reports every wrong item of a short array, and parses good ones', () => {
    expect(Body.safeParse({ ids: ['a', 2, 'c', 4] }).error?.issues.map((i) => i.path)).toEqual([
      ['ids', 1],
      ['ids', 3],
    ]);
    expect(Body.parse({ ids: ['a', 'b'] })).toEqual({ ids: ['a', 'b'] });
    expect(Body.safeParse({ ids: 'a' }).error?.issues[0]).toMatchObject({ code: 'invalid_type' });
    expect(boundedArray(z.number(), 3).min(1).safeParse([]).success).toBe(false);
  });

  it('keeps the maximum in the JSON schema', () => {
    expect(z.toJSONSchema(Body, { io: 'input' }).properties!.ids).toMatchObject({
      type: 'array',
      maxItems: 1_000_000,
    });
  });
});

describe('Filter depth', () => {
  const nested = (depth: number): unknown => {
    let filter: unknown = { type: 'boolean', metadata_id: 'm', op: 'bool_equals', value: true };
    for (let i = 1; i < depth; i++)
      filter = i % 2 ? { type: 'not', child: filter } : { type: 'and', children: [filter] };
    return filter;
  };

  it('counts levels without recursion', () => {
    expect(filterDepth(nested(5))).toBe(5);
    expect(filterDepth(nested(100_000))).toBe(FILTER_MAX_DEPTH + 1);
  });

  it(`accepts ${FILTER_MAX_DEPTH} levels and refuses more, naming the limit`, () => {
    expect(Filter.safeParse(nested(FILTER_MAX_DEPTH)).success).toBe(true);
    expect(Filter.safeParse(nested(FILTER_MAX_DEPTH + 1)).error?.issues[0]?.message).toBe(
      `filters may nest at most ${FILTER_MAX_DEPTH} levels of and/or/not`,
    );
  });
});

describe('boundedRecord', () => {
  const Metadata = z.object({
    metadata: boundedRecord(
      z.string(),
      z.union([z.number(), z.string()]),
      1_000,
      'at most 1,000 fields',
    ),
  });

  it('refuses a record by its number of keys before reading any value', () => {
    const metadata: Record<string, unknown> = {};
    for (let i = 0; i < 1_000_000; i++) metadata[`k${i}`] = { wrong: true };
    const result = Metadata.safeParse({ metadata });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toHaveLength(1);
    expect(result.error!.issues[0]).toMatchObject({
      path: ['metadata'],
      message: 'at most 1,000 fields',
    });
  });

  it('parses a record within the bound, and reports its wrong values', () => {
    expect(Metadata.parse({ metadata: { a: 1, b: 'x' } })).toEqual({ metadata: { a: 1, b: 'x' } });
    const wrong = Metadata.safeParse({ metadata: { a: true } });
    expect(wrong.error!.issues[0]!.path).toEqual(['metadata', 'a']);
  });

  it('keeps the maximum in the JSON schema', () => {
    expect(z.toJSONSchema(Metadata).properties!.metadata).toMatchObject({ maxProperties: 1_000 });
  });
});
