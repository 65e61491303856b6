// Small datasets with two models each, described here and uploaded from Python with the stdlib SDK
// of sdk/python, so that the journeys know every box and label the server evaluates and can
// compute the expected metrics with @loupe/metrics themselves.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { api } from '@loupe/contracts';
import type { ApiSession } from './api';
import type { LoupeServer } from './server';

const root = resolve(import.meta.dirname, '../..');

type Box = [number, number, number, number];
type Rgb = [number, number, number];

/** What the Python script draws as the sample's PNG: rectangles on a background. */
export interface Picture {
  width: number;
  height: number;
  background: Rgb;
  rects: { box: Box; color: Rgb }[];
}

export interface SpecObject {
  label: string;
  bbox: Box;
  score?: number;
}

export interface SpecSample {
  id: string;
  split: string;
  metadata: Record<string, string | number>;
  picture: Picture;
  label?: string;
  objects?: SpecObject[];
}

export interface SpecPrediction {
  id: string;
  label?: string;
  score?: number;
  probabilities?: number[];
  objects?: SpecObject[];
}

export interface DatasetSpec {
  name: string;
  task_type: 'object_detection' | 'classification';
  class_names: string[];
  samples: SpecSample[];
  /** Prediction set name → its predictions. */
  predictions: Record<string, SpecPrediction[]>;
}

export interface UploadedDataset {
  datasetId: string;
  /** Prediction set name → id. */
  models: Record<string, string>;
}

const COLORS: Record<string, Rgb> = {
  car: [200, 40, 40],
  person: [40, 40, 200],
  bicycle: [40, 160, 60],
};

/**
 * Twelve street frames (96×64) with a car and a person, a second car in every fourth, in splits
 * train and test, each with a categorical `weather` (sunny 0–4, rain 5–8, fog 9–11) and a numeric
 * `brightness`. detector-a finds every object a few pixels off with falling confidence, misses the
 * people in fog and adds a low-scored false person now and then; detector-b finds only the cars.
 */
export function streetDetection(name = 'street-weather'): DatasetSpec {
  const samples: SpecSample[] = [];
  for (let i = 0; i < 12; i++) {
    const objects: SpecObject[] = [
      { label: 'car', bbox: [4 + 3 * i, 10, 30, 16] },
      { label: 'person', bbox: [60, 8 + 2 * (i % 6), 10, 24] },
    ];
    if (i % 4 === 0) objects.push({ label: 'car', bbox: [36, 44, 20, 14] });
    samples.push({
      id: `frame-${String(i).padStart(2, '0')}.png`,
      split: i % 4 === 3 ? 'test' : 'train',
      metadata: { weather: weatherOf(i), brightness: 40 + 5 * i },
      objects,
      picture: {
        width: 96,
        height: 64,
        background: [90 + 5 * i, 90, 90],
        rects: objects.map((object) => ({ box: object.bbox, color: COLORS[object.label]! })),
      },
    });
  }
  const detectorA: SpecPrediction[] = samples.map((sample, i) => {
    const objects: SpecObject[] = [];
    sample.objects!.forEach((object, j) => {
      if (object.label === 'person' && sample.metadata.weather === 'fog') return;
      const [x, y, w, h] = object.bbox;
      objects.push({
        label: object.label,
        bbox: [x + ((i + j) % 4), y, w - (i % 3), h],
        score: 0.95 - 0.05 * ((i + j) % 5),
      });
    });
    if (i % 5 === 1) objects.push({ label: 'person', bbox: [10, 40, 8, 16], score: 0.3 });
    return { id: sample.id, objects };
  });
  const detectorB: SpecPrediction[] = samples.map((sample) => ({
    id: sample.id,
    objects: sample
      .objects!.filter((object) => object.label === 'car')
      .map((object) => ({ ...object, score: 0.8 })),
  }));
  return {
    name,
    task_type: 'object_detection',
    class_names: ['car', 'person'],
    samples,
    predictions: { 'detector-a': detectorA, 'detector-b': detectorB },
  };
}

function weatherOf(i: number): string {
  if (i < 5) return 'sunny';
  return i < 9 ? 'rain' : 'fog';
}

/**
 * Forty-eight street scenes of three classes in splits train and test, with `weather` and
 * `brightness`; classifier-a is wrong on one in five, classifier-b on two in five (errors spread
 * over classes and splits), both with probabilities.
 */
export function streetClassification(name = 'street-scenes'): DatasetSpec {
  const classes = ['car', 'person', 'bicycle'];
  const samples: SpecSample[] = [];
  for (let i = 0; i < 48; i++) {
    const label = classes[i % 3]!;
    samples.push({
      id: `scene-${String(i).padStart(2, '0')}.png`,
      split: i % 4 === 3 ? 'test' : 'train',
      label,
      metadata: { weather: weatherOf(i % 12), brightness: 30 + ((7 * i) % 60) },
      picture: {
        width: 48,
        height: 32,
        background: [60 + i, 60 + ((3 * i) % 90), 80],
        rects: [{ box: [8 + (i % 16), 6, 20, 16], color: COLORS[label]! }],
      },
    });
  }
  const predict = (wrong: (i: number) => boolean, confidence: (i: number) => number) =>
    samples.map((sample, i): SpecPrediction => {
      const truth = classes.indexOf(sample.label!);
      const predicted = wrong(i) ? (truth + 1 + (i % 2)) % 3 : truth;
      const top = confidence(i);
      const rest = (1 - top) / 2;
      const probabilities = classes.map((_, k) => (k === predicted ? top : rest));
      return { id: sample.id, label: classes[predicted], score: top, probabilities };
    });
  return {
    name,
    task_type: 'classification',
    class_names: classes,
    samples,
    predictions: {
      'classifier-a': predict(
        (i) => i % 5 === 0,
        (i) => 0.55 + 0.04 * ((i * 7) % 10),
      ),
      'classifier-b': predict(
        (i) => (i * 7) % 10 < 4,
        (i) => 0.4 + 0.05 * ((i * 3) % 10),
      ),
    },
  };
}

// Draws each sample's picture as a PNG (struct and zlib only), uploads the samples with their
// metadata and every prediction set, and prints the ids as JSON.
const UPLOAD_SCRIPT = String.raw`
import json, os, struct, sys, zlib
import loupe

def png(picture):
    width, height = picture["width"], picture["height"]
    pixels = [[tuple(picture["background"])] * width for _ in range(height)]
    for rect in picture["rects"]:
        x, y, w, h = (int(round(v)) for v in rect["box"])
        for row in range(max(0, y), min(height, y + h)):
            for col in range(max(0, x), min(width, x + w)):
                pixels[row][col] = tuple(rect["color"])
    raw = b"".join(b"\x00" + bytes(c for p in line for c in p) for line in pixels)
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

with open(sys.argv[1]) as handle:
    spec = json.load(handle)
client = loupe.Client(os.environ["LOUPE_URL"], os.environ["LOUPE_API_KEY"])
dataset = client.create_dataset(spec["name"], spec["task_type"], class_names=spec["class_names"])
samples = []
for sample in spec["samples"]:
    row = {key: value for key, value in sample.items() if key != "picture"}
    row["image"] = png(sample["picture"])
    samples.append(row)
dataset.upload_samples(samples)
models = {}
for name, rows in spec["predictions"].items():
    models[name] = dataset.upload_predictions(name, rows).id
print(json.dumps({"datasetId": dataset.id, "models": models}))
`;

/**
 * Uploads a dataset spec from Python with the SDK in sdk/python/src, under a fresh API key of the
 * signed-in session; answers the dataset's and the models' ids.
 */
export async function uploadWithPython(
  server: LoupeServer,
  session: ApiSession,
  spec: DatasetSpec,
): Promise<UploadedDataset> {
  const { api_key: apiKey } = await session.call(api.apiKeys.create, {
    body: { name: `e2e ${spec.name}` },
  });
  const workDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-performance-'));
  try {
    const specFile = join(workDir, 'spec.json');
    const script = join(workDir, 'upload.py');
    writeFileSync(specFile, JSON.stringify(spec));
    writeFileSync(script, UPLOAD_SCRIPT);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PYTHONPATH: join(root, 'sdk/python/src'),
      LOUPE_URL: server.apiUrl,
      LOUPE_API_KEY: apiKey,
      XDG_CONFIG_HOME: join(workDir, 'config'),
    };
    const output = execFileSync('python3', [script, specFile], { env, encoding: 'utf8' });
    return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as UploadedDataset;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
