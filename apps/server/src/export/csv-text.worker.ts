// Worker-thread entry of a CSV export's rows (csv-text.ts): for each page the main thread hands
// it, the live samples among the subset's items in that range (on SQLite read on this thread's
// own read-only connection, on PostgreSQL taken from the page's text), sorted by upload order as
// ExportRepository does, written as CSV rows as the writer would (csv-export.ts), split by
// split, as UTF-8 for the archive.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { readJson } from '../db/json-columns.js';
import type { NumericValues } from '../samples/samples.repository.js';
import { mediaKind } from '../storage/media.js';
import { csvCell, MetadataCells, valuesCell } from './csv-cells.js';
import type { CsvTextData, CsvTextReply, CsvTextTask } from './csv-text.js';
import { DEFAULT_SPLIT, sampleFileName } from './export-job.js';
import { pageRows } from './page-rows.js';

const data = workerData as CsvTextData;
const port = parentPort!;
const TRUTH = { label: 's.label', values_json: 's.values_json', transcript: 's.transcript' };

/** A sample's fields, as a SQLite page reads them (a text page has two more: computed, deleted). */
type Row = [
  id: string,
  seq: number,
  split: string | null,
  media: string | null,
  truth: string | null,
  metadata: string | null,
  ...rest: unknown[],
];

function sqliteRows(path: string) {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // `+s.deleted`: with `s.deleted` SQLite could walk the (dataset, deleted, split) index instead.
  return db
    .prepare(
      `select s.id, s.seq, s.split, s.media, ${TRUTH[data.truth]},
        ${data.metadata.length ? 's.metadata' : 'null'}
      from subset_items as i join samples as s on s.dataset_id = ? and s.id = i.item_id
      where i.subset_id = ? and i.item_id > ? and i.item_id <= ? and +s.deleted = 0`,
    )
    .raw();
}
const rows = data.path === null ? undefined : sqliteRows(data.path);
const cells = new MetadataCells(data.metadata);
const encoder = new TextEncoder();

function taskCell(truth: string | null): string {
  if (data.truth === 'values_json') {
    const values = readJson<unknown>(truth);
    return valuesCell(
      values && typeof values === 'object' ? (values as NumericValues) : null,
      data.valueNames,
    );
  }
  return csvCell(truth ?? '');
}

function mediaCell(id: string, seq: number, ref: string | null): string {
  if (!ref) return '';
  return mediaKind(ref) === 'url' ? ref : `${data.mediaFolder}/${sampleFileName({ id, seq })}`;
}

/** A page's CSV rows in upload order, by split in the order the splits first appear. */
function pageText(page: Row[]): [string, Uint8Array][] {
  page.sort((a, b) => a[1] - b[1]);
  const texts = new Map<string, string[]>();
  for (const [id, seq, split, media, truth, metadata] of page) {
    const key = split ?? DEFAULT_SPLIT;
    let lines = texts.get(key);
    if (!lines) texts.set(key, (lines = []));
    lines.push(
      `${csvCell(id)},${csvCell(mediaCell(id, seq, media))},${taskCell(truth)}${cells.read(metadata)}\n`,
    );
  }
  return [...texts].map(([split, lines]) => [split, encoder.encode(lines.join(''))]);
}

/** The live samples of a task's page; undefined when its text must be read column by column. */
function pageOf(task: CsvTextTask): Row[] | undefined {
  if ('after' in task)
    return rows!.all(data.datasetId, data.subsetId, task.after, task.last) as Row[];
  return pageRows(task.text, task.count)?.filter((row) => row[7] === 0);
}

port.on('message', (task: CsvTextTask) => {
  const { index } = task;
  const page = pageOf(task);
  if (
    !page ||
    (data.includeMedia && page.some(([, , , media]) => media && mediaKind(media) !== 'url'))
  ) {
    port.postMessage({ index, main: true } satisfies CsvTextReply);
    return;
  }
  const files = pageText(page);
  port.postMessage(
    { index, files } satisfies CsvTextReply,
    files.map(([, text]) => text.buffer as ArrayBuffer),
  );
});
