// The Python SDK call that uploads a feature (docs/sdk-python.md, upload_features), for the
// upload-instructions modal: one line per data level that holds items of the dataset's task
// (objects only for detection and instance segmentation), with ids shaped like that task's.
import type { DataLevel, TaskType } from '@loupe/contracts';

/** Example item ids per task: media file names, and object ids '{sample id}#{index}'. */
const EXAMPLE_IDS: Record<TaskType, Partial<Record<DataLevel, string>>> = {
  classification: { image: 'cat-1.jpg' },
  regression: { image: 'face-1.jpg' },
  object_detection: { image: 'frame-1.jpg', image_object: 'frame-1.jpg#0' },
  instance_segmentation: { image: 'frame-1.jpg', image_object: 'frame-1.jpg#0' },
  semantic_segmentation: { image: 'road-1.png' },
  audio_classification: { audio: 'clip-1.wav' },
  automatic_speech_recognition: { audio: 'call-1.wav' },
};

export interface FeaturesSnippetDataset {
  id: string;
  task_type: TaskType;
}

export function uploadFeaturesSnippet(dataset: FeaturesSnippetDataset): string {
  const lines = [
    'import loupe',
    '',
    'client = loupe.Client()  # the address and key saved by loupe configure',
    `dataset = client.get_dataset(${JSON.stringify(dataset.id)})`,
    '',
    '# One vector per id, all of the same length (a list or a numpy array).',
  ];
  const ids = Object.entries(EXAMPLE_IDS[dataset.task_type]) as [DataLevel, string][];
  for (const [level, id] of ids) {
    lines.push(
      `dataset.upload_features("my-embedding", {${JSON.stringify(id)}: [0.12, -0.5, 0.33]}, ${JSON.stringify(level)})`,
    );
  }
  return lines.join('\n');
}
