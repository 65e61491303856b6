// `loupe export` against a real, built server, and the round trips it exists for: a dataset of
// every task type is uploaded, exported (COCO for tasks with objects, CSV for all), imported
// back with `loupe import`, and exported again; samples, splits, labels, values, transcripts,
// masks, objects (labels, boxes, segmentations, ids), metadata and media must be identical.
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { encodeWav, syntheticTone } from '@loupe/analysis';
import { api, TASK_TRAITS, type DataLevel, type TaskType } from '@loupe/contracts';
import { encode as encodePng } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoupeClient, type SampleToUpload } from '../client/client.js';
import { parseYaml } from '../importers/yaml.js';
import { startLocalServer, type LocalServer } from '../testing/local-server.js';
import { runCliAgainst } from '../testing/cli.js';
import { parseCsv } from './csv.js';

let server: LocalServer;
let client: LoupeClient;
beforeAll(async () => {
  server = await startLocalServer();
  client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
}, 60_000);
afterAll(() => server?.stop());

const cli = (...args: string[]) => runCliAgainst(server, args);

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), `loupe-${prefix}-`));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

function png(seed: number, width = 16, height = 12): Uint8Array {
  const data = new Uint8Array(width * height * 3).map((_, i) => (i * 37 + seed * 101) % 256);
  return encodePng({ width, height, data, channels: 3, depth: 8 });
}

function mask(seed: number): Uint8Array {
  const data = new Uint8Array(16 * 12).map((_, i) => (i + seed) % 3);
  return encodePng({ width: 16, height: 12, data, channels: 1, depth: 8 });
}

function wav(seed: number): Uint8Array {
  return encodeWav([syntheticTone(seed, 8000, 0.2)], 8000);
}

// ---- what a folder holds, read the same way whatever dataset it came from

interface SampleView {
  split: string;
  media: string;
  truth: unknown;
  metadata: Record<string, string>;
}

/** A CSV export as sample id → what the sample is; media and masks by their bytes' hash. */
function csvView(root: string, task: TaskType): Record<string, SampleView> {
  const yaml = parseYaml(readFileSync(join(root, 'dataset.yaml'), 'utf8'), 'dataset.yaml');
  const splits = yaml.splits as Record<string, string>;
  const { label, media } = TASK_TRAITS[task];
  const file = (path: string) => sha(readFileSync(join(root, path)));
  const out: Record<string, SampleView> = {};
  for (const [split, name] of Object.entries(splits)) {
    const table = parseCsv(readFileSync(join(root, name), 'utf8'), name);
    const at = (column: string) => table.header.indexOf(column);
    for (const { cells } of table.rows) {
      const cell = (column: string) => cells[at(column)]!;
      const truth =
        label === 'class'
          ? cell('label')
          : label === 'value'
            ? cell('values')
                .replace(/^\[|\]$/g, '')
                .split(/,\s*/)
                .map(Number)
            : label === 'transcript'
              ? cell('transcript')
              : label === 'mask'
                ? file(cell('semantic_masks'))
                : JSON.parse(cell('objects'));
      const metadata: Record<string, string> = {};
      table.header.slice(3).forEach((column, i) => {
        if (cells[i + 3] !== '') metadata[column] = cells[i + 3]!;
      });
      out[cell('id')] = { split, media: file(cell(media)), truth, metadata };
    }
  }
  return out;
}

/** A COCO export as file name → split, image bytes' hash and objects (with category names). */
function cocoView(root: string) {
  const out: Record<string, { split: string; media: string; objects: unknown[] }> = {};
  let classes: string[] = [];
  for (const name of readdirSync(join(root, 'annotations'))) {
    const split = name.replace(/^instances_/, '').replace(/\.json$/, '');
    const coco = JSON.parse(readFileSync(join(root, 'annotations', name), 'utf8')) as {
      images: { id: number; file_name: string }[];
      annotations: { image_id: number; category_id: number; [key: string]: unknown }[];
      categories: { id: number; name: string }[];
    };
    classes = coco.categories.map((c) => c.name);
    const names = new Map(coco.images.map((image) => [image.id, image.file_name]));
    for (const image of coco.images)
      out[image.file_name] = {
        split,
        media: sha(readFileSync(join(root, 'images', split, image.file_name))),
        objects: [],
      };
    for (const { image_id, category_id, ...rest } of coco.annotations)
      out[names.get(image_id)!]!.objects.push({
        ...rest,
        label: coco.categories.find((c) => c.id === category_id)!.name,
      });
  }
  return { classes, images: out };
}

/** Every file under a folder, by relative path. */
function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

// ---- one dataset of each task type

interface Built {
  task: TaskType;
  name: string;
  samples: SampleToUpload[];
  /** The CSV view the uploaded samples must have. */
  expected: Record<string, SampleView>;
}

const SPLITS = ['train', 'val', undefined, 'train'];

let built = 0;

async function build(task: TaskType): Promise<Built> {
  const { label, media } = TASK_TRAITS[task];
  const name = `round trip ${task} ${++built}`;
  const samples: SampleToUpload[] = [];
  const expected: Record<string, SampleView> = {};
  for (let i = 0; i < 4; i++) {
    const id =
      i === 3
        ? `odd id ${i}?.${media === 'audio' ? 'wav' : 'png'}`
        : `s${i}.${media === 'audio' ? 'wav' : 'png'}`;
    const bytes = media === 'audio' ? wav(i + 1) : png(i + 1);
    const sample: SampleToUpload = {
      id,
      [media]: bytes,
      ...(SPLITS[i] ? { split: SPLITS[i] } : {}),
      metadata: {
        camera: `cam "${i}", north`,
        ...(i === 2 ? {} : { hour: i * 7.5 }),
        indoor: i % 2 === 0,
      },
    };
    let truth: unknown;
    if (label === 'class') sample.label = truth = ['cat', 'dog'][i % 2];
    if (label === 'value') truth = sample.values = [i + 0.5, 10 * i];
    if (label === 'transcript') sample.transcript = truth = `say ${i}, then "stop"`;
    if (label === 'mask') {
      const m = mask(i);
      sample.mask = m;
      truth = sha(m);
    }
    if (label === 'objects') {
      const objects = [
        {
          id: String(10 + i),
          label: 'car',
          bbox: [1, 2, 3, 4] as [number, number, number, number],
          segmentation: [[1, 2, 4, 2, 4, 6, 1, 6]],
        },
        {
          id: String(20 + i),
          label: 'person',
          bbox: [0, 0, 2, 2] as [number, number, number, number],
          ...(task === 'instance_segmentation'
            ? { segmentation: { size: [12, 16] as [number, number], counts: [3, 4, 185] } }
            : {}),
          ...(i === 1 ? { iscrowd: true } : {}),
        },
      ];
      sample.objects = objects;
      truth = objects;
    }
    samples.push(sample);
    expected[id] = {
      split: SPLITS[i] ?? 'default',
      media: sha(bytes),
      truth,
      metadata: Object.fromEntries(
        Object.entries(sample.metadata!).map(([k, v]) => [k, String(v)]),
      ),
    };
  }
  const dataset = await client.createDataset({
    name,
    task_type: task,
    ...(TASK_TRAITS[task].hasClassNames && label !== 'mask'
      ? { class_names: label === 'objects' ? ['car', 'person'] : ['cat', 'dog'] }
      : {}),
    ...(label === 'value' ? { value_names: ['width', 'height'] } : {}),
    ...(label === 'mask'
      ? {
          class_names: ['background', 'road', 'car'],
          label_map: { '0': 'background', '1': 'road', '2': 'car' },
        }
      : {}),
  });
  await dataset.uploadSamples(samples);
  return { task, name, samples, expected };
}

async function exportSelection(
  dataset: string,
  ids: string[],
  level: DataLevel,
  format: 'coco' | 'csv',
  extra: string[] = [],
): Promise<string> {
  const list = join(temp('ids'), 'ids.txt');
  writeFileSync(list, ids.join('\n'));
  const out = join(temp('export'), 'out');
  const result = await cli(
    'export',
    '--dataset',
    dataset,
    '--items-file',
    list,
    '--data-level',
    level,
    '--format',
    format,
    '--out',
    out,
    ...extra,
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return out;
}

async function importBack(folder: string, name: string, task: TaskType, extra: string[] = []) {
  const result = await cli('import', 'folder', folder, '--name', name, '--task', task, ...extra);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

const TASKS: TaskType[] = [
  'classification',
  'regression',
  'semantic_segmentation',
  'audio_classification',
  'automatic_speech_recognition',
  'object_detection',
  'instance_segmentation',
];

describe('round trips through CSV', () => {
  it.each(TASKS)('%s: export, import back and export again gives the same folder', async (task) => {
    const built = await build(task);
    const level = DATA_LEVELS_OF[task];
    const ids = built.samples.map((s) => s.id);
    const first = await exportSelection(built.name, ids, level, 'csv');
    expect(csvView(first, task)).toEqual(built.expected);

    await importBack(first, `${built.name} again`, task);
    const original = await client.dataset(built.name);
    const again = await client.dataset(`${built.name} again`);
    expect(again.info.samples_count).toBe(4);
    expect(again.info.class_names).toEqual(original.info.class_names);
    expect(again.info.regression_value_names).toEqual(original.info.regression_value_names);
    const second = await exportSelection(again.info.name, ids, level, 'csv');
    expect(csvView(second, task)).toEqual(built.expected);
    // The same files; a renamed one (`~<upload order>.png`) may take another number.
    const renamed = (path: string) => path.replace(/~\d+/, '~N');
    expect(listing(second).map(renamed)).toEqual(listing(first).map(renamed));
  });
});

const DATA_LEVELS_OF: Record<TaskType, DataLevel> = {
  classification: 'image',
  regression: 'image',
  semantic_segmentation: 'image',
  object_detection: 'image',
  instance_segmentation: 'image',
  audio_classification: 'audio',
  automatic_speech_recognition: 'audio',
};

describe('round trips through COCO', () => {
  it.each(['object_detection', 'instance_segmentation'] as const)(
    '%s: objects keep their labels, boxes, segmentations and ids',
    async (task) => {
      const built = await build(task);
      // Ids that are safe file names come back as they are (the odd one is renamed: docs).
      const ids = built.samples.map((s) => s.id).filter((id) => !id.startsWith('odd'));
      const first = await exportSelection(built.name, ids, 'image', 'coco');
      const view = cocoView(first);
      expect(view.classes).toEqual(['car', 'person']);
      for (const id of ids) {
        const sample = built.samples.find((s) => s.id === id)!;
        expect(view.images[id]).toMatchObject({
          split: built.expected[id]!.split,
          media: built.expected[id]!.media,
        });
        expect(view.images[id]!.objects).toMatchObject(
          sample.objects!.map((o) => ({
            id: Number(o.id),
            label: o.label,
            bbox: o.bbox,
            iscrowd: o.iscrowd ? 1 : 0,
            ...(o.segmentation ? { segmentation: o.segmentation } : {}),
          })),
        );
      }
      await importBack(first, `${built.name} from coco`, task);
      const second = await exportSelection(`${built.name} from coco`, ids, 'image', 'coco');
      expect(cocoView(second)).toEqual(view);
    },
  );

  it('at object level exports the chosen objects of their images only', async () => {
    const built = await build('object_detection');
    const chosen = ['s0.png#10', 's1.png#21', 'odd id 3?.png#13'];
    const csv = await exportSelection(built.name, chosen, 'image_object', 'csv');
    const view = csvView(csv, 'object_detection');
    expect(Object.keys(view).sort()).toEqual(['odd id 3?.png', 's0.png', 's1.png']);
    expect((view['s1.png']!.truth as { id: string }[]).map((o) => o.id)).toEqual(['21']);
    await importBack(csv, 'chosen objects', 'object_detection');
    const again = await client.dataset('chosen objects');
    expect(again.info).toMatchObject({ samples_count: 3, objects_count: 3 });
    const back = await exportSelection('chosen objects', Object.keys(view), 'image', 'csv');
    expect(csvView(back, 'object_detection')).toEqual(view);
  });
});

describe('predictions', () => {
  it('travel as a prediction CSV that loupe import folder --predictions reads back', async () => {
    const built = await build('classification');
    const dataset = await client.dataset(built.name);
    await dataset.uploadPredictions('net v2', [
      { id: 's0.png', label: 'dog', score: 0.7, probabilities: { cat: 0.3, dog: 0.7 } },
      { id: 's1.png', label: 'dog', score: 0.9, probabilities: { cat: 0.1, dog: 0.9 } },
    ]);
    const ids = built.samples.map((s) => s.id);
    const first = await exportSelection(built.name, ids, 'image', 'csv', [
      '--predictions',
      'net v2',
    ]);
    const predictions = readFileSync(join(first, 'predictions/net v2.csv'), 'utf8');
    expect(predictions).toBe(
      'id,label,score,cat,dog\ns0.png,dog,0.7,0.3,0.7\ns1.png,dog,0.9,0.1,0.9\n',
    );
    await importBack(first, 'with predictions', 'classification', [
      '--predictions',
      'net v2=predictions/net v2.csv',
    ]);
    const second = await exportSelection('with predictions', ids, 'image', 'csv', [
      '--predictions',
      'net v2',
    ]);
    expect(readFileSync(join(second, 'predictions/net v2.csv'), 'utf8')).toBe(predictions);
  });

  it('of a detection model become a COCO results file', async () => {
    const built = await build('object_detection');
    const dataset = await client.dataset(built.name);
    await dataset.uploadPredictions('detector', [
      { id: 's0.png', objects: [{ label: 'person', bbox: [1, 1, 2, 2], score: 0.5 }] },
    ]);
    const out = await exportSelection(built.name, ['s0.png'], 'image', 'coco', [
      '--predictions',
      'detector',
    ]);
    const train = JSON.parse(readFileSync(join(out, 'annotations/instances_train.json'), 'utf8'));
    const results = JSON.parse(
      readFileSync(join(out, 'predictions/detector_results.json'), 'utf8'),
    );
    expect(results).toEqual([
      { image_id: train.images[0].id, category_id: 2, bbox: [1, 1, 2, 2], score: 0.5 },
    ]);
  });
});

describe('loupe export', () => {
  it('exports a subset by name', async () => {
    const built = await build('regression');
    const dataset = await client.dataset(built.name);
    const filename = `${built.name}-Two-csv.zip`;
    await client.http.call(api.subsets.create, {
      params: { id: dataset.id },
      body: { name: 'Two', data_level: 'image', item_ids: ['s0.png', 's2.png'] },
    });
    const out = join(temp('subset'), 'out');
    const result = await cli(
      'export',
      '--dataset',
      built.name,
      '--subset',
      'Two',
      '--format',
      'csv',
      '--out',
      out,
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({
      filename,
      out,
    });
    expect(csvView(out, 'regression')).toEqual({
      's0.png': built.expected['s0.png'],
      's2.png': built.expected['s2.png'],
    });
  });

  it('refuses a folder with files in it, a missing choice of items, and COCO for classification', async () => {
    const built = await build('audio_classification');
    const full = temp('full');
    mkdirSync(join(full, 'x'));
    const refused = await cli(
      'export',
      '--dataset',
      built.name,
      '--subset',
      'whatever',
      '--format',
      'csv',
      '--out',
      full,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`--out ${full} is not empty`);
    const neither = await cli('export', '--dataset', built.name, '--format', 'csv', '--out', full);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give either --subset or --items-file');
    const list = join(temp('ids'), 'ids.txt');
    writeFileSync(list, '["s0.wav"]');
    const coco = await cli(
      'export',
      '--dataset',
      built.name,
      '--items-file',
      list,
      '--data-level',
      'audio',
      '--format',
      'coco',
      '--out',
      join(temp('coco'), 'out'),
    );
    expect(coco.code).toBe(1);
    expect(coco.stderr).toContain('not audio_classification');
  });
});
