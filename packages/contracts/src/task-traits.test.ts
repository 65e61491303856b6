// The task traits table: every task type has its traits, and they agree with each other.
import { describe, expect, it } from 'vitest';
import { TaskType } from './datasets.js';
import { DATA_LEVELS, TASK_TRAITS } from './task-traits.js';

describe('task traits', () => {
  it('describe every task type, the sample level first', () => {
    expect(Object.keys(TASK_TRAITS).sort()).toEqual([...TaskType.options].sort());
    for (const [task, traits] of Object.entries(TASK_TRAITS)) {
      expect(traits.dataLevels[0], task).toBe(traits.media);
      expect(DATA_LEVELS[task as TaskType]).toEqual(traits.dataLevels);
    }
  });

  it('give an object level to tasks with objects, and objects only to their labels', () => {
    for (const [task, traits] of Object.entries(TASK_TRAITS)) {
      if (traits.hasObjects) expect(traits.dataLevels, task).toContain('image_object');
      expect(traits.hasObjects, task).toBe(traits.label === 'objects');
      if (traits.label === 'class') expect(traits.hasClassNames, task).toBe(true);
    }
    expect(
      Object.entries(TASK_TRAITS)
        .filter(([, traits]) => traits.media === 'audio')
        .map(([task]) => task),
    ).toEqual(['audio_classification', 'automatic_speech_recognition']);
  });
});
