// The nesting scan that runs on every JSON body before JSON.parse: right about strings, and linear
// on text built to make a pattern backtrack.
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, nestedDeeperThan } from './json-body.js';

describe('nestedDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings or after escaped quotes', () => {
    expect(nestedDeeperThan('[[{"a":[1]}]]', 4)).toBe(false);
    expect(nestedDeeperThan('[[{"a":[1]}]]', 3)).toBe(true);
    expect(nestedDeeperThan('["[[[[", "\\"[[[[", {"k\\\\": "]]]]"}]', 2)).toBe(false);
    expect(nestedDeeperThan('"unterminated [[[[', 1)).toBe(false);
  });

  it('scans an unterminated string of escaped quotes in one pass', () => {
    // 2 MB: quadratic over this, the scan would take many minutes and the test would time out.
    const crafted = '"' + '\\"'.repeat(1_000_000);
    expect(nestedDeeperThan(crafted, 128)).toBe(false);
    expect(nestedDeeperThan(`${'['.repeat(200)}${crafted}`, 128)).toBe(true);
  });
});

describe('jsonShapeProblem', () => {
  it('counts the members of each object, not of arrays or strings', () => {
    expect(jsonShapeProblem('{"a":1,"b":2,"c":{"d":[1,2,3,4,5]}}', 8, 3)).toBeUndefined();
    expect(jsonShapeProblem('{"a":1,"b":2,"c":3,"d":4}', 8, 3)).toBe('too many members');
    expect(jsonShapeProblem('{"a":"x,y,z,w","b":[1,2,3,4,5,6]}', 8, 3)).toBeUndefined();
    expect(jsonShapeProblem('[{"a":1},{"b":1},{"c":1},{"d":1}]', 8, 3)).toBeUndefined();
  });
});
