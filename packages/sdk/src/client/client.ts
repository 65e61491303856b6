// The TypeScript client of Loupe: datasets, samples with their media, features, prediction sets,
// predictions and attributions. Media given as bytes or a local file is uploaded once (content
// addressed) and replaced by its `blob:` key; re-running an upload changes nothing.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type {
  CreateDatasetRequest,
  Dataset,
  FeatureInfo,
  PredictionSet,
  SampleInput,
  UploadResult,
} from '@loupe/contracts';
import { Http, type HttpOptions } from './http.js';

/** A media field: a `blob:` key, an http(s) URL, a path the server may read, raw bytes, or `{ file }` to upload. */
export type Media = string | Uint8Array | { file: string };

export type SampleToUpload = Omit<SampleInput, 'image' | 'audio' | 'mask'> & {
  image?: Media;
  audio?: Media;
  mask?: Media;
};
export type PredictionToUpload = Record<string, unknown> & { id: string; mask?: Media };

export interface Progress {
  done: number;
  total?: number;
}

export interface UploadOptions {
  batchSize?: number;
  metadataTypes?: Record<string, 'numeric' | 'string' | 'boolean' | 'timestamp'>;
  onProgress?: (progress: Progress) => void;
  /** Parallel media uploads (default 4). */
  concurrency?: number;
}

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.bmp': 'image/bmp',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
};

export function contentTypeOf(name: string, fallback: string): string {
  return MEDIA_TYPES[extname(name).toLowerCase()] ?? fallback;
}

function sum(a: UploadResult, b: UploadResult): UploadResult {
  return {
    created: a.created + b.created,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
  };
}

async function* batches<T>(
  items: Iterable<T> | AsyncIterable<T>,
  size: number,
): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function pool<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The SHA-256 of a file, read as a stream. */
async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const NO_CHANGES: UploadResult = { created: 0, updated: 0, unchanged: 0 };

/** Batches posted at once: the server parses one while the database stores the other. */
const BATCHES_IN_FLIGHT = 2;

/**
 * Sends `items` in batches. A batch's `prepare` (uploading its media) runs while the batches
 * before it are being sent, and up to BATCHES_IN_FLIGHT batches are posted at once, so the client,
 * the server and the database work at the same time instead of taking turns. The server stores
 * batches of one dataset one after the other, in the order they reach it. The first failure stops
 * the upload: no batch is sent after it, and the call fails once nothing is in flight any more
 * (a batch already in flight beside the refused one may still land).
 */
async function uploadInBatches<T, P>(
  items: Iterable<T> | AsyncIterable<T>,
  batchSize: number,
  prepare: (batch: T[]) => Promise<P>,
  send: (prepared: P) => Promise<UploadResult>,
  onProgress?: (progress: Progress) => void,
): Promise<UploadResult> {
  let total = NO_CHANGES;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const sending = new Set<Promise<void>>();
  try {
    for await (const batch of batches(items, batchSize)) {
      const prepared = await prepare(batch);
      while (sending.size >= BATCHES_IN_FLIGHT && !failure) await Promise.race(sending);
      if (failure) break;
      const sent: Promise<void> = send(prepared)
        .then(
          (result) => {
            total = sum(total, result);
            done += batch.length;
            onProgress?.({ done });
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => sending.delete(sent));
      sending.add(sent);
    }
  } finally {
    // Whatever stopped the loop, nothing is left running behind the caller's back.
    await Promise.all(sending);
  }
  if (failure) throw failure.error;
  return total;
}

export class LoupeClient {
  readonly http: Http;

  constructor(options: HttpOptions) {
    this.http = new Http(options);
  }

  async datasets(): Promise<Dataset[]> {
    return this.http.request('GET', '/api/datasets');
  }

  async dataset(idOrName: string): Promise<DatasetHandle> {
    const all = await this.datasets();
    const found = all.find((d) => d.id === idOrName) ?? all.find((d) => d.name === idOrName);
    if (!found) throw new Error(`No dataset with id or name '${idOrName}'.`);
    return new DatasetHandle(this.http, found);
  }

  async createDataset(input: CreateDatasetRequest): Promise<DatasetHandle> {
    return new DatasetHandle(
      this.http,
      await this.http.request<Dataset>('POST', '/api/datasets', input),
    );
  }
}

export class DatasetHandle {
  constructor(
    private readonly http: Http,
    public info: Dataset,
  ) {}

  get id(): string {
    return this.info.id;
  }

  async refresh(): Promise<Dataset> {
    this.info = await this.http.request<Dataset>('GET', `/api/datasets/${this.id}`);
    return this.info;
  }

  /** Uploads bytes once per content; answers the `blob:` key. */
  async uploadMedia(bytes: Uint8Array, contentType: string): Promise<string> {
    const { key } = await this.http.request<{ key: string }>(
      'POST',
      `/api/datasets/${this.id}/media`,
      bytes,
      contentType,
    );
    return key;
  }

  /** Replaces bytes and `{file}` media by blob keys, uploading only what the server lacks. */
  private async resolveMedia<T extends Record<string, unknown>>(
    rows: T[],
    fields: string[],
    concurrency: number,
  ): Promise<T[]> {
    const pending = new Map<string, { bytes: () => Promise<Uint8Array>; type: string }>();
    const keyed = rows.map((row) => ({ ...row }) as Record<string, unknown>);
    const local = keyed.flatMap((out) =>
      fields
        .filter((field) => out[field] !== undefined && typeof out[field] !== 'string')
        .map((field) => ({ out, field, value: out[field] as Exclude<Media, string> })),
    );
    // Files are hashed as they stream from disk and read again only if the server lacks them, so
    // a batch never holds more than `concurrency` files in memory.
    await pool(local, concurrency, async ({ out, field, value }) => {
      const fallback = field === 'audio' ? 'audio/wav' : 'image/png';
      const key =
        value instanceof Uint8Array
          ? createHash('sha256').update(value).digest('hex')
          : await sha256OfFile(value.file);
      pending.set(`blob:${key}`, {
        bytes: value instanceof Uint8Array ? async () => value : () => readFile(value.file),
        type: value instanceof Uint8Array ? fallback : contentTypeOf(value.file, fallback),
      });
      out[field] = `blob:${key}`;
    });
    if (pending.size > 0) {
      const { missing } = await this.http.request<{ missing: string[] }>(
        'POST',
        `/api/datasets/${this.id}/media/missing`,
        { keys: [...pending.keys()] },
      );
      await pool(missing, concurrency, async (key) => {
        const media = pending.get(key)!;
        await this.uploadMedia(await media.bytes(), media.type);
      });
    }
    return keyed as T[];
  }

  async uploadSamples(
    samples: Iterable<SampleToUpload> | AsyncIterable<SampleToUpload>,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    return uploadInBatches(
      samples,
      options.batchSize ?? 2000,
      (batch) =>
        this.resolveMedia(
          batch as Record<string, unknown>[],
          ['image', 'audio', 'mask'],
          options.concurrency ?? 4,
        ),
      (rows) =>
        this.http.request<UploadResult>('POST', `/api/datasets/${this.id}/samples`, {
          samples: rows,
          ...(options.metadataTypes ? { metadata_types: options.metadataTypes } : {}),
        }),
      options.onProgress,
    );
  }

  /** Vectors by item id; sent as base64 float32 rows. */
  async uploadFeatures(
    name: string,
    vectors: Map<string, ArrayLike<number>> | Record<string, ArrayLike<number>>,
    dataLevel?: 'image' | 'image_object' | 'audio',
  ): Promise<FeatureInfo> {
    const entries = vectors instanceof Map ? [...vectors] : Object.entries(vectors);
    if (entries.length === 0) throw new Error('No vectors to upload.');
    const dimension = entries[0]![1].length;
    const level =
      dataLevel ??
      (this.info.task_type.startsWith('audio') ||
      this.info.task_type === 'automatic_speech_recognition'
        ? 'audio'
        : 'image');
    let info: FeatureInfo | undefined;
    for (let start = 0; start < entries.length; start += 20_000) {
      const part = entries.slice(start, start + 20_000);
      const data = new Float32Array(part.length * dimension);
      part.forEach(([, vector], i) => {
        if (vector.length !== dimension)
          throw new Error(
            `Vector of '${part[i]![0]}' has ${vector.length} values; the first has ${dimension}.`,
          );
        data.set(Array.from(vector), i * dimension);
      });
      info = await this.http.request<FeatureInfo>('POST', `/api/datasets/${this.id}/features`, {
        name,
        data_level: level,
        ids: part.map(([id]) => id),
        data: Buffer.from(data.buffer).toString('base64'),
        dimension,
      });
    }
    return info!;
  }

  async createPredictionSet(name: string): Promise<PredictionSetHandle> {
    const set = await this.http.request<PredictionSet>(
      'POST',
      `/api/datasets/${this.id}/predictions`,
      { name, exist_ok: true },
    );
    return new PredictionSetHandle(this.http, this, set);
  }

  async uploadPredictions(
    name: string,
    predictions: Iterable<PredictionToUpload> | AsyncIterable<PredictionToUpload>,
    options: UploadOptions = {},
  ): Promise<PredictionSetHandle> {
    const set = await this.createPredictionSet(name);
    await set.uploadPredictions(predictions, options);
    return set;
  }

  /** @internal */
  resolve<T extends Record<string, unknown>>(
    rows: T[],
    fields: string[],
    concurrency: number,
  ): Promise<T[]> {
    return this.resolveMedia(rows, fields, concurrency);
  }
}

export class PredictionSetHandle {
  constructor(
    private readonly http: Http,
    private readonly dataset: DatasetHandle,
    public info: PredictionSet,
  ) {}

  get id(): string {
    return this.info.id;
  }

  async uploadPredictions(
    predictions: Iterable<PredictionToUpload> | AsyncIterable<PredictionToUpload>,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    return uploadInBatches(
      predictions,
      options.batchSize ?? 2000,
      (batch) => this.dataset.resolve(batch, ['mask'], options.concurrency ?? 4),
      (rows) =>
        this.http.request<UploadResult>(
          'POST',
          `/api/datasets/${this.dataset.id}/predictions/${this.id}/items`,
          { predictions: rows },
        ),
      options.onProgress,
    );
  }

  async uploadAttributions(
    attributions: { id: string; heatmap: string | number[][] }[],
    name = 'attribution',
  ): Promise<number> {
    let uploaded = 0;
    for (let start = 0; start < attributions.length; start += 2000) {
      const part = attributions.slice(start, start + 2000);
      uploaded += (
        await this.http.request<{ uploaded: number }>(
          'POST',
          `/api/datasets/${this.dataset.id}/predictions/${this.id}/attributions`,
          { name, attributions: part },
        )
      ).uploaded;
    }
    return uploaded;
  }
}
