// Reads a dataset folder in the layouts of docs/formats.md into an upload: the CSV layout
// (dataset.yaml + one CSV per split) and the COCO layout (annotations/ + images/<split>/).
// A sample's id is its media path as written in the CSV, or the COCO file name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CreateDatasetRequest, TaskType } from '@loupe/contracts';
import type { SampleToUpload } from '../client/client.js';
import { parseCsv } from '../cli/csv.js';
import { CliError } from '../cli/errors.js';
import { parseYaml } from './yaml.js';

export interface FolderImport {
  layout: 'csv' | 'coco';
  dataset: Omit<CreateDatasetRequest, 'name' | 'task_type'>;
  samples: SampleToUpload[];
}

const MEDIA_COLUMNS = ['image', 'audio'];
const KNOWN_COLUMNS = new Set([
  'image',
  'audio',
  'label',
  'values',
  'semantic_masks',
  'mask',
  'split',
  'transcript',
  'class_names',
]);

function cell(value: string): number | string | boolean {
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return value;
}

function stringList(value: unknown, file: string, key: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new CliError(`${file}: ${key} must be a list`);
  return value.map(String);
}

function media(
  root: string,
  path: string,
  file: string,
  line: number,
  column: string,
): { file: string } {
  const full = join(root, path);
  if (!existsSync(full))
    throw new CliError(`${file}:${line}: ${column} '${path}' does not exist (looked for ${full})`);
  return { file: full };
}

export function importCsvFolder(root: string, task: TaskType): FolderImport {
  const yamlPath = join(root, 'dataset.yaml');
  const config = existsSync(yamlPath) ? parseYaml(readFileSync(yamlPath, 'utf8'), yamlPath) : {};
  const classNames = stringList(config.class_names, yamlPath, 'class_names');
  const valueNames = stringList(config.value_names, yamlPath, 'value_names');
  const labelMap =
    config.label_map && typeof config.label_map === 'object' && !Array.isArray(config.label_map)
      ? Object.fromEntries(Object.entries(config.label_map).map(([k, v]) => [String(k), String(v)]))
      : undefined;
  if (task === 'regression' && !valueNames?.length)
    throw new CliError(`${yamlPath}: a regression dataset needs value_names`);
  const csvs = readdirSync(root)
    .filter((name) => name.toLowerCase().endsWith('.csv'))
    .sort();
  if (csvs.length === 0)
    throw new CliError(`${root}: no CSV files (one per split, e.g. train.csv)`);
  const samples: SampleToUpload[] = [];
  for (const name of csvs) {
    const file = join(root, name);
    const split = basename(name, '.csv');
    const table = parseCsv(readFileSync(file, 'utf8'), file);
    const mediaColumn = MEDIA_COLUMNS.find((c) => table.header.includes(c));
    if (!mediaColumn) throw new CliError(`${file}: needs an 'image' or 'audio' column`);
    const col = (column: string) => table.header.indexOf(column);
    for (const row of table.rows) {
      const get = (column: string) => (col(column) >= 0 ? row.cells[col(column)] : undefined);
      const path = get(mediaColumn)!;
      if (!path) throw new CliError(`${file}:${row.line}: ${mediaColumn} is empty`);
      const sample: SampleToUpload = {
        id: path,
        split,
        [mediaColumn]: media(root, path, file, row.line, mediaColumn),
      };
      const label = get('label');
      if (label) sample.label = label;
      const transcript = get('transcript');
      if (transcript !== undefined) sample.transcript = transcript;
      const mask = get('semantic_masks') ?? get('mask');
      if (mask) sample.mask = media(root, mask, file, row.line, 'semantic_masks');
      if (task === 'regression') {
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
      table.header.forEach((column, i) => {
        if (KNOWN_COLUMNS.has(column) || valueNames?.includes(column) || row.cells[i] === '')
          return;
        metadata[column] = cell(row.cells[i]!);
      });
      if (Object.keys(metadata).length) sample.metadata = metadata;
      samples.push(sample);
    }
  }
  return {
    layout: 'csv',
    dataset: {
      ...(classNames ? { class_names: classNames } : {}),
      ...(valueNames ? { value_names: valueNames } : {}),
      ...(labelMap ? { label_map: labelMap } : {}),
    },
    samples,
  };
}

interface CocoFile {
  images?: { id: number; file_name: string }[];
  annotations?: {
    image_id: number;
    category_id: number;
    bbox?: [number, number, number, number];
    segmentation?: unknown;
    iscrowd?: number;
  }[];
  categories?: { id: number; name: string }[];
}

export function importCocoFolder(root: string): FolderImport {
  const annotationsDir = join(root, 'annotations');
  const files = readdirSync(annotationsDir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new CliError(`${annotationsDir}: no COCO .json files`);
  const classNames: string[] = [];
  const samples: SampleToUpload[] = [];
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
    for (const c of coco.categories) if (!classNames.includes(c.name)) classNames.push(c.name);
    const byImage = new Map<number, NonNullable<CocoFile['annotations']>>();
    (coco.annotations ?? []).forEach((a, i) => {
      if (!categories.has(a.category_id))
        throw new CliError(
          `${file}: annotations[${i}].category_id ${a.category_id} is not a category`,
        );
      byImage.set(a.image_id, [...(byImage.get(a.image_id) ?? []), a]);
    });
    coco.images.forEach((image, i) => {
      const path = join('images', split, image.file_name);
      if (!existsSync(join(root, path)))
        throw new CliError(
          `${file}: images[${i}] ${image.file_name} is missing from ${join(root, 'images', split)}`,
        );
      samples.push({
        id: image.file_name,
        split,
        image: { file: join(root, path) },
        objects: (byImage.get(image.id) ?? []).map((a) => ({
          label: categories.get(a.category_id)!,
          ...(a.bbox ? { bbox: a.bbox } : {}),
          ...(a.segmentation ? { segmentation: a.segmentation as never } : {}),
          ...(a.iscrowd ? { iscrowd: true } : {}),
        })),
      });
    });
  }
  return { layout: 'coco', dataset: { class_names: classNames }, samples };
}

export function importFolder(root: string, task: TaskType, layout?: 'csv' | 'coco'): FolderImport {
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
  return chosen === 'coco' ? importCocoFolder(root) : importCsvFolder(root, task);
}
