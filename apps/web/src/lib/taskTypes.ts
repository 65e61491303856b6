// The seven task types in words, for badges, filters and empty texts.
import type { TaskType } from '@loupe/contracts';

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  classification: 'Classification',
  regression: 'Regression',
  object_detection: 'Object Detection',
  instance_segmentation: 'Instance Segmentation',
  semantic_segmentation: 'Semantic Segmentation',
  audio_classification: 'Audio Classification',
  automatic_speech_recognition: 'Automatic Speech Recognition',
};

export const TASK_TYPES = Object.keys(TASK_TYPE_LABELS) as TaskType[];
