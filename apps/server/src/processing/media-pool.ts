// Decodes and measures uploaded media on worker threads (media.worker.ts), so no file — however
// slow, large or hostile — runs on the API's event loop. Each file has a deadline and each thread
// a heap limit: a file over either ends as an error for that file alone, and a fresh thread takes
// over. Threads start on first use and end when idle for a while, or with the app.
import { Worker } from 'node:worker_threads';
// Loaded on the main thread too, so that sharp's shared libraries stay loaded while threads come
// and go: on glibc, the last thread to end would otherwise unload them under the next one.
import 'sharp';
import { workerSource, type WorkerSource } from '../platform/worker-source.js';
import type { ORIGINAL_THUMBNAIL } from '../storage/thumbnail-refs.js';
import type { MetadataValues } from './media-metadata.js';
import type { RawPixels } from './thumbnails.js';

export type MediaKind = 'image' | 'audio';

export type MediaTask =
  | {
      /** Metadata and default feature; the thumbnail and the decoded pixels when asked for. */
      kind: 'measure';
      media: MediaKind;
      /** The sample's media reference (whether an image may be its own thumbnail depends on it). */
      ref: string;
      bytes: Uint8Array;
      thumbnail: boolean;
      pixels: boolean;
    }
  | { kind: 'thumbnail'; media: MediaKind; ref: string; bytes: Uint8Array };

export interface MediaResult {
  values?: MetadataValues;
  vector?: Float32Array | null;
  /** WebP bytes, or ORIGINAL_THUMBNAIL; absent when none was asked for or it failed. */
  thumbnail?: Uint8Array | typeof ORIGINAL_THUMBNAIL;
  pixels?: { data: Uint8Array; width: number; height: number; channels: RawPixels['channels'] };
}

export type WorkerMessage =
  { ready: true } | { id: number; result: MediaResult } | { id: number; error: string };

/** What media.worker.ts is started with. */
export interface MediaWorkerData {
  maxPixels: number;
}

export interface MediaPoolOptions {
  /** Worker threads (LOUPE_MEDIA_THREADS). */
  threads: number;
  /** Time one file may take, from reaching its thread to its answer (LOUPE_MEDIA_TIMEOUT_S). */
  timeoutMs: number;
  /** Largest image, in pixels, a header may claim (LOUPE_MEDIA_MAX_PIXELS). */
  maxPixels: number;
  /** V8 heap of one thread, in MB; HEAP_MB unless a test wants a crash sooner. */
  heapMb?: number;
}

/**
 * Images in flight per thread: sharp decodes on libuv's threads while the thread's JavaScript
 * measures the previous image, so a few keep the cores busy. Audio is decoded and measured in
 * JavaScript, all of a clip's samples in memory at once, so a clip has its thread to itself.
 */
const IMAGES_PER_THREAD = 4;
/** V8 heap of one thread. Decoded samples and pixels are typed arrays, outside this heap. */
const HEAP_MB = 512;
const IDLE_MS = 60_000;
/** Threads that end before answering `ready` this many times in a row fail the waiting files. */
const START_ATTEMPTS = 3;

interface Job {
  task: MediaTask;
  /** Runs with no other file on its thread: audio, and files that were in flight in a crash. */
  alone: boolean;
  resolve: (result: MediaResult) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  running: Map<number, Job>;
  /** Set when the pool ended the thread itself; its exit is then no crash. */
  retired: boolean;
}

export class MediaPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private failedStarts = 0;
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly options: MediaPoolOptions,
    private readonly source: WorkerSource = workerSource(import.meta.url, 'media.worker'),
  ) {}

  /**
   * Runs one task; rejects with an Error that names the problem when the file cannot be decoded
   * or measured, takes longer than the deadline, or brings its thread down.
   */
  run(task: MediaTask): Promise<MediaResult> {
    if (this.closed) return Promise.reject(new Error('the media pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task, alone: task.media === 'audio', resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    const stopped = new Error('the media pool is closed');
    for (const job of this.queue.splice(0)) job.reject(stopped);
    await Promise.all(this.threads.splice(0).map((thread) => this.retire(thread, stopped)));
  }

  /** Hands queued files to threads with room, starting threads up to the configured number. */
  private pump(): void {
    if (this.idle) clearTimeout(this.idle);
    while (this.queue.length > 0) {
      const job = this.queue[0]!;
      const thread = this.roomFor(job);
      if (!thread) {
        if (this.threads.length < this.options.threads) this.threads.push(this.start());
        break; // the next answer or `ready` pumps again
      }
      this.queue.shift();
      this.dispatch(thread, job);
    }
    this.scheduleIdle();
  }

  private roomFor(job: Job): Thread | undefined {
    let best: Thread | undefined;
    for (const thread of this.threads) {
      if (!thread.ready) continue;
      const size = thread.running.size;
      if (size === 0) return thread;
      if (job.alone || size >= IMAGES_PER_THREAD) continue;
      if ([...thread.running.values()].some((other) => other.alone)) continue;
      if (!best || size < best.running.size) best = thread;
    }
    return best;
  }

  private dispatch(thread: Thread, job: Job): void {
    const id = this.nextId++;
    thread.running.set(id, job);
    job.timer = setTimeout(() => {
      const seconds = this.options.timeoutMs / 1000;
      this.lose(thread, new Error(`decoding and measuring took longer than ${seconds} s`));
    }, this.options.timeoutMs);
    job.timer.unref();
    thread.worker.ref();
    // A file alone on its thread is never run again, so its bytes move instead of being copied;
    // files that share a thread keep theirs, to run again if a neighbour brings the thread down.
    const transfer = job.alone ? transferable(job.task.bytes) : [];
    thread.worker.postMessage({ id, task: job.task }, transfer);
  }

  private start(): Thread {
    const { source, eval: isEval, execArgv } = this.source;
    const worker = new Worker(source, {
      eval: isEval,
      execArgv,
      workerData: { maxPixels: this.options.maxPixels } satisfies MediaWorkerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? HEAP_MB },
    });
    const thread: Thread = { worker, ready: false, running: new Map(), retired: false };
    worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        thread.ready = true;
        this.failedStarts = 0;
      } else {
        const job = thread.running.get(message.id);
        if (!job) return;
        thread.running.delete(message.id);
        clearTimeout(job.timer);
        if ('error' in message) job.reject(new Error(message.error));
        else job.resolve(message.result);
      }
      this.pump();
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => {
      if (!thread.retired)
        this.crashed(thread, failure ?? new Error(`the thread exited with code ${code}`));
    });
    // Referenced while starting: files wait for it (scheduleIdle lets go of idle threads).
    return thread;
  }

  /** A thread ended on its own (out of memory, a native crash). */
  private crashed(thread: Thread, error: Error): void {
    if (!thread.ready && ++this.failedStarts >= START_ATTEMPTS) {
      this.failedStarts = 0;
      for (const job of this.queue.splice(0))
        job.reject(new Error(`the media thread could not start: ${error.message}`));
    }
    this.lose(
      thread,
      (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new Error('decoding and measuring ran out of memory')
        : new Error(`the media thread stopped: ${error.message}`),
    );
  }

  /**
   * Ends a thread that crashed or overran a file's deadline. A file alone on it is the cause and
   * fails with `reason`. Of several, any may be (one that blocks the thread makes the others miss
   * their deadlines too), so each runs again alone, and the one that fails alone is the cause.
   */
  private lose(thread: Thread, reason: Error): void {
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    const running = [...thread.running.values()];
    thread.running.clear();
    for (const job of running) clearTimeout(job.timer);
    if (running.length === 1) running[0]!.reject(reason);
    for (const job of running.length > 1 ? running.reverse() : []) {
      job.alone = true;
      this.queue.unshift(job);
    }
    void this.retire(thread, reason);
    this.pump();
  }

  private async retire(thread: Thread, reason: Error): Promise<void> {
    thread.retired = true;
    for (const job of thread.running.values()) {
      clearTimeout(job.timer);
      job.reject(reason);
    }
    thread.running.clear();
    await thread.worker.terminate();
  }

  /** Idle threads let the process exit, and end after IDLE_MS to give their memory back. */
  private scheduleIdle(): void {
    if (this.queue.length > 0 || this.threads.some((thread) => thread.running.size > 0)) return;
    for (const thread of this.threads) thread.worker.unref();
    if (this.threads.length === 0) return;
    this.idle = setTimeout(() => {
      const idle = new Error('the media thread was idle');
      for (const thread of this.threads.splice(0)) void this.retire(thread, idle);
    }, IDLE_MS);
    this.idle.unref();
  }
}

/** The buffer under `bytes` when it holds exactly them (not a slice of a shared pool). */
function transferable(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}
