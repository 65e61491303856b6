// Which tasks show what of the two models beyond their predicted objects: sample-level labels
// and scores (or values) as tags on cards and in the viewer, and transcripts in the viewer.
import type { TaskType } from '@loupe/contracts';

const TAG_TASKS: readonly TaskType[] = ['classification', 'audio_classification', 'regression'];

export const comparedTasks = {
  /** A card keeps a line for the two models' tags ('A: cat 0.91' / 'B: dog 0.55'). */
  tags: (task: TaskType) => TAG_TASKS.includes(task),
};
