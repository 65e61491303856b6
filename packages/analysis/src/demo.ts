// Demo datasets of every task type, generated procedurally (no network, no files): shapes on
// noisy backgrounds for the vision tasks, chords and "beep words" for the audio tasks, with
// metadata, splits and two imperfect prediction sets, so a newcomer has something to explore.
import { createRandom, type Random } from './random.js';
import { syntheticImage, syntheticTone } from './synthetic.js';
import type { RawImage } from './raster.js';

export type DemoTask =
  | 'classification'
  | 'regression'
  | 'object_detection'
  | 'instance_segmentation'
  | 'semantic_segmentation'
  | 'audio_classification'
  | 'automatic_speech_recognition';

export const DEMO_TASKS: readonly DemoTask[] = [
  'classification',
  'regression',
  'object_detection',
  'instance_segmentation',
  'semantic_segmentation',
  'audio_classification',
  'automatic_speech_recognition',
];

/** Class i of the shapes is drawn with hue i·90° (red, lime, cyan, violet); even i squares, odd i circles. */
export const DEMO_SHAPES = ['red_square', 'lime_circle', 'cyan_square', 'violet_circle'] as const;
export const DEMO_SOUNDS = ['low_chord', 'mid_chord', 'high_chord'] as const;
export const DEMO_WORDS = ['red', 'green', 'blue', 'left', 'right', 'up', 'down', 'stop'] as const;

export interface DemoObject {
  label: string;
  bbox: [number, number, number, number];
  segmentation?: number[][];
  score?: number;
}

export interface DemoSample {
  id: string;
  split: string;
  image?: RawImage;
  audio?: { samples: Float32Array; sampleRate: number };
  /** Semantic segmentation: one byte per pixel, the class index (0 = background). */
  mask?: RawImage;
  label?: string;
  values?: Record<string, number>;
  objects?: DemoObject[];
  transcript?: string;
  metadata: Record<string, number | string | boolean>;
}

export interface DemoPrediction {
  id: string;
  /** Semantic segmentation: the predicted label map, one byte per pixel as in `DemoSample.mask`. */
  mask?: RawImage;
  label?: string;
  score?: number;
  probabilities?: number[];
  values?: Record<string, number>;
  objects?: DemoObject[];
  transcript?: string;
}

export interface DemoDataset {
  name: string;
  task_type: DemoTask;
  description: string;
  class_names?: string[];
  value_names?: string[];
  label_map?: Record<string, string>;
  samples: DemoSample[];
  predictions: { name: string; items: DemoPrediction[] }[];
  metadata_types: Record<string, 'timestamp'>;
}

const CAMERAS = ['north gate', 'south gate', 'dock'];
const MICROPHONES = ['lavalier', 'handheld', 'ceiling array'];
const RECORDING_SITES = ['studio', 'office', 'street'];
const WORD_SECONDS = 0.18;

function split(random: Random): string {
  const r = random.next();
  return r < 0.7 ? 'train' : r < 0.85 ? 'validation' : 'test';
}

/**
 * Metadata of a sample. Images carry what a camera records, audio what a recorder does; both have
 * a time of day (night samples are darker or noisier), a review flag and a capture time.
 */
function metadata(random: Random, index: number, audio: boolean): DemoSample['metadata'] {
  const night = random.next() < 0.3;
  const captured_at = new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString();
  if (audio) {
    return {
      microphone: MICROPHONES[random.int(0, MICROPHONES.length - 1)]!,
      recording_site: RECORDING_SITES[random.int(0, RECORDING_SITES.length - 1)]!,
      time_of_day: night ? 'night' : 'day',
      snr_db: Math.round((night ? 6 : 18) + random.next() * 12),
      reviewed: random.next() < 0.5,
      captured_at,
    };
  }
  return {
    camera: CAMERAS[random.int(0, CAMERAS.length - 1)]!,
    time_of_day: night ? 'night' : 'day',
    exposure_ms: Math.round((night ? 30 : 8) + random.next() * 10),
    reviewed: random.next() < 0.5,
    captured_at,
  };
}

/** Darkens night images so brightness metadata correlates with the time of day. */
function applyNight(image: RawImage, night: boolean): void {
  if (!night) return;
  for (let i = 0; i < image.data.length; i++) image.data[i] = Math.round(image.data[i]! * 0.35);
}

function polygon(object: {
  bbox: [number, number, number, number];
  shape: 'rectangle' | 'circle';
}): number[] {
  const [x, y, w, h] = object.bbox;
  if (object.shape === 'rectangle') return [x, y, x + w, y, x + w, y + h, x, y + h];
  const points: number[] = [];
  for (let k = 0; k < 16; k++) {
    const a = (2 * Math.PI * k) / 16;
    points.push(x + w / 2 + (w / 2) * Math.cos(a), y + h / 2 + (h / 2) * Math.sin(a));
  }
  return points.map((v) => Math.round(v * 10) / 10);
}

function jitterBox(
  random: Random,
  [x, y, w, h]: [number, number, number, number],
  amount: number,
): [number, number, number, number] {
  const j = () => (random.next() - 0.5) * 2 * amount;
  return [
    Math.max(0, x + j() * w),
    Math.max(0, y + j() * h),
    Math.max(1, w * (1 + j())),
    Math.max(1, h * (1 + j())),
  ].map((v) => Math.round(v * 10) / 10) as [number, number, number, number];
}

function predictLabel(random: Random, truth: number, classes: number, accuracy: number) {
  const label = random.next() < accuracy ? truth : (truth + random.int(1, classes - 1)) % classes;
  const raw = Array.from({ length: classes }, (_, c) =>
    c === label ? 2 + random.next() * 2 : random.next(),
  );
  const sum = raw.reduce((a, b) => a + b, 0);
  const probabilities = raw.map((p) => Math.round((p / sum) * 1e4) / 1e4);
  return { label, probabilities, score: probabilities[label]! };
}

function predictObjects(
  random: Random,
  objects: DemoObject[],
  recall: number,
  falsePositives: number,
  width: number,
  height: number,
  segment: boolean,
): DemoObject[] {
  const out: DemoObject[] = [];
  for (const object of objects) {
    if (random.next() > recall) continue;
    out.push({
      ...object,
      bbox: jitterBox(random, object.bbox, 0.08),
      score: Math.round((0.55 + random.next() * 0.45) * 1000) / 1000,
    });
  }
  for (let i = 0; i < falsePositives; i++) {
    if (random.next() < 0.5) continue;
    const w = 8 + random.next() * width * 0.3;
    const h = 8 + random.next() * height * 0.3;
    const bbox: [number, number, number, number] = [
      Math.round(random.next() * (width - w)),
      Math.round(random.next() * (height - h)),
      Math.round(w),
      Math.round(h),
    ];
    out.push({
      label: DEMO_SHAPES[random.int(0, DEMO_SHAPES.length - 1)]!,
      bbox,
      ...(segment ? { segmentation: [polygon({ bbox, shape: 'rectangle' })] } : {}),
      score: Math.round(random.next() * 500) / 1000,
    });
  }
  return out;
}

/** A shape painted into a label map with its pixel value (class index + 1). */
interface PaintedShape {
  bbox: [number, number, number, number];
  shape: 'rectangle' | 'circle';
  value: number;
}

/** A label map of the shapes, later ones over earlier ones; a pixel belongs to a shape when its centre does. */
function paintLabelMap(shapes: PaintedShape[], width: number, height: number): RawImage {
  const data = new Uint8Array(width * height);
  for (const { bbox, shape, value } of shapes) {
    const [x, y, w, h] = bbox;
    const rx = w / 2;
    const ry = h / 2;
    for (let yy = Math.max(0, Math.floor(y)); yy < Math.min(height, Math.ceil(y + h)); yy++) {
      for (let xx = Math.max(0, Math.floor(x)); xx < Math.min(width, Math.ceil(x + w)); xx++) {
        const dx = xx + 0.5 - x - rx;
        const dy = yy + 0.5 - y - ry;
        const inside =
          shape === 'rectangle'
            ? Math.abs(dx) <= rx && Math.abs(dy) <= ry
            : (dx / rx) ** 2 + (dy / ry) ** 2 <= 1;
        if (inside) data[yy * width + xx] = value;
      }
    }
  }
  return { data, width, height, channels: 1 };
}

/**
 * A predicted label map: each true shape is found with probability `recall`, its outline off by
 * up to `jitter` of its size, its class confused with probability `confusion`; and, with
 * probability `falsePositive`, a blob of some class where there is none.
 */
function predictLabelMap(
  random: Random,
  shapes: PaintedShape[],
  classes: number,
  quality: { recall: number; jitter: number; confusion: number; falsePositive: number },
  width: number,
  height: number,
): RawImage {
  const predicted: PaintedShape[] = [];
  for (const shape of shapes) {
    if (random.next() > quality.recall) continue;
    const confused = random.next() < quality.confusion;
    predicted.push({
      bbox: jitterBox(random, shape.bbox, quality.jitter),
      shape: shape.shape,
      value: confused
        ? ((shape.value - 1 + random.int(1, classes - 1)) % classes) + 1
        : shape.value,
    });
  }
  if (random.next() < quality.falsePositive) {
    const w = 6 + random.next() * width * 0.15;
    const h = 6 + random.next() * height * 0.15;
    predicted.push({
      bbox: [random.next() * (width - w), random.next() * (height - h), w, h],
      shape: random.next() < 0.5 ? 'rectangle' : 'circle',
      value: random.int(1, classes),
    });
  }
  return paintLabelMap(predicted, width, height);
}

function beepWords(random: Random, words: string[], sampleRate: number): Float32Array {
  const wordSamples = Math.round(WORD_SECONDS * sampleRate);
  const gap = Math.round(0.06 * sampleRate);
  const out = new Float32Array(words.length * (wordSamples + gap) + gap);
  words.forEach((word, w) => {
    const tone = syntheticTone(random.int(0, 1 << 30), sampleRate, WORD_SECONDS, {
      classIndex: DEMO_WORDS.indexOf(word as never),
      amplitude: 0.4,
      noise: 0.005,
    });
    out.set(tone, gap + w * (wordSamples + gap));
  });
  return out;
}

function corruptTranscript(random: Random, words: string[], errorRate: number): string {
  const out: string[] = [];
  for (const word of words) {
    const r = random.next();
    if (r < errorRate / 3) continue; // deletion
    if (r < (2 * errorRate) / 3)
      out.push(DEMO_WORDS[random.int(0, DEMO_WORDS.length - 1)]!); // substitution
    else out.push(word);
    if (random.next() < errorRate / 3) out.push(DEMO_WORDS[random.int(0, DEMO_WORDS.length - 1)]!); // insertion
  }
  return out.join(' ');
}

/** One demo dataset of the given task with `count` samples, deterministic for a seed. */
export function demoDataset(task: DemoTask, count: number, seed = 1): DemoDataset {
  const random = createRandom(seed * 7919 + DEMO_TASKS.indexOf(task));
  const classes = [...DEMO_SHAPES];
  const samples: DemoSample[] = [];
  const modelA: DemoPrediction[] = [];
  const modelB: DemoPrediction[] = [];
  const audio = task === 'audio_classification' || task === 'automatic_speech_recognition';
  const width = task === 'classification' || task === 'regression' ? 96 : 160;
  const height = task === 'classification' || task === 'regression' ? 72 : 120;
  for (let i = 0; i < count; i++) {
    const meta = metadata(random, i, audio);
    const night = meta.time_of_day === 'night';
    const base = { split: split(random), metadata: meta };
    if (audio) {
      const sampleRate = 16_000;
      if (task === 'audio_classification') {
        const truth = random.int(0, DEMO_SOUNDS.length - 1);
        const seconds = 0.6 + random.next() * 1.4;
        samples.push({
          ...base,
          id: `clips/${String(i).padStart(4, '0')}.wav`,
          label: DEMO_SOUNDS[truth],
          audio: {
            samples: syntheticTone(random.int(0, 1 << 30), sampleRate, seconds, {
              classIndex: truth * 3,
              noise: night ? 0.08 : 0.01,
            }),
            sampleRate,
          },
        });
        for (const [list, accuracy] of [
          [modelA, 0.9],
          [modelB, night ? 0.55 : 0.85],
        ] as const) {
          const p = predictLabel(random, truth, DEMO_SOUNDS.length, accuracy);
          list.push({
            id: samples[i]!.id,
            label: DEMO_SOUNDS[p.label],
            score: p.score,
            probabilities: p.probabilities,
          });
        }
      } else {
        const words = Array.from(
          { length: random.int(2, 6) },
          () => DEMO_WORDS[random.int(0, DEMO_WORDS.length - 1)]!,
        );
        samples.push({
          ...base,
          id: `utterances/${String(i).padStart(4, '0')}.wav`,
          transcript: words.join(' '),
          audio: { samples: beepWords(random, words, sampleRate), sampleRate },
        });
        modelA.push({ id: samples[i]!.id, transcript: corruptTranscript(random, words, 0.1) });
        modelB.push({
          id: samples[i]!.id,
          transcript: corruptTranscript(random, words, night ? 0.4 : 0.15),
        });
      }
      continue;
    }
    const single = task === 'classification' || task === 'regression';
    const synthetic = syntheticImage(random.int(0, 1 << 30), width, height, {
      labels: classes,
      minObjects: 1,
      maxObjects: single ? 1 : 4,
    });
    const image: RawImage = { data: synthetic.data, width, height, channels: 3 };
    applyNight(image, night);
    const id = `images/${String(i).padStart(4, '0')}.png`;
    const objects: DemoObject[] = synthetic.objects.map((o) => ({
      label: o.label,
      bbox: o.bbox,
      ...(task === 'instance_segmentation' ? { segmentation: [polygon(o)] } : {}),
    }));
    if (task === 'classification') {
      const truth = classes.indexOf(objects[0]!.label as never);
      samples.push({ ...base, id, image, label: objects[0]!.label });
      for (const [list, accuracy] of [
        [modelA, 0.88],
        [modelB, night ? 0.5 : 0.9],
      ] as const) {
        const p = predictLabel(random, truth, classes.length, accuracy);
        list.push({ id, label: classes[p.label], score: p.score, probabilities: p.probabilities });
      }
    } else if (task === 'regression') {
      const [, , w, h] = objects[0]!.bbox;
      const values = {
        coverage: Math.round(((w * h) / (width * height)) * 1e4) / 1e4,
        aspect_ratio: Math.round((w / h) * 1e3) / 1e3,
      };
      samples.push({ ...base, id, image, values });
      const noisy = (scale: number) => ({
        coverage: Math.max(0, values.coverage + random.normal() * 0.02 * scale),
        aspect_ratio: Math.max(0.05, values.aspect_ratio + random.normal() * 0.1 * scale),
      });
      modelA.push({ id, values: noisy(1) });
      modelB.push({ id, values: noisy(night ? 3 : 1.2) });
    } else if (task === 'semantic_segmentation') {
      const shapes: PaintedShape[] = synthetic.objects.map((object) => ({
        bbox: object.bbox,
        shape: object.shape,
        value: classes.indexOf(object.label as never) + 1,
      }));
      samples.push({ ...base, id, image, mask: paintLabelMap(shapes, width, height) });
      for (const [list, quality] of [
        [modelA, { recall: 0.95, jitter: 0.04, confusion: 0.04, falsePositive: 0.15 }],
        [
          modelB,
          night
            ? { recall: 0.6, jitter: 0.15, confusion: 0.3, falsePositive: 0.5 }
            : { recall: 0.85, jitter: 0.08, confusion: 0.1, falsePositive: 0.3 },
        ],
      ] as const) {
        list.push({
          id,
          mask: predictLabelMap(random, shapes, classes.length, quality, width, height),
        });
      }
    } else {
      samples.push({ ...base, id, image, objects });
      modelA.push({
        id,
        objects: predictObjects(
          random,
          objects,
          0.9,
          1,
          width,
          height,
          task === 'instance_segmentation',
        ),
      });
      modelB.push({
        id,
        objects: predictObjects(
          random,
          objects,
          night ? 0.5 : 0.85,
          2,
          width,
          height,
          task === 'instance_segmentation',
        ),
      });
    }
  }
  const titles: Record<DemoTask, string> = {
    classification: 'Shapes',
    regression: 'Shape coverage',
    object_detection: 'Shape detection',
    instance_segmentation: 'Shape instances',
    semantic_segmentation: 'Shape segmentation',
    audio_classification: 'Chords',
    automatic_speech_recognition: 'Beep words',
  };
  return {
    name: `Demo · ${titles[task]}`,
    task_type: task,
    description: `Generated demo data: ${count} samples for ${task.replace(/_/g, ' ')}. Night samples are darker or noisier, and model-b does worse on them.`,
    ...(task === 'audio_classification' ? { class_names: [...DEMO_SOUNDS] } : {}),
    ...(task === 'regression' || audio
      ? {}
      : task === 'semantic_segmentation'
        ? {}
        : { class_names: classes }),
    ...(task === 'regression' ? { value_names: ['coverage', 'aspect_ratio'] } : {}),
    ...(task === 'semantic_segmentation'
      ? {
          label_map: Object.fromEntries([
            ['0', 'background'],
            ...classes.map((c, i) => [String(i + 1), c]),
          ]),
        }
      : {}),
    samples,
    predictions: modelA.length
      ? [
          { name: 'model-a', items: modelA },
          { name: 'model-b', items: modelB },
        ]
      : [],
    metadata_types: { captured_at: 'timestamp' },
  };
}
