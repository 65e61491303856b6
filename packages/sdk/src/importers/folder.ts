// Reads a dataset folder in the layouts of docs/formats.md into an upload: the CSV layout
// (dataset.yaml + one CSV per split, and prediction CSVs when named; for tasks with objects an
// `objects` column of JSON) and the COCO layout (annotations/ + images/<split>/).
// A sample's id is its `id` cell or media path as written in the CSV, or the COCO file name.
// Nothing here checks rows or files against the server's rules: cli/preflight.ts does that for
// the whole folder before anything is sent.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import {
  CSV_LAYOUT_COLUMNS,
  TASK_TRAITS,
  type CreateDatasetRequest,
  type TaskType,
} from '@loupe/contracts';
import type { Media, PredictionToUpload, SampleToUpload } from '../client/client.js';
import { parseCsv, type CsvTable } from '../cli/csv.js';
import { CliError } from '../cli/errors.js';
import { parseYaml } from './yaml.js';

export interface FolderImport {
  layout: 'csv' | 'coco';
  dataset: Omit<CreateDatasetRequest, 'name' | 'task_type'>;
  samples: SampleToUpload[];
  /** Where each sample comes from, for messages: `…/train.csv:4`, `…/val.json images[2]`. */
  sources: string[];
  /** Prediction sets to upload after the samples, in the order they were named. */
  predictionSets: { name: string; predictions: PredictionToUpload[]; sources: string[] }[];
}

export interface FolderOptions {
  /** Split name → sample CSV (relative to the folder): only these are read as samples. */
  splits?: Record<string, string>;
  /** Prediction set name → prediction CSV (relative to the folder). */
  predictions?: Record<string, string>;
}

const NOT_SAMPLES_HINT =
  'name the sample files with --splits or in dataset.yaml, or import predictions with --predictions NAME=FILE';
/** File names that say predictions (`predictions_A.csv`, `preds.csv`): never guessed to be a split. */
const PREDICTIONS_NAME = /^pred(ictions?|s)?(?![a-z])/i;

const MEDIA_COLUMNS = ['image', 'audio'];
const KNOWN_COLUMNS = new Set(CSV_LAYOUT_COLUMNS);
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A metadata column's values, typed as a whole: numbers when every filled cell is one, booleans
 * when every filled cell is true or false, text otherwise. Empty cells are missing values.
 */
function columnValues(cells: string[]): (number | string | boolean | undefined)[] {
  const filled = cells.map((c) => c.trim()).filter((c) => c !== '');
  if (filled.length > 0 && filled.every((c) => NUMBER.test(c)))
    return cells.map((c) => (c.trim() === '' ? undefined : Number(c)));
  if (filled.length > 0 && filled.every((c) => c === 'true' || c === 'false'))
    return cells.map((c) => (c.trim() === '' ? undefined : c.trim() === 'true'));
  return cells.map((c) => (c.trim() === '' ? undefined : c));
}

function stringList(value: unknown, file: string, key: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new CliError(`${file}: ${key} must be a list`);
  return value.map(String);
}

/** A media path as written: an http(s) URL stays one; a file is relative to the folder unless absolute. */
function media(root: string, path: string): Media {
  if (/^https?:\/\//.test(path)) return path;
  return { file: isAbsolute(path) ? path : join(root, path) };
}

export function importCsvFolder(
  root: string,
  task: TaskType,
  options: FolderOptions = {},
): FolderImport {
  const labelKind = TASK_TRAITS[task].label;
  const yamlPath = join(root, 'dataset.yaml');
  const config = existsSync(yamlPath) ? parseYaml(readFileSync(yamlPath, 'utf8'), yamlPath) : {};
  const declared = config.task_type;
  if (declared !== undefined && declared !== null && declared !== task)
    throw new CliError(`${yamlPath}: task_type is '${String(declared)}', but --task is '${task}'`);
  const classNames = stringList(config.class_names, yamlPath, 'class_names');
  const valueNames = stringList(config.value_names, yamlPath, 'value_names');
  const labelMap =
    config.label_map && typeof config.label_map === 'object' && !Array.isArray(config.label_map)
      ? Object.fromEntries(Object.entries(config.label_map).map(([k, v]) => [String(k), String(v)]))
      : undefined;
  if (config.label_map !== undefined && config.label_map !== null && !labelMap)
    throw new CliError(`${yamlPath}: label_map must map mask pixel values to class names`);
  if (labelKind === 'value' && !valueNames?.length)
    throw new CliError(`${yamlPath}: a regression dataset needs value_names`);
  if (labelKind === 'mask' && !classNames?.length && !labelMap)
    throw new CliError(
      `${yamlPath}: a semantic segmentation dataset needs class_names (or a label_map)`,
    );
  const yamlSplits = splitsOf(config.splits, yamlPath);
  const predictionFiles = new Set(
    Object.values(options.predictions ?? {}).map((file) => resolvePath(root, file)),
  );
  const named = options.splits ?? yamlSplits;
  const where = options.splits ? '--splits' : `${yamlPath}: splits`;
  const files: { split: string; file: string; table: CsvTable }[] = [];
  if (named) {
    for (const [split, name] of Object.entries(named)) {
      const file = resolvePath(root, name);
      if (!existsSync(file) || !statSync(file).isFile())
        throw new CliError(
          `${where} names ${name} for split '${split}', but ${file} is not a file`,
        );
      if (predictionFiles.has(file))
        throw new CliError(`${name} is named both as split '${split}' and as predictions`);
      files.push({ split, file, table: parseCsv(readFileSync(file, 'utf8'), file) });
    }
  } else {
    const csvs = readdirSync(root)
      .filter((name) => name.toLowerCase().endsWith('.csv'))
      .filter((name) => !predictionFiles.has(join(root, name)))
      .sort();
    if (csvs.length === 0)
      throw new CliError(`${root}: no CSV files (one per split, e.g. train.csv)`);
    const refused: string[] = [];
    const all: typeof files = [];
    for (const name of csvs) {
      const file = join(root, name);
      const table = parseCsv(readFileSync(file, 'utf8'), file);
      const found = { split: basename(name, name.slice(-4)), file, table };
      all.push(found);
      const reason = notSamplesReason(name, table.header, task, valueNames ?? []);
      if (reason) refused.push(`${name} is not a sample file (${reason})`);
      else files.push(found);
    }
    // With no sample file at all, each CSV is read as one, to say what it lacks.
    if (refused.length && files.length)
      throw new CliError(`${refused.join('; ')}: ${NOT_SAMPLES_HINT}`);
    if (!files.length) files.push(...all);
  }
  const samples: SampleToUpload[] = [];
  const sources: string[] = [];
  for (const { split, file, table } of files) {
    const mediaColumn = MEDIA_COLUMNS.find((c) => table.header.includes(c));
    if (!mediaColumn) throw new CliError(`${file}: needs an 'image' or 'audio' column`);
    const col = (column: string) => table.header.indexOf(column);
    const metadataColumns = table.header.flatMap((column, i) =>
      KNOWN_COLUMNS.has(column) || valueNames?.includes(column)
        ? []
        : [{ column, values: columnValues(table.rows.map((row) => row.cells[i]!)) }],
    );
    table.rows.forEach((row, r) => {
      const get = (column: string) => (col(column) >= 0 ? row.cells[col(column)] : undefined);
      const path = get(mediaColumn)!;
      if (!path) throw new CliError(`${file}:${row.line}: ${mediaColumn} is empty`);
      const sample: SampleToUpload = {
        id: get('id') || path,
        split,
        [mediaColumn]: media(root, path),
      };
      const label = get('label');
      if (label) sample.label = label;
      const transcript = get('transcript');
      if (transcript !== undefined) sample.transcript = transcript;
      const mask = get('semantic_masks') || get('mask');
      if (mask) sample.mask = media(root, mask);
      const objects = labelKind === 'objects' ? get('objects') : undefined;
      if (objects) sample.objects = objectsCell(objects, `${file}:${row.line}`) as never;
      if (labelKind === 'value') {
        const values: Record<string, number> = {};
        const combined = get('values');
        if (combined !== undefined) {
          const parts = combined
            .replace(/^\[|\]$/g, '')
            .split(/[,;\s]+/)
            .filter(Boolean)
            .map(Number);
          valueNames!.forEach((n, i) => (values[n] = parts[i]!));
        } else for (const n of valueNames!) values[n] = Number(get(n));
        for (const [n, v] of Object.entries(values)) {
          if (!Number.isFinite(v))
            throw new CliError(`${file}:${row.line}: value '${n}' is not a number`);
        }
        sample.values = values;
      }
      const metadata: Record<string, number | string | boolean> = {};
      for (const { column, values } of metadataColumns) {
        if (values[r] !== undefined) metadata[column] = values[r];
      }
      if (Object.keys(metadata).length) sample.metadata = metadata;
      samples.push(sample);
      sources.push(`${file}:${row.line}`);
    });
  }
  return {
    layout: 'csv',
    dataset: {
      ...(classNames ? { class_names: classNames } : {}),
      ...(valueNames ? { value_names: valueNames } : {}),
      ...(labelMap ? { label_map: labelMap } : {}),
    },
    samples,
    sources,
    predictionSets: Object.entries(options.predictions ?? {}).map(([name, file]) => ({
      name,
      ...readPredictions(root, file, task, valueNames ?? [], samples),
    })),
  };
}

function resolvePath(root: string, path: string): string {
  return isAbsolute(path) ? path : join(root, path);
}

/** dataset.yaml's `splits`: a mapping of split name to CSV file, or nothing. */
function splitsOf(value: unknown, file: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0)
    throw new CliError(
      `${file}: splits must map each split name to its CSV file, e.g. splits: {train: train.csv, test: test.csv}`,
    );
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** Why a CSV found in the folder is clearly not a split's samples, if it is not. */
function notSamplesReason(
  name: string,
  header: string[],
  task: TaskType,
  valueNames: string[],
): string | undefined {
  if (PREDICTIONS_NAME.test(name)) return 'its name says predictions';
  const { media, label: labelKind } = TASK_TRAITS[task];
  if (!header.includes(media)) return `it has no ${media} column`;
  if (labelKind === 'class' && !header.includes('label')) return 'it has no label column';
  if (
    labelKind === 'value' &&
    !header.includes('values') &&
    !valueNames.every((n) => header.includes(n))
  )
    return 'it has no values column nor one column per value name';
  if (labelKind === 'mask' && !header.includes('semantic_masks') && !header.includes('mask'))
    return 'it has no semantic_masks column';
  if (labelKind === 'transcript' && !header.includes('transcript'))
    return 'it has no transcript column';
  if (labelKind === 'objects' && !header.includes('objects'))
    return `it has no objects column; ${task} folders also come in the COCO layout (annotations/ and images/<split>/)`;
  return undefined;
}

/** An `objects` cell: a JSON list of objects (id, label, bbox, segmentation, iscrowd, score). */
function objectsCell(text: string, where: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${where}: objects is not JSON (${(error as Error).message})`);
  }
  if (
    !Array.isArray(parsed) ||
    !parsed.every((o) => typeof o === 'object' && o !== null && !Array.isArray(o))
  )
    throw new CliError(`${where}: objects must be a JSON list of objects`);
  return parsed as Record<string, unknown>[];
}

/**
 * A prediction CSV (docs/formats.md): the sample's `id` (or its media path, when that is its id),
 * then the task's columns; for classification every other column is a class's probability.
 */
function readPredictions(
  root: string,
  name: string,
  task: TaskType,
  valueNames: string[],
  samples: SampleToUpload[],
): { predictions: PredictionToUpload[]; sources: string[] } {
  const file = resolvePath(root, name);
  if (!existsSync(file) || !statSync(file).isFile())
    throw new CliError(`--predictions names ${name}, but ${file} is not a file`);
  const table = parseCsv(readFileSync(file, 'utf8'), file);
  const idColumn = ['id', ...MEDIA_COLUMNS].find((c) => table.header.includes(c));
  if (!idColumn)
    throw new CliError(`${file}: a prediction CSV needs an id column (the sample's id)`);
  const labelKind = TASK_TRAITS[task].label;
  const classes = labelKind === 'class';
  const taskColumns = classes
    ? ['label', 'score']
    : labelKind === 'value'
      ? ['values', ...valueNames]
      : labelKind === 'mask'
        ? ['mask', 'semantic_masks']
        : labelKind === 'objects'
          ? ['objects']
          : ['transcript'];
  const ignored = new Set(['id', ...MEDIA_COLUMNS]);
  const extra = table.header.filter((c) => !ignored.has(c) && !taskColumns.includes(c));
  if (extra.length && !classes)
    throw new CliError(
      `${file}: unknown column '${extra[0]}': a ${task} prediction CSV takes id and ${taskColumns.join(', ')}`,
    );
  const known = new Set(samples.map((s) => s.id));
  const predictions: PredictionToUpload[] = [];
  const sources: string[] = [];
  for (const row of table.rows) {
    const get = (column: string) => {
      const i = table.header.indexOf(column);
      return i >= 0 && row.cells[i] !== '' ? row.cells[i] : undefined;
    };
    const id = get(idColumn);
    if (!id) throw new CliError(`${file}:${row.line}: ${idColumn} is empty`);
    if (!known.has(id))
      throw new CliError(`${file}:${row.line}: no sample of the folder has the id '${id}'`);
    const prediction: PredictionToUpload = { id };
    const label = get('label');
    if (label !== undefined) prediction.label = label;
    const transcript = get('transcript');
    if (transcript !== undefined) prediction.transcript = transcript;
    const mask = get('mask') ?? get('semantic_masks');
    if (mask !== undefined) prediction.mask = media(root, mask);
    const objects = labelKind === 'objects' ? get('objects') : undefined;
    if (objects !== undefined) prediction.objects = objectsCell(objects, `${file}:${row.line}`);
    const combined = get('values');
    const numbers: [string, string | undefined][] =
      labelKind === 'value' && combined === undefined
        ? valueNames.map((n) => [n, get(n)])
        : classes
          ? extra.map((c) => [c, get(c)])
          : [];
    const score = get('score');
    for (const [column, cell] of [['score', score] as const, ...numbers]) {
      if (cell !== undefined && !NUMBER.test(cell.trim()))
        throw new CliError(`${file}:${row.line}: ${column} '${cell}' is not a number`);
    }
    if (score !== undefined) prediction.score = Number(score);
    if (labelKind === 'value') {
      const parts = combined
        ?.replace(/^\[|\]$/g, '')
        .split(/[,;\s]+/)
        .filter(Boolean);
      prediction.values = Object.fromEntries(
        valueNames.map((n, i) => [n, Number(parts ? parts[i] : get(n))]),
      );
    } else if (numbers.some(([, v]) => v !== undefined))
      prediction.probabilities = Object.fromEntries(numbers.map(([n, v]) => [n, Number(v ?? 0)]));
    predictions.push(prediction);
    sources.push(`${file}:${row.line}`);
  }
  return { predictions, sources };
}

interface CocoFile {
  images?: { id: number; file_name: string }[];
  annotations?: {
    id?: number | string;
    image_id: number;
    category_id: number;
    bbox?: [number, number, number, number];
    segmentation?: unknown;
    iscrowd?: number;
  }[];
  categories?: { id: number; name: string }[];
}

/** Polygons with at least three points, or an RLE as it is; undefined when none is left. */
function segmentationOf(
  value: unknown,
): NonNullable<SampleToUpload['objects']>[number]['segmentation'] {
  if (Array.isArray(value)) {
    const polygons = value.filter((p): p is number[] => Array.isArray(p) && p.length >= 6);
    return polygons.length ? polygons : undefined;
  }
  if (value && typeof value === 'object') return value as never;
  return undefined;
}

export function importCocoFolder(root: string, task: TaskType): FolderImport {
  if (!TASK_TRAITS[task].hasObjects)
    throw new CliError(
      `${root}: a COCO folder imports as object_detection or instance_segmentation, not ${task}`,
    );
  const annotationsDir = join(root, 'annotations');
  if (!existsSync(annotationsDir)) throw new CliError(`${root}: no annotations/ folder`);
  const files = readdirSync(annotationsDir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new CliError(`${annotationsDir}: no COCO .json files`);
  const classNames: string[] = [];
  const samples: SampleToUpload[] = [];
  const sources: string[] = [];
  for (const name of files) {
    const file = join(annotationsDir, name);
    const split = basename(name, '.json').replace(/^instances_/, '');
    let coco: CocoFile;
    try {
      coco = JSON.parse(readFileSync(file, 'utf8')) as CocoFile;
    } catch (error) {
      throw new CliError(`${file}: not valid JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(coco.images) || !Array.isArray(coco.categories))
      throw new CliError(`${file}: needs 'images' and 'categories' arrays`);
    const categories = new Map(coco.categories.map((c) => [c.id, c.name]));
    for (const c of [...coco.categories].sort((a, b) => a.id - b.id))
      if (!classNames.includes(c.name)) classNames.push(c.name);
    const byImage = new Map<number, NonNullable<CocoFile['annotations']>>();
    (coco.annotations ?? []).forEach((a, i) => {
      if (!categories.has(a.category_id))
        throw new CliError(
          `${file}: annotations[${i}].category_id ${a.category_id} is not a category`,
        );
      byImage.set(a.image_id, [...(byImage.get(a.image_id) ?? []), a]);
    });
    coco.images.forEach((image, i) => {
      const inSplit = join(root, 'images', split, image.file_name);
      const flat = join(root, 'images', image.file_name);
      samples.push({
        id: image.file_name,
        split,
        // images/<split>/<file_name>, else images/<file_name>; the check names the first.
        image: { file: !existsSync(inSplit) && existsSync(flat) ? flat : inSplit },
        objects: (byImage.get(image.id) ?? []).map((a) => {
          const segmentation = segmentationOf(a.segmentation);
          return {
            ...(a.id !== undefined ? { id: String(a.id) } : {}),
            label: categories.get(a.category_id)!,
            ...(a.bbox ? { bbox: a.bbox } : {}),
            ...(segmentation ? { segmentation } : {}),
            ...(a.iscrowd ? { iscrowd: true } : {}),
          };
        }),
      });
      sources.push(`${file} images[${i}]`);
    });
  }
  return {
    layout: 'coco',
    dataset: { class_names: classNames },
    samples,
    sources,
    predictionSets: [],
  };
}

export function importFolder(
  root: string,
  task: TaskType,
  layout?: 'csv' | 'coco',
  options: FolderOptions = {},
): FolderImport {
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new CliError(`${root}: not a folder`);
  const chosen =
    layout ??
    (existsSync(join(root, 'annotations'))
      ? 'coco'
      : existsSync(join(root, 'dataset.yaml'))
        ? 'csv'
        : undefined);
  if (!chosen)
    throw new CliError(`${root} has neither dataset.yaml nor annotations/ (see docs/formats.md)`);
  if (chosen === 'coco' && (options.splits || options.predictions))
    throw new CliError(
      `${root}: --splits and --predictions are for the CSV layout; a COCO folder's splits are its annotation files (upload predictions with loupe upload predictions)`,
    );
  return chosen === 'coco' ? importCocoFolder(root, task) : importCsvFolder(root, task, options);
}
