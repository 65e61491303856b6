// The CSV layout of an export (docs/formats.md, "Exporting"): dataset.yaml, one CSV per split
// (id, media path, the task's column, uploaded metadata), the media under images/ or audio/,
// masks under masks/, and with a prediction set a prediction CSV. What `loupe import folder`
// reads back: the same samples, splits, labels, values, transcripts, masks, objects, metadata.
import { CSV_LAYOUT_COLUMNS, TASK_TRAITS, type LabelKind } from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { PredictionRecord } from '../prediction-sets/prediction-sets.repository.js';
import { mediaKind } from '../storage/media.js';
import { csvCell, valuesCell } from './csv-cells.js';
import type { ExportObject } from './export.repository.js';
import {
  DEFAULT_SPLIT,
  MissingMedia,
  SplitFileNames,
  objectSuffix,
  readAhead,
  safePart,
  sampleFileName,
  type ExportJob,
  type ExportPage,
} from './export-job.js';
import type { DeflateSpool } from './text-spool.js';
import type { ZipWriter } from './zip-stream.js';

/** The column holding each kind of ground truth (as `loupe import folder` reads it). */
const TASK_COLUMN: Record<LabelKind, string> = {
  class: 'label',
  value: 'values',
  mask: 'semantic_masks',
  transcript: 'transcript',
  objects: 'objects',
};

/** A YAML string the importer's reader gives back as it is (it only unescapes `\"`). */
function yamlString(value: string): string {
  return `"${value.replace(/[\r\n]+/g, ' ').replace(/"/g, '\\"')}"`;
}

function objectsCell(
  sampleId: string,
  objects: readonly (ExportObject | (ExportObject & { score: number }))[],
): string {
  return csvCell(
    JSON.stringify(
      objects.map((o) => ({
        id: objectSuffix(sampleId, o.id),
        label: o.label,
        ...(o.x !== null && o.y !== null && o.w !== null && o.h !== null
          ? { bbox: [o.x, o.y, o.w, o.h] }
          : {}),
        ...(o.segmentation ? { segmentation: o.segmentation } : {}),
        ...(o.iscrowd ? { iscrowd: true } : {}),
        ...('score' in o ? { score: o.score } : {}),
      })),
    ),
  );
}

function probability(prediction: PredictionRecord, className: string, index: number): string {
  const p = prediction.probabilities;
  const value = !p ? undefined : Array.isArray(p) ? p[index] : p[className];
  return typeof value === 'number' ? String(value) : '';
}

/** A mask's file name: the sample's, ending in .png. */
function png(name: string): string {
  return name.endsWith('.png') ? name : `${name}.png`;
}

/**
 * The uploaded metadata fields a CSV has columns for: a field named like a layout column would
 * be read back as that column, so it is left out.
 */
export function csvMetadataColumns(dataset: DatasetRecord, columns: string[]): string[] {
  const taken = new Set([...CSV_LAYOUT_COLUMNS, ...dataset.value_names]);
  return columns.filter((name) => !taken.has(name));
}

interface SplitFile {
  token: string;
  rows: DeflateSpool;
}

export async function writeCsv(zip: ZipWriter, job: ExportJob): Promise<void> {
  const { dataset } = job;
  const traits = TASK_TRAITS[dataset.task_type];
  const kind = traits.label;
  const mediaColumn = traits.media;
  const mediaFolder = traits.media === 'audio' ? 'audio' : 'images';
  const taskColumn = TASK_COLUMN[kind];
  const metadata = csvMetadataColumns(dataset, job.metadataColumns);
  const header = ['id', mediaColumn, taskColumn, ...metadata].map(csvCell).join(',') + '\n';
  const set = job.predictionSet;
  const predictionFolder = set ? `predictions/${safePart(set.name)}` : '';
  const classColumns =
    set?.hasProbabilities && kind === 'class'
      ? dataset.class_names
          .map((name, index) => ({ name, index }))
          .filter(({ name }) => !['id', 'image', 'audio', 'label', 'score'].includes(name))
      : [];
  const predictionHeader =
    [
      'id',
      ...(kind === 'class' ? ['label', 'score', ...classColumns.map((c) => c.name)] : []),
      ...(kind === 'value' ? ['values'] : []),
      ...(kind === 'mask' ? ['mask'] : []),
      ...(kind === 'transcript' ? ['transcript'] : []),
      ...(kind === 'objects' ? ['objects'] : []),
    ]
      .map(csvCell)
      .join(',') + '\n';
  const predictionRows = set ? job.spools.deflateSpool() : undefined;
  predictionRows?.append(predictionHeader);

  const names = new SplitFileNames();
  const files = new Map<string, SplitFile>();
  const missing = new MissingMedia();
  const fileOf = (split: string): SplitFile => {
    let file = files.get(split);
    if (!file) {
      file = { token: names.of(split), rows: job.spools.deflateSpool() };
      file.rows.append(header);
      files.set(split, file);
    }
    return file;
  };
  /**
   * The cell of a media reference: a URL stays a URL (the importer hands it to the server, which
   * fetches it again); a file's bytes go to `path` (when media are exported), which the cell names.
   */
  const place = async (
    ref: string,
    path: string,
    bytes: Buffer | undefined,
    sampleId: string,
  ): Promise<string> => {
    if (mediaKind(ref) === 'url') return ref;
    if (bytes) {
      await zip.addFile(path, bytes);
      return path;
    }
    missing.add(sampleId);
    return '';
  };
  /** `place`, without a turn of the event loop when no file is written (a million rows add up). */
  const cellOf = (ref: string, path: string, bytes: Buffer | undefined, sampleId: string) =>
    job.includeMedia ? place(ref, path, bytes, sampleId) : mediaKind(ref) === 'url' ? ref : path;
  const NO_BYTES = { media: undefined, mask: undefined, predictedMask: undefined };
  const readable = (ref: string | null | undefined): ref is string =>
    job.includeMedia && !!ref && mediaKind(ref) !== 'url';
  const read = (ref: string | null | undefined) =>
    readable(ref) ? job.readMedia(ref) : Promise.resolve(undefined);
  /** A page whose files are all URLs (or none) reads nothing: no promise per sample. */
  const readsBytes = (page: ExportPage) =>
    page.samples.some(
      (sample) =>
        readable(sample.media) ||
        (kind === 'mask' &&
          (readable(sample.mask) || (set && readable(page.predictions.get(sample.id)?.mask)))),
    );

  // Rows made on a worker thread come first; `job.pages` then starts where it stopped.
  if (job.csvText)
    for await (const page of job.csvText.pages())
      for (const [split, text] of page.files) await fileOf(split).rows.writeBytes(text);

  for await (const page of job.pages) {
    const reads = readsBytes(page)
      ? readAhead(page.samples, async (sample) => ({
          media: await read(sample.media),
          mask: kind === 'mask' ? await read(sample.mask) : undefined,
          predictedMask:
            kind === 'mask' && set ? await read(page.predictions.get(sample.id)?.mask) : undefined,
        }))
      : undefined;
    for (const sample of page.samples) {
      const bytes = reads ? (await reads.next()).value![1] : NO_BYTES;
      const file = fileOf(sample.split ?? DEFAULT_SPLIT);
      // The sample's file name is worked out only when a file is written (not for URL media).
      const ref = sample.media;
      const media = !ref
        ? ''
        : mediaKind(ref) === 'url'
          ? ref
          : cellOf(ref, `${mediaFolder}/${sampleFileName(sample)}`, bytes.media, sample.id);
      const mediaCell = typeof media === 'string' ? media : await media;
      let taskCell = '';
      if (kind === 'class') taskCell = csvCell(sample.label ?? '');
      else if (kind === 'value') taskCell = valuesCell(sample.values, dataset.value_names);
      else if (kind === 'transcript') taskCell = csvCell(sample.transcript ?? '');
      else if (kind === 'objects')
        taskCell = objectsCell(sample.id, page.objects.get(sample.id) ?? []);
      else if (sample.mask)
        taskCell = csvCell(
          await cellOf(sample.mask, `masks/${png(sampleFileName(sample))}`, bytes.mask, sample.id),
        );
      // The metadata cells were made as the row was read (the columns of csvMetadataColumns).
      const line = `${csvCell(sample.id)},${csvCell(mediaCell)},${taskCell}${sample.metadataCells}\n`;
      if (file.rows.append(line)) await file.rows.flush();

      const prediction = set ? page.predictions.get(sample.id) : undefined;
      const predicted = set ? page.predictedObjects.get(sample.id) : undefined;
      if (kind === 'objects' ? predicted || prediction : prediction) {
        const row = [csvCell(sample.id)];
        if (kind === 'class') {
          row.push(
            csvCell(prediction!.label ?? ''),
            prediction!.score === null ? '' : String(prediction!.score),
            ...classColumns.map((c) => probability(prediction!, c.name, c.index)),
          );
        } else if (kind === 'value') row.push(valuesCell(prediction!.values, dataset.value_names));
        else if (kind === 'transcript') row.push(csvCell(prediction!.transcript ?? ''));
        else if (kind === 'objects')
          row.push(
            objectsCell(
              sample.id,
              (predicted ?? []).map((o) => ({ ...o, iscrowd: false })),
            ),
          );
        else if (prediction!.mask)
          row.push(
            csvCell(
              await cellOf(
                prediction!.mask,
                `${predictionFolder}/${png(sampleFileName(sample))}`,
                bytes.predictedMask,
                sample.id,
              ),
            ),
          );
        else row.push('');
        if (predictionRows!.append(`${row.join(',')}\n`)) await predictionRows!.flush();
      }
    }
    // Each page's text leaves for zlib at once, and its samples are let go before the next page
    // is read (the readers hold the same array): kept through the next read, a page outlives
    // V8's young generation, and copying it there took more time than making it.
    page.samples.length = 0;
    for (const file of files.values()) await file.rows.flush();
    await predictionRows?.flush();
  }
  // An empty export is still a folder the importer reads: one split with no rows.
  if (files.size === 0) fileOf(DEFAULT_SPLIT);

  const yaml = [
    `# Exported from Loupe: ${job.title.replace(/[\r\n]+/g, ' ')} (${job.now.toISOString()})`,
    `# Import it with: loupe import folder <this folder> --name NAME --task ${dataset.task_type}` +
      (set ? ` --predictions ${JSON.stringify(`${set.name}=${predictionFolder}.csv`)}` : ''),
    `task_type: ${dataset.task_type}`,
  ];
  const list = (key: string, values: string[]) => {
    if (values.length === 0) return;
    yaml.push(`${key}:`, ...values.map((value) => `  - ${yamlString(value)}`));
  };
  if (traits.hasClassNames) list('class_names', dataset.class_names);
  if (kind === 'value') list('value_names', dataset.value_names);
  if (kind === 'mask' && dataset.label_map && Object.keys(dataset.label_map).length) {
    yaml.push(
      'label_map:',
      ...Object.entries(dataset.label_map).map(
        ([pixel, name]) => `  ${yamlString(pixel)}: ${yamlString(name)}`,
      ),
    );
  }
  yaml.push(
    'splits:',
    ...[...files].map(
      ([split, file]) => `  ${yamlString(split)}: ${yamlString(`${file.token}.csv`)}`,
    ),
  );
  await zip.addStream('dataset.yaml', [`${yaml.join('\n')}\n`]);
  for (const file of files.values())
    await zip.addDeflated(`${file.token}.csv`, await file.rows.finish());
  if (predictionRows)
    await zip.addDeflated(`${predictionFolder}.csv`, await predictionRows.finish());
  await missing.write(zip);
}
