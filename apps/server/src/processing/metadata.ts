// MetadataAndFeaturesComputation: reads each new sample's media once and computes its default
// metadata (size, format, brightness, … for images; duration, loudness, … for audio), object
// metadata, and the default features that make embeddings and similarity work without uploads.
// Files are read here; decoding and measuring happen on the media pool's threads.
import type { DataLevel, TaskType } from '@loupe/contracts';
import type { Repositories, Transact } from '../db/repositories.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { OnnxEmbedder } from './onnx-embedder.js';
import { storeThumbnail } from './thumbnails.js';
import type { MetadataFieldRow, ObjectRow, SampleRow } from '../datasets/datasets.repository.js';
import type { JobContext } from '../jobs/job-types.js';
import type { MediaResolver } from '../storage/media.js';
import { ORIGINAL_THUMBNAIL } from '../storage/thumbnail-refs.js';
import { objectMetadata, type ComputedMedia } from './media-metadata.js';
import type { MediaPool } from './media-pool.js';

const BATCH = 100;
/**
 * Files in flight at once: read here, queued for and measured on the media pool's threads. The
 * main thread shares the cores with those threads (and with uploads), so it often gets to a
 * finished file late; enough work queued keeps the pool busy meanwhile. On 2 cores, uploads of
 * 2,000 images ran at 104 images/s with 16 against 83–88 with 4 (single runs, before the pool:
 * docs/performance.md), for about 10 MB of decoded pixels in memory.
 */
const METADATA_CONCURRENCY = 16;

interface FieldSpec {
  id: string;
  label: string;
  type: MetadataFieldRow['type'];
  group: string;
  description: string;
}

/** Built-in computed fields by data level (ids are stable: filters and sorts refer to them). */
export const COMPUTED_FIELDS: Record<DataLevel, FieldSpec[]> = {
  image: [
    {
      id: 'image.width',
      label: 'Width',
      type: 'numeric',
      group: 'Image',
      description: 'Width in pixels',
    },
    {
      id: 'image.height',
      label: 'Height',
      type: 'numeric',
      group: 'Image',
      description: 'Height in pixels',
    },
    {
      id: 'image.aspect_ratio',
      label: 'Aspect ratio',
      type: 'numeric',
      group: 'Image',
      description: 'Width divided by height',
    },
    {
      id: 'image.file_size',
      label: 'File size',
      type: 'numeric',
      group: 'Image',
      description: 'Size of the file in bytes',
    },
    {
      id: 'image.format',
      label: 'Format',
      type: 'string',
      group: 'Image',
      description: 'Encoding of the file (jpeg, png, …)',
    },
    {
      id: 'image.brightness',
      label: 'Brightness',
      type: 'numeric',
      group: 'Image quality',
      description: 'Mean Rec. 601 luma, 0 (black) to 1 (white)',
    },
    {
      id: 'image.contrast',
      label: 'Contrast',
      type: 'numeric',
      group: 'Image quality',
      description: 'RMS contrast: standard deviation of luma, 0 to 0.5',
    },
    {
      id: 'image.sharpness',
      label: 'Sharpness',
      type: 'numeric',
      group: 'Image quality',
      description:
        'Variance of the Laplacian of luma, measured at most 512 px on the longest side; low means blurry',
    },
    {
      id: 'image.colorfulness',
      label: 'Colourfulness',
      type: 'numeric',
      group: 'Image quality',
      description: 'Hasler–Süsstrunk colourfulness',
    },
    {
      id: 'image.phash',
      label: 'Perceptual hash',
      type: 'string',
      group: 'Image',
      description: '64-bit DCT perceptual hash (hex)',
    },
    {
      id: 'image.object_count',
      label: 'Object count',
      type: 'numeric',
      group: 'Objects',
      description: 'Ground-truth objects in the image',
    },
    {
      id: 'image.corrupt',
      label: 'Corrupt media',
      type: 'boolean',
      group: 'Image',
      description: 'The file could not be read or decoded',
    },
  ],
  image_object: [
    {
      id: 'object.area',
      label: 'Area',
      type: 'numeric',
      group: 'Object',
      description: 'Box area in pixels',
    },
    {
      id: 'object.relative_area',
      label: 'Relative area',
      type: 'numeric',
      group: 'Object',
      description: 'Box area divided by image area',
    },
    {
      id: 'object.aspect_ratio',
      label: 'Aspect ratio',
      type: 'numeric',
      group: 'Object',
      description: 'Box width divided by height',
    },
    {
      id: 'object.label',
      label: 'Label',
      type: 'string',
      group: 'Object',
      description: 'Ground-truth label',
    },
  ],
  audio: [
    {
      id: 'audio.duration',
      label: 'Duration',
      type: 'numeric',
      group: 'Audio',
      description: 'Length in seconds',
    },
    {
      id: 'audio.sample_rate',
      label: 'Sample rate',
      type: 'numeric',
      group: 'Audio',
      description: 'Samples per second',
    },
    {
      id: 'audio.channels',
      label: 'Channels',
      type: 'numeric',
      group: 'Audio',
      description: 'Number of channels',
    },
    {
      id: 'audio.file_size',
      label: 'File size',
      type: 'numeric',
      group: 'Audio',
      description: 'Size of the file in bytes',
    },
    {
      id: 'audio.rms_dbfs',
      label: 'Loudness (RMS)',
      type: 'numeric',
      group: 'Audio quality',
      description: 'RMS level in dBFS',
    },
    {
      id: 'audio.peak_dbfs',
      label: 'Peak',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Peak level in dBFS',
    },
    {
      id: 'audio.silence_fraction',
      label: 'Silence fraction',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Fraction of 20 ms frames below −40 dBFS',
    },
    {
      id: 'audio.spectral_centroid',
      label: 'Spectral centroid',
      type: 'numeric',
      group: 'Audio quality',
      description: 'Mean spectral centroid in Hz',
    },
    {
      id: 'audio.corrupt',
      label: 'Corrupt media',
      type: 'boolean',
      group: 'Audio',
      description: 'The file could not be read or decoded',
    },
  ],
};

export const DEFAULT_FEATURE = {
  image: 'loupe.image_descriptor',
  audio: 'loupe.audio_mfcc',
} as const;

/** Fields about ground-truth objects: only tasks with objects (detection, instance segmentation). */
const OBJECT_FIELDS = new Set(['image.object_count']);

/** The computed fields a task gets at a level: no object fields for a task without objects. */
export function computedFields(level: DataLevel, hasObjects: boolean): FieldSpec[] {
  return COMPUTED_FIELDS[level].filter((field) => hasObjects || !OBJECT_FIELDS.has(field.id));
}

function fieldRows(
  datasetId: string,
  level: DataLevel,
  hasObjects: boolean,
  now: number,
  state: 'available' | 'pending',
): MetadataFieldRow[] {
  return computedFields(level, hasObjects).map((field) => ({
    dataset_id: datasetId,
    data_level: level,
    id: field.id,
    name: field.id,
    label: field.label,
    description: field.description,
    group_name: field.group,
    source: 'computed',
    type: field.type,
    state,
    created_at: now,
  }));
}

export function metadataJob(
  repos: Repositories,
  transact: Transact,
  blobs: BlobStore,
  media: MediaResolver,
  pool: MediaPool,
  clock: () => number,
  embedder?: () => Promise<OnnxEmbedder>,
) {
  return async (context: JobContext<'MetadataAndFeaturesComputation'>): Promise<void> => {
    const datasetId = context.payload.dataset_id;
    const dataset = await repos.datasets.find(datasetId);
    if (!dataset) return;
    const task = dataset.task_type as TaskType;
    const audio = task === 'audio_classification' || task === 'automatic_speech_recognition';
    const hasObjects = task === 'object_detection' || task === 'instance_segmentation';
    const thumbnails = dataset.thumbnails_enabled === 1;
    const model = embedder && !audio ? await embedder() : undefined;
    const levels: DataLevel[] = audio
      ? ['audio']
      : hasObjects
        ? ['image', 'image_object']
        : ['image'];
    const now = clock();
    for (const level of levels)
      await repos.datasets.insertMetadataFields(
        fieldRows(datasetId, level, hasObjects, now, 'pending'),
      );
    // Computed values are read by the explorer only when the fields turn available again, so
    // the data version moves at the start and the end of the pass, not with every batch.
    await transact(async (tx) => {
      await tx.datasets.setMetadataState(datasetId, 'computed', 'pending');
      await tx.datasets.bumpDataVersion(datasetId);
    });

    const total = Math.max(1, await repos.datasets.countUnprocessed(datasetId));
    let done = 0;
    const next = unprocessedSamples(repos, datasetId, hasObjects);
    const level = audio ? 'audio' : 'image';

    /** One sample: its file read and decoded once for metadata, thumbnail and features. */
    const measure = async ({ sample, objects }: Unprocessed): Promise<Measured> => {
      const { computed, rendered } = await computeSample(sample, audio, datasetId, media, pool, {
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
      const objectUpdates: { id: string; computed: string }[] = [];
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
              computed: JSON.stringify(objectMetadata(object, width, height)),
            });
        }
      }
      await transact(async (tx) => {
        await tx.datasets.setSamplesProcessed(
          datasetId,
          measured.map(({ sample, computed, thumbnail }) => ({
            id: sample.id,
            computed: JSON.stringify(computed.values),
            ...(thumbnail ? { thumbnail } : {}),
          })),
        );
        for (const update of objectUpdates)
          await tx.datasets.setObjectComputed(datasetId, update.id, update.computed);
        for (const [name, vectors] of features) {
          const at = clock();
          await tx.datasets.upsertFeature({
            dataset_id: datasetId,
            data_level: level,
            name,
            dimension: vectors[0]!.vector.length,
            source: 'computed',
            created_at: at,
            updated_at: at,
          });
          await tx.datasets.upsertVectors(
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
      await context.progress(Math.min(0.99, done / total));
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
      await tx.datasets.setMetadataState(datasetId, 'computed', 'available');
      await tx.datasets.bumpDataVersion(datasetId);
    });
  };
}

interface Unprocessed {
  sample: SampleRow;
  /** Its ground-truth objects (detection and instance segmentation). */
  objects: ObjectRow[];
}

interface Measured extends Unprocessed {
  computed: ComputedMedia;
  thumbnail?: string;
  embedding?: Float32Array;
}

/**
 * The dataset's unprocessed samples one at a time, in upload order, read BATCH at a time behind
 * a cursor (samples being stored meanwhile are not read twice). Callers share one read.
 */
function unprocessedSamples(
  repos: Repositories,
  datasetId: string,
  withObjects: boolean,
): () => Promise<Unprocessed | undefined> {
  const buffer: Unprocessed[] = [];
  let afterSeq = -1;
  let exhausted = false;
  let reading: Promise<void> | null = null;
  const read = async () => {
    const samples = await repos.datasets.unprocessedSamples(datasetId, BATCH, afterSeq);
    if (samples.length === 0) {
      exhausted = true;
      return;
    }
    afterSeq = samples[samples.length - 1]!.seq;
    const bySample = new Map<string, ObjectRow[]>();
    if (withObjects)
      for (const object of await repos.datasets.objectsOfSamples(
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
async function computeSample(
  sample: SampleRow,
  audio: boolean,
  datasetId: string,
  media: MediaResolver,
  pool: MediaPool,
  want: { thumbnail: boolean; pixels: boolean },
): Promise<{ computed: ComputedMedia; rendered?: Buffer | typeof ORIGINAL_THUMBNAIL }> {
  if (!sample.media) return { computed: { values: {}, vector: null } };
  let bytes: Buffer;
  try {
    bytes = await media.read(datasetId, sample.media);
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
    const result = await pool.run({
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

/** A Buffer over the same memory (arrays arrive from a thread as plain Uint8Arrays). */
const asBuffer = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
