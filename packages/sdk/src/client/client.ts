// The TypeScript client of Loupe: datasets, samples with their media, features, prediction sets,
// predictions and attributions. Uploads follow the upload protocol (docs/sdk-protocol.md, engine in
// upload.ts): media given as bytes or a local file is uploaded once (content addressed) and
// replaced by its `blob:` key, rows travel in requests within the byte budget, two at once, and
// re-running an upload changes nothing.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  api,
  DATA_LEVELS,
  JsonText,
  MAX_ATTRIBUTIONS_PER_REQUEST,
  MAX_FEATURE_IDS_PER_REQUEST,
  MAX_MISSING_MEDIA_KEYS,
  MAX_ROWS_PER_REQUEST,
  UPLOAD_ATTRIBUTION_BATCH_ROWS,
  UPLOAD_BATCH_ROWS,
  UPLOAD_MEDIA_IN_FLIGHT,
  type CreateDatasetRequest,
  type Dataset,
  type DataLevel,
  type FeatureInfo,
  type FeatureUploadRequest,
  type PredictionFeaturesResponse,
  type MetadataType,
  type PredictionSet,
  type SampleInput,
  type Subset,
  type UploadAttributionsRequest,
  type UploadPredictionsRequest,
  type UploadResult,
  type UploadSamplesRequest,
} from '@loupe/contracts';
import { LoupeError } from './errors.js';
import {
  requireEmptyFolder,
  saveExport,
  type ExportItemsOptions,
  type ExportOptions,
  type ExportResult,
} from './export.js';
import { Http, type HttpOptions } from './http.js';
import { readComparison, type CompareOptions, type Comparison } from './compare.js';
import { readPerformance, type Performance, type PerformanceOptions } from './performance.js';
import { upload, type Row } from './upload.js';

/** A media field: a `blob:` key, an http(s) URL, a path the server may read, raw bytes, or `{ file }` to upload. */
export type Media = string | Uint8Array | { file: string };

export type SampleToUpload = Omit<SampleInput, 'image' | 'audio' | 'mask'> & {
  image?: Media;
  audio?: Media;
  mask?: Media;
};
export type PredictionToUpload = Record<string, unknown> & { id: string; mask?: Media };
/** A heatmap: rows of numbers, or an image given like any media. */
export type AttributionToUpload = { id: string; heatmap: Media | number[][] };

export interface Progress {
  /** Rows the server has stored so far. */
  done: number;
  /** All rows, when the input has a length. */
  total?: number;
}

export interface UploadOptions {
  /** Rows read, prepared and sent per batch (default 1,000; at most 20,000). */
  batchSize?: number;
  metadataTypes?: Record<string, MetadataType>;
  onProgress?: (progress: Progress) => void;
  /** Parallel media uploads (default 4). */
  concurrency?: number;
}

export interface FeatureUploadOptions {
  onProgress?: (progress: Progress) => void;
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

function isLocalMedia(value: unknown): value is Uint8Array | { file: string } {
  return (
    value instanceof Uint8Array ||
    (typeof value === 'object' && value !== null && !Array.isArray(value) && 'file' in value)
  );
}

function lengthOf(items: unknown): number | undefined {
  return Array.isArray(items) ? items.length : undefined;
}

function clampBatch(size: number | undefined, fallback: number, max: number): number {
  return Math.max(1, Math.min(Math.floor(size ?? fallback), max));
}

/** A row serialised once: its JSON is both measured and sent. */
interface JsonRow extends Row {
  text: string;
}

function jsonRow(row: Record<string, unknown>, index: number): JsonRow {
  const text = JSON.stringify(row);
  return {
    index,
    ...(typeof row.id === 'string' ? { id: row.id } : {}),
    text,
    size: Buffer.byteLength(text) + 1,
  };
}

/** A JSON body `{…, "<key>": [rows]}` of type T: its envelope's bytes and the body for some rows. */
interface RowsBody<T> {
  envelope: number;
  of(rows: JsonRow[]): JsonText<T>;
}

function rowsBody<T>(key: string, fields: Record<string, unknown> = {}): RowsBody<T> {
  const head = `${JSON.stringify(fields).slice(0, -1)}${Object.keys(fields).length ? ',' : ''}"${key}":[`;
  return {
    envelope: Buffer.byteLength(`${head}]}`),
    of: (rows) => new JsonText<T>(`${head}${rows.map((row) => row.text).join(',')}]}`),
  };
}

const NO_CHANGES: UploadResult = { created: 0, updated: 0, unchanged: 0 };

/** Float32 rows are sent little-endian whatever the machine. */
const BIG_ENDIAN = new Uint8Array(new Float32Array([1]).buffer)[0] === 0x3f;

interface FeatureRow extends Row {
  id: string;
  vector: ArrayLike<number>;
}

export class LoupeClient {
  readonly http: Http;

  constructor(options: HttpOptions) {
    this.http = new Http(options);
  }

  async datasets(): Promise<Dataset[]> {
    return this.http.call(api.datasets.list);
  }

  async dataset(idOrName: string): Promise<DatasetHandle> {
    const all = await this.datasets();
    const found = all.find((d) => d.id === idOrName) ?? all.find((d) => d.name === idOrName);
    if (!found) throw new Error(`No dataset with id or name '${idOrName}'.`);
    return new DatasetHandle(this.http, found);
  }

  async createDataset(input: CreateDatasetRequest): Promise<DatasetHandle> {
    return new DatasetHandle(this.http, await this.http.call(api.datasets.create, { body: input }));
  }

  /**
   * A prediction set's performance as its page shows it: statistics per split and the table per
   * class, word or value name (and with `subsets`, the enabled subsets'). Waits (polling every
   * second) while it is computed, unless `wait` is false (docs/sdk-typescript.md).
   */
  async performance(
    datasetId: string,
    predictionSetId: string,
    options: PerformanceOptions = {},
  ): Promise<Performance> {
    return readPerformance(this.http, datasetId, predictionSetId, options);
  }

  /**
   * Model B compared with model A (two prediction sets of one dataset) as the comparison page
   * shows it: which model wins each metric, the breakdown per class or word and per sample,
   * object or mask (and with `subsets`, the enabled subsets'). Waits (polling every second)
   * while it is computed, unless `wait` is false (docs/sdk-typescript.md).
   */
  async compare(
    modelA: PredictionSetHandle | PredictionSet,
    modelB: PredictionSetHandle | PredictionSet,
    options: CompareOptions = {},
  ): Promise<Comparison> {
    const [a, b] = [modelA, modelB].map((m) => (m instanceof PredictionSetHandle ? m.info : m));
    if (a!.dataset.id !== b!.dataset.id)
      throw new LoupeError(
        0,
        `Model A '${a!.name}' and model B '${b!.name}' belong to different datasets: compare two models of one dataset.`,
        false,
      );
    return readComparison(this.http, a!.dataset.id, a!.id, b!.id, options);
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
    this.info = await this.http.call(api.datasets.get, { params: { id: this.id } });
    return this.info;
  }

  /** Uploads bytes once per content; answers the `blob:` key. */
  async uploadMedia(bytes: Uint8Array, contentType: string): Promise<string> {
    const { key } = await this.http.call(api.media.upload, {
      params: { id: this.id },
      body: bytes,
      contentType,
    });
    return key;
  }

  /** Replaces bytes and `{file}` media by blob keys, uploading only what the server lacks. */
  private async resolveMedia<T extends Record<string, unknown>>(
    rows: T[],
    fields: string[],
    concurrency: number,
  ): Promise<T[]> {
    const pending = new Map<
      string,
      { bytes: () => Promise<Uint8Array>; type: string; name: string }
    >();
    const keyed = rows.map((row) => ({ ...row }) as Record<string, unknown>);
    const local = keyed.flatMap((out) =>
      fields
        .filter((field) => isLocalMedia(out[field]))
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
        name: value instanceof Uint8Array ? 'the bytes' : value.file,
      });
      out[field] = `blob:${key}`;
    });
    const keys = [...pending.keys()];
    const missing: string[] = [];
    for (let start = 0; start < keys.length; start += MAX_MISSING_MEDIA_KEYS) {
      const answer = await this.http.call(api.media.missing, {
        params: { id: this.id },
        body: { keys: keys.slice(start, start + MAX_MISSING_MEDIA_KEYS) },
      });
      missing.push(...answer.missing);
    }
    await pool(missing, concurrency, async (key) => {
      const media = pending.get(key)!;
      const stored = await this.uploadMedia(await media.bytes(), media.type);
      if (stored !== key)
        throw new LoupeError(
          0,
          `The server stored ${media.name} as ${stored}, expected ${key}: was the file changed during the upload?`,
          false,
        );
    });
    return keyed as T[];
  }

  /** Batches of `items` with their media uploaded, as rows ready to send. */
  private async *prepared(
    items: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>,
    batchSize: number,
    fields: string[],
    concurrency: number,
  ): AsyncGenerator<JsonRow[]> {
    let offset = 0;
    for await (const batch of batches(items, batchSize)) {
      const resolved = await this.resolveMedia(batch, fields, concurrency);
      yield resolved.map((row, i) => jsonRow(row, offset + i));
      offset += batch.length;
    }
  }

  /** @internal Sends rows by the upload protocol, each request by `send`; answers the summed totals. */
  async uploadRows<T>(
    body: RowsBody<T>,
    send: (body: JsonText<T>) => Promise<UploadResult>,
    items: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>,
    fields: string[],
    options: UploadOptions,
  ): Promise<UploadResult> {
    const total = lengthOf(items);
    let totals = NO_CHANGES;
    let done = 0;
    await upload(
      this.http,
      this.prepared(
        items,
        clampBatch(options.batchSize, UPLOAD_BATCH_ROWS, MAX_ROWS_PER_REQUEST),
        fields,
        options.concurrency ?? UPLOAD_MEDIA_IN_FLIGHT,
      ),
      {
        envelope: body.envelope,
        maxRows: MAX_ROWS_PER_REQUEST,
        post: (rows) => send(body.of(rows)),
        landed: (rows, answer) => {
          totals = sum(totals, answer);
          done += rows.length;
          options.onProgress?.({ done, ...(total === undefined ? {} : { total }) });
        },
      },
    );
    return totals;
  }

  async uploadSamples(
    samples: Iterable<SampleToUpload> | AsyncIterable<SampleToUpload>,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    const body = rowsBody<UploadSamplesRequest>(
      'samples',
      options.metadataTypes ? { metadata_types: options.metadataTypes } : {},
    );
    return this.uploadRows(
      body,
      (json) =>
        this.http.call(
          api.samples.upload,
          { params: { id: this.id }, body: json },
          { splittable: true },
        ),
      samples as Iterable<Record<string, unknown>>,
      ['image', 'audio', 'mask'],
      options,
    );
  }

  /**
   * Vectors by item id, sent as base64 little-endian float32 in requests within the byte budget
   * (two at once). Answers the feature's info as the last request left it.
   */
  async uploadFeatures(
    name: string,
    vectors: Map<string, ArrayLike<number>> | Record<string, ArrayLike<number>>,
    dataLevel?: DataLevel,
    options: FeatureUploadOptions = {},
  ): Promise<FeatureInfo> {
    return this.sendFeatures(name, vectors, dataLevel, options, (body) =>
      this.http.call(api.features.upload, { params: { id: this.id }, body }, { splittable: true }),
    );
  }

  /** The dataset's features, or (internal) a prediction set's: `post` sends one request body. */
  async sendFeatures(
    name: string,
    vectors: Map<string, ArrayLike<number>> | Record<string, ArrayLike<number>>,
    dataLevel: DataLevel | undefined,
    options: FeatureUploadOptions,
    post: (body: JsonText<FeatureUploadRequest>) => Promise<FeatureInfo>,
  ): Promise<FeatureInfo> {
    const entries = vectors instanceof Map ? [...vectors] : Object.entries(vectors);
    if (entries.length === 0) throw new Error('No vectors to upload.');
    const dimension = entries[0]![1].length;
    if (dimension === 0) throw new Error('Vectors must have at least one value.');
    const level = dataLevel ?? DATA_LEVELS[this.info.task_type][0]!;
    // base64 of the vector's float32 bytes, rounded up: the body's size within a few bytes.
    const vectorBytes = Math.ceil((dimension * 16) / 3);
    const rows: FeatureRow[] = entries.map(([id, vector], index) => {
      if (vector.length !== dimension)
        throw new Error(
          `Vector ${index} (id ${id}) has ${vector.length} values; the first has ${dimension}.`,
        );
      for (let i = 0; i < dimension; i++)
        if (!Number.isFinite(vector[i]))
          throw new Error(`Vector ${index} (id ${id}): values must be finite numbers.`);
      return { index, id, vector, size: Buffer.byteLength(JSON.stringify(id)) + 1 + vectorBytes };
    });
    const head = `{"name":${JSON.stringify(name)},"data_level":"${level}","dimension":${dimension},"ids":[`;
    let info: FeatureInfo | undefined;
    let done = 0;
    await upload(this.http, [rows], {
      envelope: Buffer.byteLength(`${head}],"data":""}`),
      maxRows: MAX_FEATURE_IDS_PER_REQUEST,
      post: (part) => {
        const values = new Float32Array(part.length * dimension);
        part.forEach((row, i) => values.set(row.vector, i * dimension));
        const bytes = Buffer.from(values.buffer);
        if (BIG_ENDIAN) bytes.swap32();
        const ids = part.map((row) => JSON.stringify(row.id)).join(',');
        return post(
          new JsonText<FeatureUploadRequest>(
            `${head}${ids}],"data":"${bytes.toString('base64')}"}`,
          ),
        );
      },
      landed: (part, answer) => {
        // Two requests in flight may answer out of order: keep the fuller count.
        if (!info || answer.num_present >= info.num_present) info = answer;
        done += part.length;
        options.onProgress?.({ done, total: rows.length });
      },
    });
    return info!;
  }

  /** The dataset's subsets, newest first. */
  async subsets(): Promise<Subset[]> {
    return this.http.call(api.subsets.list, { params: { id: this.id } });
  }

  /** The dataset's prediction sets (models). */
  async predictionSets(): Promise<PredictionSet[]> {
    return this.http.call(api.predictionSets.listForDataset, { query: { dataset_id: this.id } });
  }

  private async predictionSetId(nameOrId: string): Promise<string> {
    return (await this.predictionSet(nameOrId)).id;
  }

  /** A prediction set (model) of the dataset by id, or by name when none has that id. */
  async predictionSet(nameOrId: string): Promise<PredictionSetHandle> {
    const sets = await this.predictionSets();
    const found = sets.find((s) => s.id === nameOrId) ?? sets.find((s) => s.name === nameOrId);
    if (!found)
      throw new LoupeError(
        404,
        `No prediction set (model) with id or name '${nameOrId}' in dataset '${this.info.name}'.`,
        false,
      );
    return new PredictionSetHandle(this.http, this, found);
  }

  /**
   * Downloads a subset (by name or id) as a COCO or CSV folder and unpacks it into
   * `options.out`, which must be empty or new (docs/formats.md, "Exporting").
   */
  async exportSubset(subset: string, options: ExportOptions): Promise<ExportResult> {
    await requireEmptyFolder(options.out);
    const subsets = await this.subsets();
    const found = subsets.find((s) => s.id === subset) ?? subsets.find((s) => s.name === subset);
    if (!found)
      throw new LoupeError(
        404,
        `No subset with id or name '${subset}' in dataset '${this.info.name}'.`,
        false,
      );
    const predictionsId = options.predictions
      ? await this.predictionSetId(options.predictions)
      : undefined;
    const response = await this.http.call(api.subsets.export, {
      params: { id: this.id, subsetId: found.id },
      query: {
        format: options.format,
        ...(predictionsId ? { predictions_id: predictionsId } : {}),
      },
    });
    return saveExport(response, options.out, this.http.timeoutMs);
  }

  /** Downloads chosen items (ids of one data level) as a COCO or CSV folder into `options.out`. */
  async exportItems(itemIds: string[], options: ExportItemsOptions): Promise<ExportResult> {
    await requireEmptyFolder(options.out);
    const predictionsId = options.predictions
      ? await this.predictionSetId(options.predictions)
      : undefined;
    const response = await this.http.call(api.curation.exportSelection, {
      params: { id: this.id },
      body: {
        format: options.format,
        data_level: options.dataLevel,
        item_ids: itemIds,
        ...(options.name ? { name: options.name } : {}),
        ...(predictionsId ? { predictions_id: predictionsId } : {}),
      },
    });
    return saveExport(response, options.out, this.http.timeoutMs);
  }

  async createPredictionSet(name: string): Promise<PredictionSetHandle> {
    const set = await this.http.call(api.predictionSets.create, {
      params: { id: this.id },
      body: { name, exist_ok: true },
    });
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
  rowsOf(
    items: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>,
    batchSize: number,
    fields: string[],
    concurrency: number,
  ): AsyncGenerator<JsonRow[]> {
    return this.prepared(items, batchSize, fields, concurrency);
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

  private get params() {
    return { id: this.dataset.id, predictionSetId: this.id };
  }

  /** This model's performance: see LoupeClient.performance. */
  async performance(options: PerformanceOptions = {}): Promise<Performance> {
    return readPerformance(this.http, this.dataset.id, this.id, options);
  }

  /**
   * `other` (a handle, or a model of the dataset by id or name) as model B compared with this
   * model as model A: see LoupeClient.compare.
   */
  async compare(
    other: PredictionSetHandle | string,
    options: CompareOptions = {},
  ): Promise<Comparison> {
    const modelB = typeof other === 'string' ? await this.dataset.predictionSet(other) : other;
    if (modelB.info.dataset.id !== this.dataset.id)
      throw new LoupeError(
        0,
        `Model A '${this.info.name}' and model B '${modelB.info.name}' belong to different datasets: compare two models of one dataset.`,
        false,
      );
    return readComparison(this.http, this.dataset.id, this.id, modelB.id, options);
  }

  async uploadPredictions(
    predictions: Iterable<PredictionToUpload> | AsyncIterable<PredictionToUpload>,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    return this.dataset.uploadRows(
      rowsBody<UploadPredictionsRequest>('predictions'),
      (json) =>
        this.http.call(
          api.predictionSets.uploadPredictions,
          { params: this.params, body: json },
          { splittable: true },
        ),
      predictions,
      ['mask'],
      options,
    );
  }

  /**
   * The model's own feature vectors by item id, sent like DatasetHandle.uploadFeatures; listed
   * beside the dataset's by `features()`.
   */
  async uploadFeatures(
    name: string,
    vectors: Map<string, ArrayLike<number>> | Record<string, ArrayLike<number>>,
    dataLevel?: DataLevel,
    options: FeatureUploadOptions = {},
  ): Promise<FeatureInfo> {
    return this.dataset.sendFeatures(name, vectors, dataLevel, options, (body) =>
      this.http.call(
        api.features.uploadForPredictionSet,
        { params: this.params, body },
        { splittable: true },
      ),
    );
  }

  /** The model's own features and the dataset's. */
  async features(): Promise<PredictionFeaturesResponse> {
    return this.http.call(api.features.listForPredictionSet, { params: this.params });
  }

  /** Heatmaps by sample id (rows of numbers, or an image given like any media); answers how many landed. */
  async uploadAttributions(
    attributions: Iterable<AttributionToUpload> | AsyncIterable<AttributionToUpload>,
    name = 'attribution',
    options: Omit<UploadOptions, 'metadataTypes'> = {},
  ): Promise<number> {
    const body = rowsBody<UploadAttributionsRequest>('attributions', { name });
    const total = lengthOf(attributions);
    let uploaded = 0;
    let done = 0;
    await upload(
      this.http,
      this.dataset.rowsOf(
        attributions as Iterable<Record<string, unknown>>,
        clampBatch(options.batchSize, UPLOAD_ATTRIBUTION_BATCH_ROWS, MAX_ATTRIBUTIONS_PER_REQUEST),
        ['heatmap'],
        options.concurrency ?? UPLOAD_MEDIA_IN_FLIGHT,
      ),
      {
        envelope: body.envelope,
        maxRows: MAX_ATTRIBUTIONS_PER_REQUEST,
        post: (rows) =>
          this.http.call(
            api.predictionSets.uploadAttributions,
            { params: this.params, body: body.of(rows) },
            { splittable: true },
          ),
        landed: (rows, answer) => {
          uploaded += answer.uploaded;
          done += rows.length;
          options.onProgress?.({ done, ...(total === undefined ? {} : { total }) });
        },
      },
    );
    return uploaded;
  }
}
