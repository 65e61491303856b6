// `loupe upload`, `loupe import` and `loupe demo`: datasets into a Loupe instance from files.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import {
  DEMO_TASKS,
  demoDataset,
  encodeWav,
  type DemoDataset,
  type RawImage,
} from '@loupe/analysis';
import { TASK_TRAITS, TaskType, type Dataset } from '@loupe/contracts';
import { encode as encodePng } from 'fast-png';
import type { LoupeClient, Media, PredictionToUpload, SampleToUpload } from '../client/client.js';
import { LoupeError } from '../client/errors.js';
import { importFolder } from '../importers/folder.js';
import { dispatch, parseOptions, required, type Command } from './command.js';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connect } from './connection.js';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';
import {
  checkPredictionsBeforeUpload,
  checkSamplesBeforeUpload,
  existingDatasetShape,
  newDatasetShape,
  type SourcedRows,
} from './preflight.js';
import { progressBar } from './progress.js';

function taskOf(value: string, usage: string): TaskType {
  const parsed = TaskType.safeParse(value);
  if (!parsed.success)
    throw new CliError(`--task must be one of ${TaskType.options.join(', ')}\n\n${usage}`);
  return parsed.data;
}

/** Server errors become exit code 1 with the server's description (and row errors). */
async function serverCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LoupeError) throw new CliError(error.message, 1);
    throw error;
  }
}

/** JSON Lines: one object per line; media strings that are neither blob keys nor URLs are files next to the file. */
function readJsonLines(file: string, mediaFields: string[]): SourcedRows<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read the file (${(error as Error).message})`);
  }
  const base = dirname(file);
  const sources: string[] = [];
  const rows = text.split(/\r?\n/).flatMap((line, index) => {
    if (line.trim() === '') return [];
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw new CliError(`${file}:${index + 1}: each line must be a JSON object`);
    for (const field of mediaFields) {
      const value = row[field];
      if (typeof value === 'string' && !value.startsWith('blob:') && !/^https?:\/\//.test(value)) {
        row[field] = { file: isAbsolute(value) ? value : join(base, value) } satisfies Media;
      }
    }
    sources.push(`${file}:${index + 1}`);
    return [row];
  });
  return { rows, sources };
}

const uploadSamplesUsage = `Usage: loupe upload samples FILE.jsonl --dataset NAME [--task TASK] [--class-names a,b] [--value-names x,y]

Uploads samples, one JSON object per line (fields as in the API: id, image or audio, split, label,
values, objects, mask, transcript, metadata; values of your own go in metadata). Every row and
every media file is checked before anything is sent: a problem is reported with its line and
field, and nothing is uploaded. Media given as file paths (relative to FILE) are uploaded once;
re-running the command changes nothing. With --task, the dataset is created when it does not
exist (--class-names and --value-names are then its classes and regression values).

${CONNECTION_USAGE}
`;

const uploadPredictionsUsage = `Usage: loupe upload predictions FILE.jsonl --dataset NAME --name MODEL

Uploads one model's predictions, one JSON object per line (id of the sample, label, score,
probabilities, values, objects with scores, mask, transcript) to the prediction set MODEL,
created when it does not exist. Every row and mask file is checked before anything is sent.

${CONNECTION_USAGE}
`;

/** The dataset of that name (or id), read only: nothing is created before the upload is checked. */
async function findDataset(client: LoupeClient, name: string): Promise<Dataset | undefined> {
  const all = await serverCall(() => client.datasets());
  return all.find((d) => d.name === name) ?? all.find((d) => d.id === name);
}

function missingDataset(name: string): CliError {
  return new CliError(`no dataset named '${name}': pass --task to create it`);
}

const uploadCommands: Command[] = [
  {
    name: 'samples',
    summary: 'upload samples from a JSON Lines file',
    usage: uploadSamplesUsage,
    async run(args, io) {
      const [file, ...rest] = args;
      if (!file || file.startsWith('-'))
        throw new CliError(`missing FILE.jsonl\n\n${uploadSamplesUsage}`);
      const { values } = parseOptions(
        rest,
        {
          ...CONNECTION_OPTIONS,
          dataset: { type: 'string' },
          task: { type: 'string' },
          'class-names': { type: 'string' },
          'value-names': { type: 'string' },
        },
        uploadSamplesUsage,
      );
      const name = required(values, 'dataset', uploadSamplesUsage);
      const task = values.task ? taskOf(values.task as string, uploadSamplesUsage) : undefined;
      const classNames = values['class-names'] ? String(values['class-names']).split(',') : [];
      const valueNames = values['value-names'] ? String(values['value-names']).split(',') : [];
      const read = readJsonLines(file, ['image', 'audio', 'mask']);
      const client = connect(values);
      const existing = await findDataset(client, name);
      if (!existing && !task) throw missingDataset(name);
      checkSamplesBeforeUpload(
        read,
        existing ? existingDatasetShape(existing) : newDatasetShape(task!, classNames, valueNames),
      );
      const rows = read.rows as SampleToUpload[];
      const result = await serverCall(async () => {
        const dataset = task
          ? await client.createDataset({
              name,
              task_type: task,
              exist_ok: true,
              ...(classNames.length ? { class_names: classNames } : {}),
              ...(valueNames.length ? { value_names: valueNames } : {}),
            })
          : await client.dataset(existing!.id);
        const bar = progressBar('uploading samples', rows.length);
        const totals = await dataset.uploadSamples(rows, {
          onProgress: ({ done }) => bar.update(done),
        });
        bar.done();
        return totals;
      });
      io.stdout(`${JSON.stringify({ dataset: name, ...result })}\n`);
      return 0;
    },
  },
  {
    name: 'predictions',
    summary: "upload a model's predictions from a JSON Lines file",
    usage: uploadPredictionsUsage,
    async run(args, io) {
      const [file, ...rest] = args;
      if (!file || file.startsWith('-'))
        throw new CliError(`missing FILE.jsonl\n\n${uploadPredictionsUsage}`);
      const { values } = parseOptions(
        rest,
        { ...CONNECTION_OPTIONS, dataset: { type: 'string' }, name: { type: 'string' } },
        uploadPredictionsUsage,
      );
      const datasetName = required(values, 'dataset', uploadPredictionsUsage);
      const model = required(values, 'name', uploadPredictionsUsage);
      const read = readJsonLines(file, ['mask']);
      const client = connect(values);
      const existing = await findDataset(client, datasetName);
      if (!existing) throw new CliError(`no dataset named '${datasetName}'`);
      checkPredictionsBeforeUpload(read, existingDatasetShape(existing));
      const rows = read.rows as { id: string }[];
      const result = await serverCall(async () => {
        const dataset = await client.dataset(existing.id);
        const set = await dataset.createPredictionSet(model);
        const bar = progressBar('uploading predictions', rows.length);
        const totals = await set.uploadPredictions(rows, {
          onProgress: ({ done }) => bar.update(done),
        });
        bar.done();
        return { prediction_set_id: set.id, ...totals };
      });
      io.stdout(`${JSON.stringify({ dataset: datasetName, name: model, ...result })}\n`);
      return 0;
    },
  },
];

export const uploadCommand: Command = {
  name: 'upload',
  summary: 'upload samples or predictions from JSON Lines files',
  usage:
    'Usage: loupe upload samples|predictions FILE.jsonl [options]\n\n' +
    uploadCommands.map((c) => `  ${c.name.padEnd(16)}${c.summary}`).join('\n') +
    '\n',
  commands: uploadCommands,
  run: (args, io) => dispatch('loupe upload', uploadCommands, args, io),
};

function importUsage(layout: 'folder' | 'coco'): string {
  return `Usage: loupe import ${layout} PATH --name NAME --task TASK [--exist-ok]${layout === 'folder' ? ' [--splits NAME=FILE,…] [--predictions NAME=FILE]…' : ''}

${layout === 'folder' ? 'Imports a folder with dataset.yaml and one CSV per split (or a COCO folder; see docs/formats.md).' : 'Imports a COCO folder: annotations/<split>.json and images/<split>/.'}
The whole folder is checked first (every row, every media file); a problem is reported with its
file, line and field, and nothing is created or uploaded. A sample's id is its media path as
written in the CSV (or its id column), or the COCO file name.

  --exist-ok    import into the dataset NAME when it exists already (same task): running an
                import again resumes it, and samples already there are left unchanged. Without
                it, an existing dataset of that name is refused.
${
  layout === 'folder'
    ? `  --splits train=train.csv,test=test.csv
                read only these CSVs as samples, each as the split named (overrides the
                splits of dataset.yaml); without either, every CSV in the folder is a split
  --predictions NAME=FILE
                after the samples, upload the prediction CSV FILE as the prediction set NAME
                (repeat for more); paths are relative to the folder
`
    : ''
}
${CONNECTION_USAGE}
`;
}

/** `NAME=FILE` pairs, from one comma-separated option or a repeated one; names used once. */
function namedFiles(values: string[], option: string, usage: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of values) {
    const equals = pair.indexOf('=');
    const name = pair.slice(0, equals).trim();
    const file = pair.slice(equals + 1).trim();
    if (equals < 0 || !name || !file)
      throw new CliError(`--${option} takes NAME=FILE, got '${pair}'\n\n${usage}`);
    if (name in out) throw new CliError(`--${option} names '${name}' twice\n\n${usage}`);
    out[name] = file;
  }
  return out;
}

function importCommand(layout: 'folder' | 'coco'): Command {
  const usage = importUsage(layout);
  return {
    name: layout,
    summary:
      layout === 'folder'
        ? 'import a dataset folder (dataset.yaml + CSV per split)'
        : 'import a COCO folder',
    usage,
    async run(args, io) {
      const [path, ...rest] = args;
      if (!path || path.startsWith('-')) throw new CliError(`missing PATH\n\n${usage}`);
      const { values } = parseOptions(
        rest,
        {
          ...CONNECTION_OPTIONS,
          name: { type: 'string' },
          task: { type: 'string' },
          'exist-ok': { type: 'boolean' },
          ...(layout === 'folder'
            ? {
                splits: { type: 'string' },
                predictions: { type: 'string', multiple: true },
              }
            : {}),
        },
        usage,
      );
      const name = required(values, 'name', usage);
      const splits =
        values.splits === undefined
          ? undefined
          : namedFiles(String(values.splits).split(','), 'splits', usage);
      const predictions =
        values.predictions === undefined
          ? undefined
          : namedFiles(values.predictions as unknown as string[], 'predictions', usage);
      const task = taskOf(required(values, 'task', usage), usage);
      const existOk = values['exist-ok'] === true;
      if (layout === 'coco' && !TASK_TRAITS[task].hasObjects) {
        throw new CliError(
          `a COCO folder imports as object_detection or instance_segmentation\n\n${usage}`,
        );
      }
      const folder = importFolder(path, task, layout === 'coco' ? 'coco' : undefined, {
        ...(splits ? { splits } : {}),
        ...(predictions ? { predictions } : {}),
      });
      const {
        class_names: classNames,
        value_names: valueNames,
        label_map: labelMap,
      } = folder.dataset;
      const shape = newDatasetShape(
        task,
        classNames ?? (labelMap ? [...new Set(Object.values(labelMap))] : []),
        valueNames,
      );
      checkSamplesBeforeUpload({ rows: folder.samples, sources: folder.sources }, shape);
      for (const set of folder.predictionSets) {
        // Classes learned from the labels are known here only once the samples are read.
        const learned = shape.closed_classes
          ? shape
          : {
              ...shape,
              class_names: [
                ...new Set(folder.samples.flatMap((s) => (s.label ? [String(s.label)] : []))),
              ],
            };
        checkPredictionsBeforeUpload({ rows: set.predictions, sources: set.sources }, learned);
      }
      const client = connect(values);
      const result = await serverCall(async () => {
        const dataset = await client
          .createDataset({ name, task_type: task, exist_ok: existOk, ...folder.dataset })
          .catch((error: unknown) => {
            if (error instanceof LoupeError && error.status === 409 && !existOk)
              throw new CliError(
                `${error.description} Add --exist-ok to import into it (running an import again resumes it: samples already there are left unchanged).`,
                1,
              );
            throw error;
          });
        const bar = progressBar('importing', folder.samples.length);
        const totals = await dataset.uploadSamples(folder.samples, {
          onProgress: ({ done }) => bar.update(done),
        });
        bar.done();
        const sets = [];
        for (const { name: model, predictions: rows } of folder.predictionSets) {
          const set = await dataset.createPredictionSet(model);
          const setBar = progressBar(`predictions ${model}`, rows.length);
          const setTotals = await set.uploadPredictions(rows, {
            onProgress: ({ done }) => setBar.update(done),
          });
          setBar.done();
          sets.push({ name: model, prediction_set_id: set.id, ...setTotals });
        }
        return {
          dataset_id: dataset.id,
          ...totals,
          ...(sets.length ? { prediction_sets: sets } : {}),
        };
      });
      io.stdout(
        `${JSON.stringify({ dataset: name, layout: folder.layout, samples: folder.samples.length, ...result })}\n`,
      );
      return 0;
    },
  };
}

const importCommands = [importCommand('folder'), importCommand('coco')];
export const importCommandGroup: Command = {
  name: 'import',
  summary: 'import a dataset folder (CSV layout or COCO)',
  usage:
    'Usage: loupe import folder|coco PATH --name NAME --task TASK [--exist-ok] [--splits NAME=FILE,…] [--predictions NAME=FILE]…\n',
  commands: importCommands,
  run: (args, io) => dispatch('loupe import', importCommands, args, io),
};

function png(image: RawImage): Uint8Array {
  return encodePng({
    width: image.width,
    height: image.height,
    data: image.data as Uint8Array,
    channels: image.channels,
    depth: 8,
  });
}

async function uploadDemo(client: LoupeClient, demo: DemoDataset, io: CliIo): Promise<void> {
  const dataset = await client.createDataset({
    name: demo.name,
    task_type: demo.task_type,
    description: demo.description,
    exist_ok: true,
    ...(demo.class_names ? { class_names: demo.class_names } : {}),
    ...(demo.value_names ? { value_names: demo.value_names } : {}),
    ...(demo.label_map ? { label_map: demo.label_map } : {}),
  });
  const samples: SampleToUpload[] = demo.samples.map((s) => ({
    id: s.id,
    split: s.split,
    ...(s.image
      ? { image: png(s.image) }
      : { audio: encodeWav([s.audio!.samples], s.audio!.sampleRate) }),
    ...(s.mask ? { mask: png(s.mask) } : {}),
    ...(s.label ? { label: s.label } : {}),
    ...(s.values ? { values: s.values } : {}),
    ...(s.objects ? { objects: s.objects } : {}),
    ...(s.transcript ? { transcript: s.transcript } : {}),
    metadata: s.metadata,
  }));
  await dataset.uploadSamples(samples, { metadataTypes: demo.metadata_types });
  for (const prediction of demo.predictions) {
    await dataset.uploadPredictions(
      prediction.name,
      prediction.items.map(({ mask, ...item }): PredictionToUpload => ({
        ...item,
        ...(mask ? { mask: png(mask) } : {}),
      })),
    );
  }
  io.stderr(
    `  ${demo.name}: ${samples.length} samples, ${demo.predictions.length} prediction sets\n`,
  );
}

const demoUsage = `Usage: loupe demo [--samples N] [--task TASK]

Generates a demo dataset of each task type (images and audio made procedurally, no network) with
metadata, splits and two prediction sets, and uploads them. Re-running adds nothing new.

${CONNECTION_USAGE}
`;

export const demoCommand: Command = {
  name: 'demo',
  summary: 'generate and upload a demo dataset of each task type',
  usage: demoUsage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      { ...CONNECTION_OPTIONS, samples: { type: 'string' }, task: { type: 'string' } },
      demoUsage,
    );
    const count = values.samples === undefined ? 120 : Number(values.samples);
    if (!Number.isInteger(count) || count < 1 || count > 100_000)
      throw new CliError(`--samples must be a whole number from 1 to 100000\n\n${demoUsage}`);
    const tasks = values.task ? [taskOf(values.task as string, demoUsage)] : [...DEMO_TASKS];
    const client = connect(values);
    io.stderr(
      `Uploading ${tasks.length} demo dataset${tasks.length === 1 ? '' : 's'} of ${count} samples…\n`,
    );
    await serverCall(async () => {
      for (const task of tasks) await uploadDemo(client, demoDataset(task, count), io);
    });
    io.stdout(`${JSON.stringify({ datasets: tasks.map((t) => demoDataset(t, 1).name) })}\n`);
    return 0;
  },
};
