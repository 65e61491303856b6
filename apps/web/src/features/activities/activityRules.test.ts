import type { Activity } from '@loupe/contracts';
import { describe, expect, test } from 'vitest';
import { activityTarget, markSeen, rowHeight, unseenCount } from './activityRules';

const activity = (change: Partial<Activity> = {}): Activity => ({
  id: 'job-1',
  type: 'Job',
  updated_at: 1_700_000_000_000,
  job_type: 'MetadataAndFeaturesComputation',
  status: 'SUCCESS',
  user_id: 'user-1',
  dataset_id: 'ds-1',
  dataset_name: 'pets',
  ...change,
});

describe('a click on an activity', () => {
  test('opens the overview of the dataset of a finished job', () => {
    expect(activityTarget(activity())).toBe('/datasets/ds-1/overview');
  });

  test.each(['PENDING', 'FAILURE'] as const)('does nothing while %s', (status) => {
    expect(activityTarget(activity({ status }))).toBeNull();
  });

  test('does nothing for a job about no dataset', () => {
    expect(activityTarget(activity({ dataset_id: undefined }))).toBeNull();
  });
});

test('embeddings jobs get a taller row for their feature and method', () => {
  expect(rowHeight(activity())).toBe(82);
  expect(rowHeight(activity({ job_type: 'EmbeddingsComputation' }))).toBe(104);
});

describe('the unseen count', () => {
  const list = [activity({ id: 'a' }), activity({ id: 'b' }), activity({ id: 'c' })];

  test('counts the activities whose ids were never seen', () => {
    expect(unseenCount(list, [])).toBe(3);
    expect(unseenCount(list, ['a', 'old'])).toBe(2);
  });

  test('drops to zero once the list was looked at, and counts only newer jobs after', () => {
    const seen = markSeen(list, ['old']);
    expect(unseenCount(list, seen)).toBe(0);
    expect(unseenCount([activity({ id: 'd' }), ...list], seen)).toBe(1);
  });

  test('keeps the seen list bounded, newest first', () => {
    const many = Array.from({ length: 1200 }, (_, index) => activity({ id: `job-${index}` }));
    const seen = markSeen(many, ['older']);
    expect(seen).toHaveLength(1000);
    expect(seen[0]).toBe('job-0');
  });
});
