// The rows of a subset's CSV export made on worker threads (csv-text.worker.ts): reading a
// million samples and writing their rows took about 6 µs a row of the main event loop, most of
// it the drivers' row objects and the garbage collector copying them; on the threads the loop
// stays free, two pages are made at once, and the young generation is sized for a page. The
// main thread cuts the pages (ExportRepository.csvPages: keyset pages of item ids, as
// subsetSamplePages) and hands them out in turn: on SQLite the threads read each page on their
// own connection, on PostgreSQL the main thread reads it as one text the threads take apart.
// Only what needs no main-thread work is made there: sample-level CSV without a prediction set,
// ground truth of labels, values or transcripts, media that are URLs (or not exported). At the
// first page with a media file to read (or items PostgreSQL's walk missed), or if a thread
// fails, the writer goes on from that page itself (`resumeAfter`).
import { Worker } from 'node:worker_threads';
import { workerSource } from '../platform/worker-source.js';
import type { CsvPages } from './export.repository.js';

/** What a thread starts with. */
export interface CsvTextData {
  /** The SQLite database file the thread reads pages from; null: pages come as text. */
  path: string | null;
  datasetId: string;
  subsetId: string;
  truth: 'label' | 'values_json' | 'transcript';
  valueNames: string[];
  /** The uploaded metadata fields the CSV has columns for, in column order. */
  metadata: string[];
  /** `images` or `audio`: where media files go (named in the cell when not exported). */
  mediaFolder: string;
  /** With media: a page with a media file is left to the main thread, which reads files. */
  includeMedia: boolean;
}

/** A page for a thread: the subset's items after `after` up to `last`, or their text (PostgreSQL). */
export type CsvTextTask = { index: number } & (
  { after: string; last: string } | { text: string | null; count: number }
);

/** One page's rows, by split in the order the splits first appear, as UTF-8. */
export interface CsvTextPage {
  files: [split: string, text: Uint8Array][];
}

/** A thread's answer: the page's rows, or `main`: the page is the main thread's to write. */
export type CsvTextReply = { index: number } & (CsvTextPage | { main: true });

/** Threads: two cores here, and a busy machine shares its cores out by thread. */
const THREADS = 2;
/** Pages handed out beyond the one being written (each about half a MB of text). */
const AHEAD = 6;

export interface CsvTextOptions extends Omit<CsvTextData, 'path'> {
  /** The item id the first page starts after. */
  after: string;
  pages: CsvPages;
  pageSize: number;
}

interface Task {
  after: string;
  last: string;
  reply: Promise<CsvTextReply | undefined>;
}

export class CsvTextSource {
  /** Where the main thread's own pages start: null when the threads made every row. */
  private resume: string | null;
  private readonly finished: Promise<string | null>;
  private finish!: (after: string | null) => void;

  constructor(private readonly options: CsvTextOptions) {
    this.resume = options.after;
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  /** The item id the writer's own pages start after, once the threads are done; null: no more. */
  resumeAfter(): Promise<string | null> {
    return this.finished;
  }

  /** The threads' pages, in order; ends early (see `resumeAfter`) when one has files or fails. */
  async *pages(): AsyncGenerator<CsvTextPage> {
    const { after: start, pages, pageSize, ...rest } = this.options;
    const data: CsvTextData = { ...rest, path: pages.file };
    const waiting = new Map<
      number,
      { resolve(reply: CsvTextReply): void; reject(e: Error): void }
    >();
    const workers: Worker[] = [];
    let broken: Error | undefined;
    const fail = (error: Error) => {
      broken ??= error;
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    };
    const tasks: Task[] = [];
    let after: string | null = start;
    let index = 0;
    /** Cuts and hands out pages until AHEAD are out or the items end. */
    const handOut = async () => {
      while (after !== null && tasks.length < AHEAD && !broken) {
        const page = await pages.page(after);
        const { scanned, last } = page;
        if (scanned === 0 || last === null) {
          after = null;
          break;
        }
        const task = index++;
        const ask = (message: CsvTextTask) => {
          const reply = new Promise<CsvTextReply>((resolve, reject) =>
            waiting.set(task, { resolve, reject }),
          );
          if (broken) waiting.get(task)!.reject(broken);
          else workers[task % THREADS]!.postMessage(message);
          return reply;
        };
        const { text } = page;
        const reply = text
          ? text.then((rows) =>
              rows ? ask({ index: task, ...rows }) : ({ index: task, main: true } as const),
            )
          : ask({ index: task, after, last });
        tasks.push({ after, last, reply: reply.catch(() => undefined) });
        after = scanned < pageSize ? null : last;
      }
    };
    try {
      const { source, eval: isEval, execArgv } = workerSource(import.meta.url, 'csv-text.worker');
      for (let thread = 0; thread < THREADS; thread++) {
        const worker = new Worker(source, {
          eval: isEval,
          execArgv,
          workerData: data satisfies CsvTextData,
          // Room for a few pages of rows in the young generation: collected there, not copied.
          resourceLimits: { maxYoungGenerationSizeMb: 64 },
        });
        worker.on('message', (reply: CsvTextReply) => {
          waiting.get(reply.index)?.resolve(reply);
          waiting.delete(reply.index);
        });
        worker.on('error', fail);
        worker.on('exit', () => fail(new Error('The CSV thread ended.')));
        workers.push(worker);
      }
      // Pages are cut and handed out while the writer takes the ones made.
      let filling: Promise<void> | undefined;
      let fillFailure: { error: unknown } | undefined;
      const fill = () =>
        (filling ??= handOut()
          .catch((error: unknown) => void (fillFailure = { error }))
          .finally(() => (filling = undefined)));
      for (;;) {
        const filled = fill();
        const task = tasks.shift();
        if (!task) {
          await filled;
          if (fillFailure) throw fillFailure.error;
          if (tasks.length) continue;
          // The end of the items (after is null), or threads that failed: the writer goes on.
          this.resume = after;
          return;
        }
        const reply = await task.reply;
        // The main thread's page, or a thread that failed: the writer goes on from here.
        if (!reply || 'main' in reply) {
          this.resume = task.after;
          return;
        }
        this.resume = task.last;
        yield reply;
      }
    } finally {
      for (const worker of workers) {
        worker.removeAllListeners('exit');
        void worker.terminate();
      }
      this.finish(this.resume);
    }
  }
}
