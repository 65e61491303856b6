// The metadata pass: reads each new sample's media once and computes its default metadata (size,
// format, brightness, … for images; duration, loudness, … for audio), object metadata, the default
// features that make embeddings and similarity work without uploads, and (when on) thumbnails.
// Files are read here; decoding and measuring happen on the media pool's threads.
import { TASK_TRAITS } from '@loupe/contracts';
import type { DatasetsRepository } from '../datasets/datasets.repository.js';
import type { MetadataFieldsRepository } from '../datasets/metadata-fields.repository.js';
import type { Transact } from '../db/transact.js';
import type { FeaturesRepository } from '../features/features.repository.js';
import { objectMetadata, type ComputedMedia } from '../processing/media-metadata.js';
import type { MediaPool } from '../processing/media-pool.js';
import type { OnnxEmbedder } from '../processing/onnx-embedder.js';
import { storeThumbnail } from '../processing/thumbnails.js';
import type {
  ObjectRecord,
  SampleRecord,
  SamplesRepository,
} from '../samples/samples.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaResolver } from '../storage/media.js';
import { ORIGINAL_THUMBNAIL } from '../storage/thumbnail-refs.js';
import { computedFieldRecords, DEFAULT_FEATURE } from './computed-fields.js';

const BATCH = 100;
/**
 * Files in flight at once: read here, queued for and measured on the media pool's threads. The
 * main thread shares the cores with those threads (and with uploads), so it often gets to a
 * finished file late; enough work queued keeps the pool busy meanwhile. On 2 cores, uploads of
 * 2,000 images ran at 104 images/s with 16 against 83–88 with 4 (single runs, before the pool:
 * docs/performance.md), for about 10 MB of decoded pixels in memory.
 */
const METADATA_CONCURRENCY = 16;

export interface MetadataRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  samples: Pick<SamplesRepository, 'unprocessed' | 'countUnprocessed' | 'objectsOf'>;
  metadataFields: Pick<MetadataFieldsRepository, 'insert'>;
}

/** What one stored batch writes, in one transaction. */
export interface MetadataStoreRepos {
  datasets: Pick<DatasetsRepository, 'bumpDataVersion'>;
  samples: Pick<SamplesRepository, 'setProcessed' | 'setObjectComputed'>;
  features: Pick<FeaturesRepository, 'upsert' | 'upsertVectors'>;
  metadataFields: Pick<MetadataFieldsRepository, 'setState'>;
}

interface Unprocessed {
  sample: SampleRecord;
  /** Its ground-truth objects (detection and instance segmentation). */
  objects: ObjectRecord[];
}

interface Measured extends Unprocessed {
  computed: ComputedMedia;
  thumbnail?: string;
  embedding?: Float32Array;
}

export class MetadataService {
  constructor(
    private readonly repos: MetadataRepos,
    private readonly transact: Transact<MetadataStoreRepos>,
    private readonly blobs: BlobStore,
    private readonly media: Pick<MediaResolver, 'read'>,
    private readonly pool: Pick<MediaPool, 'run'>,
    private readonly clock: () => number,
    private readonly embedder?: () => Promise<OnnxEmbedder>,
  ) {}

  /** Measures every unprocessed sample of the dataset, reporting progress (0–1) as it goes. */
  async compute(datasetId: string, progress: (fraction: number) => Promise<void>): Promise<void> {
    const { repos, transact, blobs, clock } = this;
    const dataset = await repos.datasets.find(datasetId);
    if (!dataset) return;
    const traits = TASK_TRAITS[dataset.task_type];
    const audio = traits.media === 'audio';
    const hasObjects = traits.hasObjects;
    const thumbnails = dataset.thumbnails_enabled;
    const model = this.embedder && !audio ? await this.embedder() : undefined;
    // Object fields only where there are objects (docs/product.md, Datasets §3).
    const levels = traits.dataLevels.filter((level) => level !== 'image_object' || hasObjects);
    const now = clock();
    for (const level of levels)
      await repos.metadataFields.insert(
        computedFieldRecords(datasetId, level, hasObjects, now, 'pending'),
      );
    // Computed values are read by the explorer only when the fields turn available again, so
    // the data version moves at the start and the end of the pass, not with every batch.
    await transact(async (tx) => {
      await tx.metadataFields.setState(datasetId, 'computed', 'pending');
      await tx.datasets.bumpDataVersion(datasetId);
    });

    const total = Math.max(1, await repos.samples.countUnprocessed(datasetId));
    let done = 0;
    const next = this.unprocessedSamples(datasetId, hasObjects);
    const level = audio ? 'audio' : 'image';

    /** One sample: its file read and decoded once for metadata, thumbnail and features. */
    const measure = async ({ sample, objects }: Unprocessed): Promise<Measured> => {
      const { computed, rendered } = await this.computeSample(sample, audio, datasetId, {
        thumbnail: Boolean(sample.media && thumbnails && sample.thumbnail === null),
        pixels: model !== undefined,
      });
      let thumbnail: string | undefined;
      if (rendered)
        thumbnail = await storeThumbnail(blobs, datasetId, sample.id, rendered).catch(
          () => undefined,
        );
      const embedding = computed.pixels && model ? await model.embed(computed.pixels) : undefined;
      delete computed.pixels;
      delete computed.file;
      return {
        sample,
        objects,
        computed,
        ...(thumbnail ? { thumbnail } : {}),
        ...(embedding ? { embedding } : {}),
      };
    };

    /** Stores measured samples in one transaction: values, object metadata, default features. */
    const store = async (measured: Measured[]): Promise<void> => {
      const features = new Map<string, { id: string; vector: Float32Array }[]>();
      const addVector = (name: string, id: string, vector: Float32Array) =>
        features.set(name, [...(features.get(name) ?? []), { id, vector }]);
      const objectUpdates: { id: string; computed: Record<string, unknown> }[] = [];
      for (const { sample, objects, computed, embedding } of measured) {
        if (computed.vector)
          addVector(DEFAULT_FEATURE[audio ? 'audio' : 'image'], sample.id, computed.vector);
        if (embedding && model) addVector(model.featureName, sample.id, embedding);
        if (hasObjects) {
          computed.values['image.object_count'] = objects.length;
          const width = computed.values['image.width'] as number | undefined;
          const height = computed.values['image.height'] as number | undefined;
          for (const object of objects)
            objectUpdates.push({
              id: object.id,
              computed: objectMetadata(object, width, height),
            });
        }
      }
      await transact(async (tx) => {
        await tx.samples.setProcessed(
          datasetId,
          measured.map(({ sample, computed, thumbnail }) => ({
            id: sample.id,
            computed: computed.values,
            ...(thumbnail ? { thumbnail } : {}),
          })),
        );
        for (const update of objectUpdates)
          await tx.samples.setObjectComputed(datasetId, update.id, update.computed);
        for (const [name, vectors] of features) {
          const at = clock();
          await tx.features.upsert({
            dataset_id: datasetId,
            data_level: level,
            name,
            dimension: vectors[0]!.vector.length,
            source: 'computed',
            created_at: at,
            updated_at: at,
          });
          await tx.features.upsertVectors(
            vectors.map(({ id, vector }) => ({
              dataset_id: datasetId,
              data_level: level,
              feature_name: name,
              item_id: id,
              vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
            })),
          );
        }
      });
      done += measured.length;
      await progress(Math.min(0.99, done / total));
    };

    // A stream, not batch by batch: METADATA_CONCURRENCY files stay in flight while the next
    // samples are read and finished ones are stored (one transaction at a time, BATCH samples
    // each), so the cores never wait for a batch's slowest file or for the database.
    const finished: Measured[] = [];
    let storing: Promise<void> = Promise.resolve();
    let waitingStores = 0;
    let failure: unknown;
    const flush = () => {
      const chunk = finished.splice(0);
      if (chunk.length === 0) return;
      waitingStores++;
      storing = storing
        .then(() => (failure === undefined ? store(chunk) : undefined))
        .catch((error: unknown) => void (failure ??= error))
        .finally(() => waitingStores--);
    };
    const work = async () => {
      try {
        for (let item = await next(); item && failure === undefined; item = await next()) {
          finished.push(await measure(item));
          if (finished.length >= BATCH) flush();
          // A database slower than the decoding holds the decoding back, not memory.
          if (waitingStores > 1) await storing;
        }
      } catch (error) {
        failure ??= error; // the other workers stop after their current file
      }
    };
    await Promise.all(Array.from({ length: METADATA_CONCURRENCY }, work));
    flush();
    await storing;
    if (failure !== undefined) throw failure;
    await transact(async (tx) => {
      await tx.metadataFields.setState(datasetId, 'computed', 'available');
      await tx.datasets.bumpDataVersion(datasetId);
    });
  }

  /**
   * The dataset's unprocessed samples one at a time, in upload order, read BATCH at a time behind
   * a cursor (samples being stored meanwhile are not read twice). Callers share one read.
   */
  private unprocessedSamples(
    datasetId: string,
    withObjects: boolean,
  ): () => Promise<Unprocessed | undefined> {
    const { samples: repo } = this.repos;
    const buffer: Unprocessed[] = [];
    let afterSeq = -1;
    let exhausted = false;
    let reading: Promise<void> | null = null;
    const read = async () => {
      const samples = await repo.unprocessed(datasetId, BATCH, afterSeq);
      if (samples.length === 0) {
        exhausted = true;
        return;
      }
      afterSeq = samples[samples.length - 1]!.seq;
      const bySample = new Map<string, ObjectRecord[]>();
      if (withObjects)
        for (const object of await repo.objectsOf(
          datasetId,
          samples.map((s) => s.id),
        ))
          bySample.set(object.sample_id, [...(bySample.get(object.sample_id) ?? []), object]);
      for (const sample of samples) buffer.push({ sample, objects: bySample.get(sample.id) ?? [] });
    };
    return async () => {
      while (buffer.length === 0 && !exhausted) {
        reading ??= read().finally(() => (reading = null));
        await reading;
      }
      return buffer.shift();
    };
  }

  /**
   * A sample's file, read here and measured on the media pool, with its thumbnail when `want` asks
   * (rendered from the same decode). A file that cannot be read, decoded or measured within the
   * pool's limits is marked corrupt, with the reason in `error`.
   */
  private async computeSample(
    sample: SampleRecord,
    audio: boolean,
    datasetId: string,
    want: { thumbnail: boolean; pixels: boolean },
  ): Promise<{ computed: ComputedMedia; rendered?: Buffer | typeof ORIGINAL_THUMBNAIL }> {
    if (!sample.media) return { computed: { values: {}, vector: null } };
    let bytes: Buffer;
    try {
      bytes = await this.media.read(datasetId, sample.media);
    } catch (error) {
      return {
        computed: {
          values: {
            [audio ? 'audio.corrupt' : 'image.corrupt']: true,
            error: (error as Error).message,
          },
          vector: null,
        },
      };
    }
    const size = bytes.length; // the pool may take the bytes over
    try {
      const result = await this.pool.run({
        kind: 'measure',
        media: audio ? 'audio' : 'image',
        ref: sample.media,
        bytes,
        ...want,
      });
      const { pixels, thumbnail } = result;
      return {
        computed: {
          values: result.values ?? {},
          vector: result.vector ?? null,
          ...(pixels ? { pixels: { ...pixels, data: asBuffer(pixels.data) } } : {}),
        },
        ...(thumbnail
          ? { rendered: thumbnail === ORIGINAL_THUMBNAIL ? thumbnail : asBuffer(thumbnail) }
          : {}),
      };
    } catch (error) {
      return {
        computed: {
          values: {
            [audio ? 'audio.corrupt' : 'image.corrupt']: true,
            [audio ? 'audio.file_size' : 'image.file_size']: size,
            error: (error as Error).message,
          },
          vector: null,
        },
      };
    }
  }
}

/** A Buffer over the same memory (arrays arrive from a thread as plain Uint8Arrays). */
const asBuffer = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
