// The Python snippets the SDK dialog and the Add Dataset and Add Model modals show, one per task
// type: the label and prediction fields of each task as docs/sdk-python.md describes them
// (upload_samples, upload_predictions). Every snippet runs as it is against a real instance once
// the media paths exist.
import type { TaskType } from '@loupe/contracts';

/** How the snippet connects: this instance's address and key, or what `loupe configure` saved. */
export interface SnippetConnection {
  origin: string;
  apiKey: string;
}

/** A dataset the snippet is about (it exists already: it is fetched by name, not created). */
export interface SnippetDataset {
  name: string;
  task_type: TaskType;
}

interface TaskExample {
  /** Name of the example dataset. */
  dataset: string;
  /** create_dataset's arguments after the task type. */
  create: string;
  /** Python dict literals, each one or more lines. */
  samples: string[][];
  model: string;
  predictions: string[][];
}

const EXAMPLES: Record<TaskType, TaskExample> = {
  classification: {
    dataset: 'pets',
    create: 'class_names=["cat", "dog"]',
    samples: [
      ['{"id": "cat-1.jpg", "image": "photos/cat-1.jpg", "label": "cat", "split": "train"}'],
      ['{"id": "dog-1.jpg", "image": "photos/dog-1.jpg", "label": "dog", "split": "test"}'],
    ],
    model: 'resnet50-epoch12',
    predictions: [
      ['{"id": "cat-1.jpg", "label": "cat", "score": 0.92, "probabilities": [0.92, 0.08]}'],
      ['{"id": "dog-1.jpg", "label": "cat", "score": 0.55, "probabilities": [0.55, 0.45]}'],
    ],
  },
  regression: {
    dataset: 'faces',
    create: 'value_names=["age"]',
    samples: [
      ['{"id": "face-1.jpg", "image": "faces/face-1.jpg", "values": {"age": 31.5}}'],
      ['{"id": "face-2.jpg", "image": "faces/face-2.jpg", "values": {"age": 58}}'],
    ],
    model: 'age-regressor',
    predictions: [
      ['{"id": "face-1.jpg", "values": {"age": 29.8}}'],
      ['{"id": "face-2.jpg", "values": {"age": 61.2}}'],
    ],
  },
  object_detection: {
    dataset: 'street',
    create: 'class_names=["car", "person"]',
    samples: [
      [
        '{"id": "frame-1.jpg", "image": "frames/frame-1.jpg", "split": "train", "objects": [',
        '    # bbox: x, y, width, height in pixels',
        '    {"label": "car", "bbox": [10, 20, 50, 30]},',
        '    {"label": "person", "bbox": [70, 15, 12, 40]},',
        ']}',
      ],
    ],
    model: 'yolo-v8',
    predictions: [
      [
        '{"id": "frame-1.jpg", "objects": [',
        '    {"label": "car", "bbox": [12, 20, 48, 31], "score": 0.81},',
        ']}',
      ],
    ],
  },
  instance_segmentation: {
    dataset: 'street-masks',
    create: 'class_names=["car", "person"]',
    samples: [
      [
        '{"id": "frame-1.jpg", "image": "frames/frame-1.jpg", "split": "train", "objects": [',
        '    # segmentation: polygons [[x1, y1, x2, y2, ...], ...] in pixels, or RLE',
        '    {"label": "car", "segmentation": [[10, 20, 60, 20, 60, 50, 10, 50]]},',
        ']}',
      ],
    ],
    model: 'mask-rcnn',
    predictions: [
      [
        '{"id": "frame-1.jpg", "objects": [',
        '    {"label": "car", "segmentation": [[12, 20, 58, 21, 58, 49]], "score": 0.77},',
        ']}',
      ],
    ],
  },
  semantic_segmentation: {
    dataset: 'roads',
    // Mask pixel values name classes through the label map.
    create: 'label_map={0: "background", 1: "road", 2: "car"}',
    samples: [
      ['# mask: a PNG whose pixel values are label_map keys'],
      ['{"id": "road-1.png", "image": "images/road-1.png", "mask": "masks/road-1.png"}'],
    ],
    model: 'segformer',
    predictions: [['{"id": "road-1.png", "mask": "predicted/road-1.png"}']],
  },
  audio_classification: {
    dataset: 'sounds',
    create: 'class_names=["bark", "purr"]',
    samples: [
      ['{"id": "bark.wav", "audio": "clips/bark.wav", "label": "bark", "split": "train"}'],
      ['{"id": "purr.wav", "audio": "clips/purr.wav", "label": "purr", "split": "test"}'],
    ],
    model: 'sound-cnn',
    predictions: [
      ['{"id": "bark.wav", "label": "bark", "score": 0.88, "probabilities": [0.88, 0.12]}'],
      ['{"id": "purr.wav", "label": "bark", "score": 0.51, "probabilities": [0.51, 0.49]}'],
    ],
  },
  automatic_speech_recognition: {
    dataset: 'calls',
    create: '',
    samples: [
      ['{"id": "call-1.wav", "audio": "calls/call-1.wav", "transcript": "turn left here"}'],
    ],
    model: 'whisper-small',
    predictions: [['{"id": "call-1.wav", "transcript": "turn left there"}']],
  },
};

const py = (text: string) => JSON.stringify(text);

/** Lines stay within this width (Black's), so the dialogs show the code without wrapping it. */
export const SNIPPET_LINE_WIDTH = 88;

/**
 * `start(args)` as Black lays it out: on one line when it fits, else the arguments on a line of
 * their own, else one argument per line.
 */
function call(start: string, args: string[]): string[] {
  const joined = args.join(', ');
  if (`${start}(${joined})`.length <= SNIPPET_LINE_WIDTH) return [`${start}(${joined})`];
  if (`    ${joined}`.length <= SNIPPET_LINE_WIDTH) return [`${start}(`, `    ${joined}`, ')'];
  return [`${start}(`, ...args.map((arg) => `    ${arg},`), ')'];
}

/** The client line: with this instance's address and key, or with the saved configuration. */
function clientLines(connection: SnippetConnection | null): string[] {
  return connection
    ? call('client = loupe.Client', [py(connection.origin), py(connection.apiKey)])
    : ['client = loupe.Client()  # the address and key saved by loupe configure'];
}

/** `[` + each dict literal on its own lines, indented, a comma after each + `]`. */
function pythonList(entries: string[][]): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    entry.forEach((line, index) => {
      const comment = line.startsWith('#');
      const last = index === entry.length - 1;
      lines.push(`    ${line}${last && !comment ? ',' : ''}`);
    });
  }
  return lines;
}

/**
 * Create a dataset of `task` and upload two samples, or, for a dataset that exists, upload more
 * samples to it.
 */
export function uploadDatasetSnippet(
  connection: SnippetConnection | null,
  task: TaskType = 'classification',
  dataset?: SnippetDataset,
): string {
  const example = EXAMPLES[dataset?.task_type ?? task];
  const taskType = dataset?.task_type ?? task;
  return [
    'import loupe',
    '',
    ...clientLines(connection),
    ...(dataset
      ? call('dataset = client.get_dataset', [py(dataset.name)])
      : call('dataset = client.create_dataset', [
          py(example.dataset),
          py(taskType),
          ...(example.create ? [example.create] : []),
          'exist_ok=True',
        ])),
    'dataset.upload_samples([',
    ...pythonList(example.samples),
    '])',
  ].join('\n');
}

/** Upload a model's predictions for a dataset of `task`: each upload becomes a model. */
export function uploadPredictionsSnippet(
  connection: SnippetConnection | null,
  task: TaskType = 'classification',
  dataset?: SnippetDataset,
): string {
  const example = EXAMPLES[dataset?.task_type ?? task];
  return [
    'import loupe',
    '',
    ...clientLines(connection),
    ...call('dataset = client.get_dataset', [py(dataset?.name ?? example.dataset)]),
    `dataset.upload_predictions(${py(example.model)}, [`,
    ...pythonList(example.predictions),
    '])',
  ].join('\n');
}
