// Datasets: create, list, read, delete, settings, and the upload of samples, media, features,
// prediction sets, predictions and attributions. Uploads are idempotent by id, land whole or not
// at all, and queue the background work that follows them.
import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { CreateDatasetRequest, FeatureUploadRequest } from '@loupe/contracts';
import {
  type AttributionInput,
  type Dataset,
  type FeatureInfo,
  type HistoryRecord,
  type PredictionSet,
  type TaskType,
  type UploadResult,
  DATA_LEVELS,
  MAX_MEDIA_BYTES,
  isAudioTask,
} from '@loupe/contracts';
import type { z } from 'zod';
import type { Transact as UnitOfWork } from '../db/transact.js';
import type { Repositories } from '../repositories.js';

type Transact = UnitOfWork<Repositories>;
import type { PlannerStatistics } from '../db/statistics.js';
import {
  BadRequest,
  BatchRejected,
  Conflict,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType,
} from '../platform/errors.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import type {
  PredictionRow,
  PredictionSetRow,
  PredictedObjectRow,
} from '../predictions/predictions.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaResolver } from '../storage/media.js';
import { BLOB_PREFIX, mediaKey, mediaKind, urlMediaKey } from '../storage/media.js';
import { thumbnailBlobKey, thumbnailUrl } from '../storage/thumbnail-refs.js';
import { actorUserId, type Actor } from '../users/actor.js';
import type { DatasetRow, ObjectRow, SampleRow } from './datasets.repository.js';
import {
  checkPredictionBatch,
  checkSampleBatch,
  type DatasetShape,
  type MetadataType,
} from './sample-validation.js';

export const UPLOAD_LICENSE_MESSAGE = 'Please set up your license key in Settings to add datasets.';
// Shared with the CLI, which checks a folder's files against it before uploading any.
export { MAX_MEDIA_BYTES };
export const DEFAULT_IOU_THRESHOLD = 0.5;
/**
 * Media types a browser may run script from when served from our origin: SVG and other XML,
 * HTML, script. Uploads refuse them; blob responses are sandboxed besides (http/range.ts).
 */
export function isActiveContent(type: string): boolean {
  return (
    /[/+]xml$|^text\/(html|xml|javascript|ecmascript)$|^application\/(xhtml|javascript|ecmascript)/.test(
      type,
    ) || type.includes('svg')
  );
}
/** Uploads by the same user within this window grow one history record instead of adding many. */
export const HISTORY_MERGE_MS = 10 * 60_000;

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

export class DatasetsService {
  constructor(
    private readonly repos: Repositories,
    private readonly transact: Transact,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly jobs: JobsService,
    private readonly blobs: BlobStore,
    private readonly media: MediaResolver,
    private readonly clock: Clock,
    private readonly statistics: Pick<PlannerStatistics, 'wrote'>,
    /** The largest media file an upload may send (LOUPE_MEDIA_LIMIT_MB). */
    private readonly mediaLimitBytes: number = MAX_MEDIA_BYTES,
  ) {}

  private async requireUploadLicense(actor: Actor): Promise<void> {
    await this.license.requireLicense('add datasets', { actor, message: UPLOAD_LICENSE_MESSAGE });
  }

  async dataset(id: string): Promise<DatasetRow> {
    const row = await this.repos.datasets.find(id);
    if (!row) throw new NotFound(`No dataset with id ${id}.`);
    return row;
  }

  async toDataset(row: DatasetRow, predictionsCount?: number): Promise<Dataset> {
    const task = row.task_type as TaskType;
    const [splits, previews, durations] = await Promise.all([
      this.repos.datasets.splits(row.id),
      this.repos.datasets.previewSamples(row.id, 5),
      isAudioTask(task) ? this.repos.datasets.durationBounds(row.id) : Promise.resolve(null),
    ]);
    const classNames = JSON.parse(row.class_names) as string[];
    const valueNames = JSON.parse(row.value_names) as string[];
    const predictions = predictionsCount ?? (await this.repos.predictions.listSets(row.id)).length;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      task_type: task,
      issues_count: 0,
      samples_count: row.samples_count,
      views: [{ id: 'default', name: isAudioTask(task) ? 'Audio' : 'Image' }],
      ...(task === 'regression' ? { regression_value_names: valueNames } : {}),
      class_names: classNames,
      ...(row.label_map ? { label_map: JSON.parse(row.label_map) as Record<string, string> } : {}),
      classes_count: classNames.length,
      objects_count: row.objects_count,
      predictions_count: predictions,
      updated_ts: Math.floor(row.updated_at / 1000),
      preview_urls: previews.flatMap((p) => thumbnailUrl(row.id, p) ?? []),
      splits,
      ...(durations && durations.min !== null && durations.max !== null
        ? {
            min_duration: durations.min,
            max_duration: durations.max,
            default_duration: Math.min(durations.max, 11.48),
          }
        : {}),
      iou_threshold: row.iou_threshold,
      thumbnails_enabled: row.thumbnails_enabled === 1,
    };
  }

  async list(): Promise<Dataset[]> {
    const [rows, counts] = await Promise.all([
      this.repos.datasets.list(),
      this.repos.predictions.countSetsByDataset(),
    ]);
    return Promise.all(rows.map((row) => this.toDataset(row, counts.get(row.id) ?? 0)));
  }

  async get(id: string): Promise<Dataset> {
    return this.toDataset(await this.dataset(id));
  }

  async create(
    actor: Actor,
    input: z.output<typeof CreateDatasetRequest>,
  ): Promise<{ dataset: Dataset; created: boolean }> {
    await this.requireUploadLicense(actor);
    const existing = await this.repos.datasets.findByName(input.name);
    if (existing) {
      if (input.exist_ok && existing.task_type === input.task_type)
        return { dataset: await this.toDataset(existing), created: false };
      throw new Conflict(
        existing.task_type === input.task_type
          ? `A dataset named '${input.name}' already exists.`
          : `A dataset named '${input.name}' already exists with task type ${existing.task_type}.`,
      );
    }
    if (input.task_type === 'regression' && !input.value_names?.length) {
      throw new BadRequest('body.value_names: a regression dataset needs at least one value name.');
    }
    if (input.class_names && new Set(input.class_names).size !== input.class_names.length) {
      throw new BadRequest('body.class_names: class names must be unique.');
    }
    const classNames =
      input.class_names ?? (input.label_map ? [...new Set(Object.values(input.label_map))] : []);
    const now = this.clock();
    const row: DatasetRow = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
      task_type: input.task_type,
      class_names: JSON.stringify(classNames),
      value_names: JSON.stringify(input.value_names ?? []),
      label_map: json(input.label_map),
      // Classes named at creation are a closed list; otherwise they are learned from uploads.
      closed_classes: classNames.length > 0 ? 1 : 0,
      iou_threshold: DEFAULT_IOU_THRESHOLD,
      thumbnails_enabled: 1,
      samples_count: 0,
      objects_count: 0,
      next_seq: 0,
      data_version: 0,
      created_by: actorUserId(actor),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.repos.datasets.insert(row);
    } catch (error) {
      // Two creates of the same name at once: the unique index lets one win.
      if (await this.repos.datasets.findByName(input.name))
        throw new Conflict(`A dataset named '${input.name}' already exists.`);
      throw error;
    }
    return { dataset: await this.toDataset(row, 0), created: true };
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.license.requireLicense('delete datasets', { actor });
    await this.dataset(id);
    await this.repos.datasets.delete(id);
    await this.blobs.deletePrefix(`datasets/${id}`);
  }

  async setThumbnailsEnabled(
    actor: Actor,
    id: string,
    enabled: boolean,
  ): Promise<{ enabled: boolean }> {
    await this.dataset(id);
    await this.repos.datasets.update(id, { thumbnails_enabled: enabled ? 1 : 0 });
    if (enabled) await this.jobs.enqueue('ThumbnailGeneration', { dataset_id: id }, actor);
    else {
      // Disabling deletes every thumbnail (the web app confirms first).
      await this.repos.datasets.clearThumbnails(id);
      await this.blobs.deletePrefix(`datasets/${id}/thumbnails`);
    }
    return { enabled };
  }

  async setIouThreshold(id: string, threshold: number): Promise<{ iou_threshold: number }> {
    const row = await this.dataset(id);
    if (row.task_type !== 'object_detection' && row.task_type !== 'instance_segmentation') {
      throw new BadRequest(
        'Only object detection and instance segmentation datasets have an IoU threshold.',
      );
    }
    // Which predicted objects match a ground truth depends on the threshold.
    await this.transact(async (repos) => {
      await repos.datasets.update(id, { iou_threshold: threshold });
      await repos.datasets.bumpDataVersion(id);
    });
    return { iou_threshold: threshold };
  }

  // ---- media

  /** The blob key of an uploaded file of this dataset. */
  async mediaBlobKey(datasetId: string, sha: string): Promise<string> {
    const info = await this.repos.datasets.mediaInfo(datasetId, sha);
    if (!info) throw new NotFound('No such media in this dataset.');
    return mediaKey(datasetId, sha);
  }

  async thumbnailKey(datasetId: string, base: string): Promise<string> {
    await this.dataset(datasetId);
    return thumbnailBlobKey(datasetId, base);
  }

  /**
   * A sample's original media: a blob to stream (uploaded, or fetched from its URL by
   * processing), or bytes read from a media root. A URL is never contacted here.
   */
  async sampleMedia(
    datasetId: string,
    sampleId: string,
  ): Promise<
    | { blobKey: string; sha: string; contentType?: string }
    | { bytes: Buffer; mediaType: string | null }
  > {
    const [sample] = await this.repos.datasets.samplesByIds(datasetId, [sampleId]);
    if (!sample?.media) throw new NotFound(`No media for sample '${sampleId}'.`);
    if (sample.media.startsWith(BLOB_PREFIX)) {
      const sha = sample.media.slice(BLOB_PREFIX.length);
      return { blobKey: mediaKey(datasetId, sha), sha };
    }
    if (mediaKind(sample.media) === 'url') {
      const blobKey = urlMediaKey(datasetId, sample.media);
      if (!(await this.blobs.head(blobKey))) {
        throw sample.processed
          ? new NotFound(`The media URL of sample '${sampleId}' could not be fetched.`)
          : new Conflict(
              `The media of sample '${sampleId}' has not been fetched yet: processing fetches it from its URL once; try again when the dataset's activity has finished.`,
            );
      }
      return {
        blobKey,
        sha: blobKey.slice(blobKey.lastIndexOf('/') + 1),
        contentType: sample.media_type === 'audio' ? 'audio/wav' : 'application/octet-stream',
      };
    }
    try {
      return {
        bytes: await this.media.read(datasetId, sample.media),
        mediaType: sample.media_type,
      };
    } catch (error) {
      throw new NotFound(
        `The media of sample '${sampleId}' cannot be read: ${(error as Error).message}`,
      );
    }
  }

  /**
   * Stores one media file as it arrives: hashed while it is written to a temporary blob, then
   * moved to its content address. Nothing stays behind when the upload fails or is cut off.
   */
  async uploadMedia(
    actor: Actor,
    datasetId: string,
    body: Readable | Buffer,
    contentType: string,
    declaredBytes?: number,
  ): Promise<{ key: string; size: number }> {
    const limitMb = (this.mediaLimitBytes / 1024 / 1024).toLocaleString('en-US');
    const tooLarge = () =>
      new PayloadTooLarge(
        `The media file is larger than the media upload limit of ${limitMb} MB (LOUPE_MEDIA_LIMIT_MB).`,
      );
    await this.requireUploadLicense(actor);
    await this.dataset(datasetId);
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    if (isActiveContent(type))
      throw new UnsupportedMediaType(
        `Media of type ${type} is refused: it can carry scripts. Upload images as JPEG, PNG or WebP and audio as WAV, MP3, FLAC or OGG.`,
      );
    if (declaredBytes !== undefined && declaredBytes > this.mediaLimitBytes) throw tooLarge();
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    const hash = createHash('sha256');
    let size = 0;
    const counted = source.pipe(
      new Transform({
        transform: (chunk: Buffer, _encoding, next) => {
          size += chunk.length;
          if (size > this.mediaLimitBytes) return next(tooLarge());
          hash.update(chunk);
          next(null, chunk);
        },
      }),
    );
    // A cut-off request ends the hashing stream with it, so the write below fails and cleans up.
    source.once('error', (error) => counted.destroy(error));
    source.once('aborted', () => counted.destroy(new BadRequest('The upload was cut off.')));
    const staging = `datasets/${datasetId}/uploads/${randomUUID()}`;
    await this.blobs.putStream(staging, counted, type);
    try {
      if (size === 0) throw new BadRequest('The media body is empty.');
      const sha = hash.digest('hex');
      // Content-addressed: the same bytes land on the same key, so sending them again replaces
      // an identical file (the SDKs ask /media/missing first) and records nothing new. The file
      // is in place before its record, so a recorded key always has its bytes.
      await this.blobs.move(staging, mediaKey(datasetId, sha));
      await this.repos.datasets.recordMedia({
        dataset_id: datasetId,
        key: sha,
        size,
        content_type: type,
        created_at: this.clock(),
      });
      return { key: `${BLOB_PREFIX}${sha}`, size };
    } finally {
      await this.blobs.delete(staging).catch(() => {});
    }
  }

  async missingMedia(datasetId: string, keys: string[]): Promise<string[]> {
    await this.dataset(datasetId);
    const hashes = keys.map((key) =>
      key.startsWith(BLOB_PREFIX) ? key.slice(BLOB_PREFIX.length) : key,
    );
    const known = await this.repos.datasets.existingMedia(datasetId, hashes);
    return keys.filter((_key, i) => !known.has(hashes[i]!));
  }

  private async shape(row: DatasetRow, repos: Repositories = this.repos): Promise<DatasetShape> {
    const fields = await repos.datasets.metadataFields(row.id);
    const classNames = JSON.parse(row.class_names) as string[];
    return {
      task_type: row.task_type as TaskType,
      class_names: classNames,
      closed_classes: row.closed_classes === 1,
      value_names: JSON.parse(row.value_names) as string[],
      metadata_types: new Map(
        fields.filter((f) => f.source === 'uploaded').map((f) => [f.name, f.type]),
      ),
    };
  }

  // ---- samples

  async uploadSamples(
    actor: Actor,
    datasetId: string,
    rows: unknown[],
    declaredTypes: Record<string, MetadataType> = {},
  ): Promise<UploadResult> {
    await this.requireUploadLicense(actor);
    const dataset = await this.dataset(datasetId);
    const shape = await this.shape(dataset);
    const refs = rows
      .flatMap((row) => {
        const r = row as Record<string, unknown> | null;
        return [r?.image, r?.audio, r?.mask];
      })
      .filter((ref): ref is string => typeof ref === 'string' && ref.startsWith(BLOB_PREFIX))
      .map((ref) => ref.slice(BLOB_PREFIX.length));
    const uploaded = await this.repos.datasets.existingMedia(datasetId, [...new Set(refs)]);
    const check = checkSampleBatch(rows, shape, declaredTypes, (ref) =>
      this.media.problem(ref, uploaded),
    );
    if (check.errors.length > 0) throw new BatchRejected(check.errors);

    const now = this.clock();
    const stored = await this.transact(async (repos) => {
      await repos.datasets.lockForUpload(datasetId);
      if (check.newMetadataTypes.size > 0) {
        // A batch sent at the same time may have introduced one of this batch's new metadata
        // fields with another type while this one was being checked: check again, now that
        // uploads to this dataset wait for this one.
        const current = await this.shape(dataset, repos);
        const clash = [...check.newMetadataTypes].some(
          ([name, type]) => (current.metadata_types.get(name) ?? type) !== type,
        );
        if (clash) {
          const again = checkSampleBatch(rows, current, declaredTypes, (ref) =>
            this.media.problem(ref, uploaded),
          );
          if (again.errors.length > 0) throw new BatchRejected(again.errors);
        }
      }
      const existing = new Map(
        (
          await repos.datasets.samplesByIds(
            datasetId,
            check.samples.map((s) => s.input.id),
          )
        ).map((row) => [row.id, row]),
      );
      const fresh = check.samples.filter((s) => !existing.has(s.input.id));
      let seq = fresh.length ? await repos.datasets.reserveSeq(datasetId, fresh.length) : 0;

      let recordId: string | null = null;
      if (fresh.length > 0)
        recordId = await this.recordHistory(
          repos,
          datasetId,
          'sample:create',
          isAudioTask(shape.task_type) ? 'audio' : 'image',
          fresh.length,
          actor,
          now,
        );

      const inserts: SampleRow[] = [];
      const updates: SampleRow[] = [];
      let unchanged = 0;
      const objectSamples: string[] = [];
      const objectRows: ObjectRow[] = [];
      for (const sample of check.samples) {
        const before = existing.get(sample.input.id);
        const content = {
          media_type: sample.media?.type ?? null,
          media: sample.media?.ref ?? null,
          split: sample.input.split ?? null,
          label: sample.input.label ?? null,
          labels: json(sample.input.labels),
          values_json: json(sample.values),
          transcript: sample.input.transcript ?? null,
          mask: sample.input.mask ?? null,
          metadata: json(sample.metadata),
        };
        if (sample.objects) {
          objectSamples.push(sample.input.id);
          for (const object of sample.objects) {
            objectRows.push({
              dataset_id: datasetId,
              id: object.id,
              sample_id: sample.input.id,
              label: object.label,
              x: object.bbox?.[0] ?? null,
              y: object.bbox?.[1] ?? null,
              w: object.bbox?.[2] ?? null,
              h: object.bbox?.[3] ?? null,
              segmentation: json(object.segmentation),
              iscrowd: object.iscrowd ? 1 : 0,
              deleted: 0,
              computed: null,
              created_at: now,
              updated_at: now,
            });
          }
        }
        if (!before) {
          inserts.push({
            dataset_id: datasetId,
            id: sample.input.id,
            seq: seq++,
            ...content,
            computed: null,
            thumbnail: null,
            // Nothing to read or measure without media or objects: such samples are done at once.
            processed: sample.media || sample.objects ? 0 : 1,
            deleted: 0,
            created_record_id: recordId,
            created_at: now,
            updated_at: now,
          });
          continue;
        }
        const same = (Object.keys(content) as (keyof typeof content)[]).every(
          (key) => before[key] === content[key],
        );
        if (same && !sample.objects) {
          unchanged++;
          continue;
        }
        const mediaChanged = before.media !== content.media;
        if (same) unchanged++;
        else
          updates.push({
            ...before,
            ...content,
            ...(mediaChanged ? { thumbnail: null, computed: null } : {}),
            ...(mediaChanged || sample.objects
              ? { processed: content.media || sample.objects ? 0 : 1 }
              : {}),
            deleted: 0,
            updated_at: now,
          });
      }
      await repos.datasets.insertSamples(inserts);
      for (const row of updates) await repos.datasets.updateSample(row);
      let objectDelta = 0;
      if (objectSamples.length > 0) {
        const removed = await repos.datasets.replaceObjects(datasetId, objectSamples, objectRows);
        objectDelta = objectRows.length - removed;
      }
      if (check.newClasses.length > 0) {
        const classes = [
          ...(JSON.parse((await repos.datasets.find(datasetId))!.class_names) as string[]),
          ...check.newClasses,
        ];
        await repos.datasets.update(datasetId, {
          class_names: JSON.stringify([...new Set(classes)]),
        });
      }
      await this.registerUploadedMetadata(repos, datasetId, check.newMetadataTypes, now);
      const changed = inserts.length + updates.length;
      if (changed > 0 || objectDelta !== 0)
        await repos.datasets.addCounts(datasetId, inserts.length, objectDelta, now);
      if (changed > 0 || objectSamples.length > 0 || check.newMetadataTypes.size > 0)
        await repos.datasets.bumpDataVersion(datasetId);
      // One pass reads each new file once for metadata, features and (when on) thumbnails.
      if ([...inserts, ...updates].some((row) => row.processed === 0)) {
        await this.jobs.enqueue(
          'MetadataAndFeaturesComputation',
          { dataset_id: datasetId },
          actor,
          repos.jobs,
        );
      }
      return {
        result: { created: inserts.length, updated: updates.length, unchanged },
        objectsWritten: objectRows.length,
      };
    });
    this.statistics.wrote('samples', stored.result.created);
    this.statistics.wrote('objects', stored.objectsWritten);
    return stored.result;
  }

  private async registerUploadedMetadata(
    repos: Repositories,
    datasetId: string,
    types: Map<string, MetadataType>,
    now: number,
  ): Promise<void> {
    if (types.size === 0) return;
    const dataset = (await repos.datasets.find(datasetId))!;
    const level = DATA_LEVELS[dataset.task_type as TaskType][0]!;
    await repos.datasets.insertMetadataFields(
      [...types].map(([name, type]) => ({
        dataset_id: datasetId,
        data_level: level,
        id: name,
        name,
        label: name,
        description: '',
        group_name: 'Uploaded',
        source: 'uploaded',
        type,
        state: 'available' as const,
        created_at: now,
      })),
    );
  }

  /** Adds to the user's latest record of the same operation when recent, else starts a new one. */
  private async recordHistory(
    repos: Repositories,
    datasetId: string,
    operation: HistoryRecord['operation_type'],
    dataLevel: string,
    items: number,
    actor: Actor,
    now: number,
  ): Promise<string> {
    const latest = await repos.datasets.latestHistory(datasetId, operation, actorUserId(actor));
    if (latest && now - latest.updated_at < HISTORY_MERGE_MS) {
      await repos.datasets.growHistory(latest.id, items, now);
      return latest.id;
    }
    const id = randomUUID();
    await repos.datasets.insertHistory({
      id,
      dataset_id: datasetId,
      operation_type: operation,
      data_level: dataLevel,
      num_items: items,
      user_id: actorUserId(actor),
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  async history(datasetId: string): Promise<HistoryRecord[]> {
    await this.dataset(datasetId);
    const [rows, users] = await Promise.all([
      this.repos.datasets.history(datasetId),
      this.repos.users.list(),
    ]);
    const names = new Map(users.map((user) => [user.id, user.name]));
    return rows.map((row) => ({
      id: row.id,
      timestamp: row.created_at,
      num_items: row.num_items,
      data_level: row.data_level as HistoryRecord['data_level'],
      operation_type: row.operation_type as HistoryRecord['operation_type'],
      user_name: row.user_id ? (names.get(row.user_id) ?? 'Deleted user') : 'Loupe',
    }));
  }

  // ---- features

  async uploadFeatures(
    actor: Actor,
    datasetId: string,
    input: z.output<typeof FeatureUploadRequest>,
  ): Promise<FeatureInfo> {
    await this.requireUploadLicense(actor);
    const dataset = await this.dataset(datasetId);
    const task = dataset.task_type as TaskType;
    if (!DATA_LEVELS[task].includes(input.data_level)) {
      throw new BadRequest(
        `body.data_level: a ${task} dataset has no ${input.data_level} level (it has ${DATA_LEVELS[task].join(', ')}).`,
      );
    }
    let entries: [string, Float32Array][];
    if (input.vectors) {
      entries = Object.entries(input.vectors).map(([id, values]) => [
        id,
        Float32Array.from(values),
      ]);
    } else if (input.ids && input.data !== undefined && input.dimension) {
      const bytes = Buffer.from(input.data, 'base64');
      if (bytes.length !== input.ids.length * input.dimension * 4) {
        throw new BadRequest(
          `body.data: expected ${input.ids.length} × ${input.dimension} float32 values (${input.ids.length * input.dimension * 4} bytes), got ${bytes.length} bytes.`,
        );
      }
      const all = new Float32Array(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      );
      entries = input.ids.map((id, i) => [
        id,
        all.subarray(i * input.dimension!, (i + 1) * input.dimension!),
      ]);
    } else throw new BadRequest('body: give either vectors, or ids with data and dimension.');
    if (entries.length === 0) throw new BadRequest('body: no vectors given.');
    const dimension = entries[0]![1].length;
    const errors = entries.flatMap(([id, vector], row) =>
      vector.length !== dimension
        ? [
            {
              row,
              id,
              field: 'vector',
              message: `expected ${dimension} values like the first vector, got ${vector.length}`,
            },
          ]
        : vector.some((v) => !Number.isFinite(v))
          ? [{ row, id, field: 'vector', message: 'values must be finite numbers' }]
          : [],
    );
    const existing = (await this.repos.datasets.features(datasetId)).find(
      (f) => f.name === input.name && f.data_level === input.data_level,
    );
    if (existing && existing.dimension !== dimension) {
      throw new Conflict(
        `Feature '${input.name}' has dimension ${existing.dimension}; these vectors have ${dimension}.`,
      );
    }
    const ids = entries.map(([id]) => id);
    if (input.data_level !== 'image_object') {
      const known = new Set(
        (await this.repos.datasets.samplesByIds(datasetId, ids)).map((row) => row.id),
      );
      ids.forEach((id, row) => {
        if (!known.has(id))
          errors.push({
            row,
            id,
            field: 'id',
            message: `no sample with id '${id}' in this dataset`,
          });
      });
    }
    if (errors.length > 0) throw new BatchRejected(errors);
    const now = this.clock();
    await this.transact(async (repos) => {
      await repos.datasets.upsertFeature({
        dataset_id: datasetId,
        data_level: input.data_level,
        name: input.name,
        dimension,
        source: 'uploaded',
        created_at: now,
        updated_at: now,
      });
      await repos.datasets.upsertVectors(
        entries.map(([id, vector]) => ({
          dataset_id: datasetId,
          data_level: input.data_level,
          feature_name: input.name,
          item_id: id,
          vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        })),
      );
    });
    return this.featureInfo(dataset, input.name, input.data_level);
  }

  private async featureInfo(
    dataset: DatasetRow,
    name: string,
    level: string,
  ): Promise<FeatureInfo> {
    const feature = (await this.repos.datasets.features(dataset.id)).find(
      (f) => f.name === name && f.data_level === level,
    )!;
    const present = await this.repos.datasets.countVectors(dataset.id, level, name);
    const total = level === 'image_object' ? dataset.objects_count : dataset.samples_count;
    return {
      id: `${level}:${name}`,
      name,
      type: 'float32',
      group: feature.source === 'computed' ? 'Computed' : 'Uploaded',
      data_level: level as FeatureInfo['data_level'],
      num_present: present,
      num_missing: Math.max(0, total - present),
      size: feature.dimension,
      associated_features: [],
    };
  }

  async features(datasetId: string): Promise<FeatureInfo[]> {
    const dataset = await this.dataset(datasetId);
    const features = await this.repos.datasets.features(datasetId);
    return Promise.all(features.map((f) => this.featureInfo(dataset, f.name, f.data_level)));
  }

  // ---- prediction sets

  toPredictionSet(row: PredictionSetRow, dataset: DatasetRow): PredictionSet {
    return {
      id: row.id,
      name: row.name,
      added_at: row.created_at,
      num_present: row.num_present,
      num_missing: Math.max(0, dataset.samples_count - row.num_present),
      dataset: { id: dataset.id, name: dataset.name, task_type: dataset.task_type as TaskType },
    };
  }

  async predictionSets(datasetId?: string): Promise<PredictionSet[]> {
    const datasets = new Map((await this.repos.datasets.list()).map((d) => [d.id, d]));
    if (datasetId && !datasets.has(datasetId))
      throw new NotFound(`No dataset with id ${datasetId}.`);
    const sets = await this.repos.predictions.listSets(datasetId);
    return sets.map((set) => this.toPredictionSet(set, datasets.get(set.dataset_id)!));
  }

  async predictionSet(
    datasetId: string,
    id: string,
  ): Promise<{ set: PredictionSetRow; dataset: DatasetRow }> {
    const dataset = await this.dataset(datasetId);
    const set = await this.repos.predictions.findSet(id);
    if (!set || set.dataset_id !== datasetId)
      throw new NotFound(`No prediction set with id ${id} in dataset ${datasetId}.`);
    return { set, dataset };
  }

  async createPredictionSet(
    actor: Actor,
    datasetId: string,
    name: string,
    existOk: boolean,
  ): Promise<{ set: PredictionSet; created: boolean }> {
    await this.requireUploadLicense(actor);
    const dataset = await this.dataset(datasetId);
    const existing = await this.repos.predictions.findSetByName(datasetId, name);
    if (existing) {
      if (existOk) return { set: this.toPredictionSet(existing, dataset), created: false };
      throw new Conflict(`The dataset already has a prediction set named '${name}'.`);
    }
    const now = this.clock();
    const row: PredictionSetRow = {
      id: randomUUID(),
      dataset_id: datasetId,
      name,
      num_present: 0,
      created_at: now,
      updated_at: now,
    };
    await this.repos.predictions.insertSet(row);
    await this.repos.datasets.update(datasetId, { updated_at: now });
    return { set: this.toPredictionSet(row, dataset), created: true };
  }

  async uploadPredictions(
    actor: Actor,
    datasetId: string,
    setId: string,
    rows: unknown[],
  ): Promise<UploadResult> {
    await this.requireUploadLicense(actor);
    const { dataset } = await this.predictionSet(datasetId, setId);
    const shape = await this.shape(dataset);
    const ids = rows
      .map((row) => (row as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string');
    const known = new Set(
      (await this.repos.datasets.samplesByIds(datasetId, ids))
        .filter((s) => s.deleted === 0)
        .map((s) => s.id),
    );
    const check = checkPredictionBatch(rows, shape, (id) => known.has(id));
    if (check.errors.length > 0) throw new BatchRejected(check.errors);
    const now = this.clock();
    const stored = await this.transact(async (repos) => {
      // Batches sent at once take turns, so each counts the predictions the one before stored.
      await repos.datasets.lockForUpload(datasetId);
      const before = await repos.predictions.existingSampleIds(
        setId,
        check.predictions.map((p) => p.input.id),
      );
      const predictionRows: PredictionRow[] = [];
      const objectRows: PredictedObjectRow[] = [];
      for (const p of check.predictions) {
        predictionRows.push({
          prediction_set_id: setId,
          sample_id: p.input.id,
          label: p.input.label ?? null,
          score: p.input.score ?? null,
          probabilities: json(p.probabilities),
          values_json: json(p.input.values),
          transcript: p.input.transcript ?? null,
          mask: p.input.mask ?? null,
          created_at: now,
        });
        for (const object of p.objects ?? []) {
          objectRows.push({
            prediction_set_id: setId,
            id: object.id,
            sample_id: p.input.id,
            label: object.label,
            score: object.score ?? 0,
            x: object.bbox?.[0] ?? null,
            y: object.bbox?.[1] ?? null,
            w: object.bbox?.[2] ?? null,
            h: object.bbox?.[3] ?? null,
            segmentation: json(object.segmentation),
          });
        }
      }
      await repos.predictions.replacePredictions(setId, predictionRows, objectRows);
      const present = await repos.predictions.countPredictions(setId);
      await repos.predictions.updateSet(setId, { num_present: present, updated_at: now });
      await repos.datasets.update(datasetId, { updated_at: now });
      await repos.datasets.bumpDataVersion(datasetId);
      const created = predictionRows.filter((row) => !before.has(row.sample_id)).length;
      return {
        result: { created, updated: predictionRows.length - created, unchanged: 0 },
        objectsWritten: objectRows.length,
      };
    });
    this.statistics.wrote('predictions', stored.result.created);
    this.statistics.wrote('predicted_objects', stored.objectsWritten);
    return stored.result;
  }

  async uploadAttributions(
    actor: Actor,
    datasetId: string,
    setId: string,
    name: string,
    rows: z.output<typeof AttributionInput>[],
  ): Promise<{ uploaded: number }> {
    await this.requireUploadLicense(actor);
    await this.predictionSet(datasetId, setId);
    const known = new Set(
      (
        await this.repos.datasets.samplesByIds(
          datasetId,
          rows.map((r) => r.id),
        )
      ).map((s) => s.id),
    );
    const errors = rows.flatMap((row, i) =>
      known.has(row.id)
        ? []
        : [
            {
              row: i,
              id: row.id,
              field: 'id',
              message: `no sample with id '${row.id}' in this dataset`,
            },
          ],
    );
    if (errors.length) throw new BatchRejected(errors);
    await this.repos.predictions.upsertAttributions(
      rows.map((row) => ({
        prediction_set_id: setId,
        name,
        sample_id: row.id,
        heatmap: typeof row.heatmap === 'string' ? row.heatmap : JSON.stringify(row.heatmap),
      })),
    );
    return { uploaded: rows.length };
  }
}
