// What each task type is made of (docs/product.md, Datasets §1): its media, its data levels,
// whether its samples carry objects, what its ground truth is and whether it has class names.
// Code asks this table ("does the task have objects?") instead of listing task names.
import type { DataLevel, TaskType } from './datasets.js';

/** The media a task's samples are. */
export type MediaKind = 'image' | 'audio';

/**
 * What a sample's ground truth is: a class label (`label`/`labels`), boxes or polygons
 * (`objects`), a label map (`mask`), named numbers (`values`) or a `transcript`.
 */
export type LabelKind = 'class' | 'objects' | 'mask' | 'value' | 'transcript';

export interface TaskTraits {
  readonly media: MediaKind;
  /** The levels the explorer offers, the sample level first. */
  readonly dataLevels: readonly DataLevel[];
  /** Samples carry objects (boxes, polygons): object fields, matching at an IoU threshold. */
  readonly hasObjects: boolean;
  readonly label: LabelKind;
  /** Labels are class names (declared up front or learned from uploads), with a colour map. */
  readonly hasClassNames: boolean;
}

export const TASK_TRAITS: Readonly<Record<TaskType, TaskTraits>> = {
  classification: {
    media: 'image',
    dataLevels: ['image'],
    hasObjects: false,
    label: 'class',
    hasClassNames: true,
  },
  regression: {
    media: 'image',
    dataLevels: ['image'],
    hasObjects: false,
    label: 'value',
    hasClassNames: false,
  },
  object_detection: {
    media: 'image',
    dataLevels: ['image', 'image_object'],
    hasObjects: true,
    label: 'objects',
    hasClassNames: true,
  },
  instance_segmentation: {
    media: 'image',
    dataLevels: ['image', 'image_object'],
    hasObjects: true,
    label: 'objects',
    hasClassNames: true,
  },
  // The product gives it an object level (its items are classes), but its samples take a mask,
  // never uploaded objects.
  semantic_segmentation: {
    media: 'image',
    dataLevels: ['image', 'image_object'],
    hasObjects: false,
    label: 'mask',
    hasClassNames: true,
  },
  audio_classification: {
    media: 'audio',
    dataLevels: ['audio'],
    hasObjects: false,
    label: 'class',
    hasClassNames: true,
  },
  automatic_speech_recognition: {
    media: 'audio',
    dataLevels: ['audio'],
    hasObjects: false,
    label: 'transcript',
    hasClassNames: false,
  },
};

/** The data levels each task type offers (docs/product.md, Datasets §1), the sample level first. */
export const DATA_LEVELS: Readonly<Record<TaskType, DataLevel[]>> = Object.fromEntries(
  Object.entries(TASK_TRAITS).map(([task, traits]) => [task, [...traits.dataLevels]]),
) as Record<TaskType, DataLevel[]>;
