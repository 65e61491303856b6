import { expect, test } from 'vitest';
import { alignTranscripts } from './transcript';

test('a substitution and a deletion, the rest correct', () => {
  const view = alignTranscripts('the cat sat on the mat', 'the cat sit on mat');
  expect(view.columns.map((c) => c.type)).toEqual(['-', '-', 'S', '-', 'D', '-']);
  expect(view.columns[2]).toEqual({ type: 'S', ref: 'sat', hyp: 'sit' });
  expect(view.columns[4]).toEqual({ type: 'D', ref: 'the', hyp: null });
  // 2 errors over 6 reference words.
  expect(view.wer).toBeCloseTo(2 / 6, 12);
});

test('an extra predicted word is an insertion with no reference word', () => {
  const view = alignTranscripts('hello world', 'hello big world');
  expect(view.columns).toEqual([
    { type: '-', ref: 'hello', hyp: 'hello' },
    { type: 'I', ref: null, hyp: 'big' },
    { type: '-', ref: 'world', hyp: 'world' },
  ]);
  expect(view.counts).toEqual({ hits: 2, substitutions: 0, deletions: 0, insertions: 1 });
});

test('an empty prediction deletes every reference word', () => {
  expect(alignTranscripts('one two', '').columns.map((c) => c.type)).toEqual(['D', 'D']);
});
