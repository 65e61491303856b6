// Checks a whole upload on this machine before anything is sent: every row the way the server
// will check it (the row checks of @loupe/contracts), ids unique across the whole upload, and
// every local media file present, readable and within the server's size limit. So a mistake in
// the last row stops the command before a dataset is created or a single file goes up.
import { accessSync, constants, statSync } from 'node:fs';
import {
  MAX_MEDIA_BYTES,
  checkPredictionBatch,
  checkSampleBatch,
  type Dataset,
  type DatasetShape,
  type MetadataType,
  type RowError,
  type TaskType,
} from '@loupe/contracts';
import type { Media } from '../client/client.js';
import { CliError } from './errors.js';

/** Rows and, for each, where it came from: `train.csv:4`, `rows.jsonl:12`. */
export interface SourcedRows<T> {
  rows: T[];
  sources: string[];
}

interface Problem {
  /** The row's index in the upload, to list problems in the order of the rows. */
  at: number;
  source: string;
  id?: string;
  field: string;
  message: string;
}

/** How many problems the error lists; the count says how many more there are. */
const LISTED = 20;

/** The shape of a dataset about to be created; classes given up front are a closed list. */
export function newDatasetShape(
  task: TaskType,
  classNames: string[] = [],
  valueNames: string[] = [],
): DatasetShape {
  return {
    task_type: task,
    class_names: classNames,
    closed_classes: classNames.length > 0,
    value_names: valueNames,
    metadata_types: new Map(),
  };
}

/**
 * What can be known here of an existing dataset's shape. Whether its classes are closed and the
 * types of its metadata fields are not: the server still checks those.
 */
export function existingDatasetShape(info: Dataset): DatasetShape {
  return {
    task_type: info.task_type,
    class_names: info.class_names,
    closed_classes: false,
    value_names: info.regression_value_names ?? [],
    metadata_types: new Map(),
  };
}

function fileProblem(path: string): string | undefined {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return `${path} is not a file`;
    size = stats.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? `${path} does not exist`
      : `${path} cannot be read (${(error as Error).message})`;
  }
  if (size > MAX_MEDIA_BYTES)
    return `${path} is ${(size / 1024 / 1024).toFixed(0)} MB; a media file may be at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`;
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return `${path} cannot be read (permission denied)`;
  }
  return undefined;
}

/**
 * Reports ids used twice in the whole upload and local media files that cannot be sent, and
 * answers the rows with each local file replaced by its path, as the server's row checks take
 * strings for media.
 */
function checkIdsAndFiles<T extends Record<string, unknown>>(
  { rows, sources }: SourcedRows<T>,
  mediaFields: string[],
  problems: Problem[],
): Record<string, unknown>[] {
  const firstSeen = new Map<string, string>();
  return rows.map((row, i) => {
    const id = typeof row.id === 'string' ? row.id : undefined;
    const source = sources[i]!;
    if (id !== undefined) {
      const first = firstSeen.get(id);
      if (first)
        problems.push({
          at: i,
          source,
          id,
          field: 'id',
          message: `the same id is on ${first} already`,
        });
      else firstSeen.set(id, source);
    }
    const checked: Record<string, unknown> = { ...row };
    for (const field of mediaFields) {
      const value = row[field] as Media | undefined;
      if (value === undefined || typeof value === 'string') continue;
      if (value instanceof Uint8Array) {
        if (value.length > MAX_MEDIA_BYTES)
          problems.push({
            at: i,
            source,
            ...(id ? { id } : {}),
            field,
            message: `the bytes are more than the ${MAX_MEDIA_BYTES / 1024 / 1024} MB a media file may have`,
          });
        checked[field] = 'bytes';
        continue;
      }
      const problem = fileProblem(value.file);
      if (problem) problems.push({ at: i, source, ...(id ? { id } : {}), field, message: problem });
      checked[field] = value.file;
    }
    return checked;
  });
}

function fromRowErrors(errors: RowError[], sources: string[], problems: Problem[]): void {
  for (const error of errors) {
    // Repeated ids were reported across the whole upload already, with where each one is.
    if (error.field === 'id' && error.message.startsWith('duplicate of row')) continue;
    problems.push({
      at: error.row,
      source: sources[error.row]!,
      ...(error.id ? { id: error.id } : {}),
      field: error.field,
      message: error.message,
    });
  }
}

function refuseProblems(problems: Problem[]): void {
  if (problems.length === 0) return;
  const lines = problems
    .sort((a, b) => a.at - b.at)
    .slice(0, LISTED)
    .map(
      (p) =>
        `\n  ${p.source}${p.id !== undefined ? ` (id ${p.id})` : ''}, ${p.field}: ${p.message}`,
    )
    .join('');
  const more = problems.length > LISTED ? `\n  … and ${problems.length - LISTED} more` : '';
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  throw new CliError(`nothing was sent: ${count} to fix first${lines}${more}`);
}

/** Throws a CliError naming every problem (file, row, field) of samples about to be uploaded. */
export function checkSamplesBeforeUpload(
  samples: SourcedRows<Record<string, unknown>>,
  shape: DatasetShape,
  metadataTypes: Record<string, MetadataType> = {},
): void {
  const problems: Problem[] = [];
  const rows = checkIdsAndFiles(samples, ['image', 'audio', 'mask'], problems);
  const { errors } = checkSampleBatch(rows, shape, metadataTypes, () => undefined);
  fromRowErrors(errors, samples.sources, problems);
  refuseProblems(problems);
}

/**
 * The same for predictions; whether each sample exists, and each mask was uploaded, is left to
 * the server.
 */
export function checkPredictionsBeforeUpload(
  predictions: SourcedRows<Record<string, unknown>>,
  shape: DatasetShape,
): void {
  const problems: Problem[] = [];
  const rows = checkIdsAndFiles(predictions, ['mask'], problems);
  const { errors } = checkPredictionBatch(
    rows,
    shape,
    () => true,
    () => undefined,
  );
  fromRowErrors(errors, predictions.sources, problems);
  refuseProblems(problems);
}
