// Samples of a dataset: batches uploaded idempotently by id (whole or not at all, one batch after
// the other per dataset), with their ground-truth objects, new metadata fields and history; and
// a sample's original media, wherever it lives.
import {
  DATA_LEVELS,
  type DatasetShape,
  type MetadataType,
  type UploadResult,
} from '@loupe/contracts';
import { datasetShape } from '../datasets/dataset-shape.js';
import { requireDataset, requireUploadLicense } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import { recordHistory } from '../datasets/history.js';
import type { HistoryRepository } from '../datasets/history.repository.js';
import type { MetadataFieldsRepository } from '../datasets/metadata-fields.repository.js';
import type { PlannerStatistics } from '../db/statistics.js';
import type { Transact } from '../db/transact.js';
import type { JobsRepository } from '../jobs/jobs.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { MediaService } from '../media/media.service.js';
import type { Clock } from '../platform/clock.js';
import { BatchRejected, Conflict, NotFound } from '../platform/errors.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaResolver } from '../storage/media.js';
import { BLOB_PREFIX, mediaKey, mediaKind, urlMediaKey } from '../storage/media.js';
import type { Actor } from '../users/actor.js';
import { checkSampleBatch } from './sample-validation.js';
import type { ObjectRecord, SampleRecord, SamplesRepository } from './samples.repository.js';

/** Where an upload writes, in one transaction. */
export interface SamplesUploadRepos {
  datasets: DatasetsRepository;
  samples: SamplesRepository;
  metadataFields: MetadataFieldsRepository;
  history: HistoryRepository;
  jobs: Pick<JobsRepository, 'enqueue'>;
  predictionSets: Pick<PredictionSetsRepository, 'clearMaskStats'>;
}

export interface SamplesRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  samples: Pick<SamplesRepository, 'byIds'>;
  metadataFields: Pick<MetadataFieldsRepository, 'list'>;
}

/** Equality of two decoded JSON values as their stored text compares: keys in order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every(
      (key, i) =>
        key === keysB[i] &&
        sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

export class SamplesService {
  constructor(
    private readonly repos: SamplesRepos,
    private readonly transact: Transact<SamplesUploadRepos>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly jobs: Pick<JobsService, 'enqueue'>,
    private readonly uploads: Pick<MediaService, 'uploaded'>,
    private readonly resolver: Pick<MediaResolver, 'problem' | 'read'>,
    private readonly blobs: Pick<BlobStore, 'head'>,
    private readonly clock: Clock,
    private readonly statistics: Pick<PlannerStatistics, 'wrote'>,
  ) {}

  async upload(
    actor: Actor,
    datasetId: string,
    rows: unknown[],
    declaredTypes: Record<string, MetadataType> = {},
  ): Promise<UploadResult> {
    await requireUploadLicense(this.license, actor);
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const shape = await datasetShape(this.repos.metadataFields, dataset);
    const uploaded = await this.uploads.uploaded(
      datasetId,
      rows
        .flatMap((row) => {
          const r = row as Record<string, unknown> | null;
          return [r?.image, r?.audio, r?.mask];
        })
        .filter((ref): ref is string => typeof ref === 'string'),
    );
    const check = checkSampleBatch(rows, shape, declaredTypes, (ref) =>
      this.resolver.problem(ref, uploaded),
    );
    if (check.errors.length > 0) throw new BatchRejected(check.errors);

    const now = this.clock();
    const stored = await this.transact(async (repos) => {
      await repos.datasets.lockForUpload(datasetId);
      if (check.newMetadataTypes.size > 0) {
        // A batch sent at the same time may have introduced one of this batch's new metadata
        // fields with another type while this one was being checked: check again, now that
        // uploads to this dataset wait for this one.
        const current = await datasetShape(repos.metadataFields, dataset);
        const clash = [...check.newMetadataTypes].some(
          ([name, type]) => (current.metadata_types.get(name) ?? type) !== type,
        );
        if (clash) {
          const again = checkSampleBatch(rows, current, declaredTypes, (ref) =>
            this.resolver.problem(ref, uploaded),
          );
          if (again.errors.length > 0) throw new BatchRejected(again.errors);
        }
      }
      const existing = new Map(
        (
          await repos.samples.byIds(
            datasetId,
            check.samples.map((s) => s.input.id),
          )
        ).map((sample) => [sample.id, sample]),
      );
      const fresh = check.samples.filter((s) => !existing.has(s.input.id));
      let seq = fresh.length ? await repos.datasets.reserveSeq(datasetId, fresh.length) : 0;

      let recordId: string | null = null;
      if (fresh.length > 0)
        recordId = await recordHistory(repos.history, {
          datasetId,
          operation: 'sample:create',
          dataLevel: DATA_LEVELS[shape.task_type][0]!,
          items: fresh.length,
          actor,
          now,
        });

      const inserts: SampleRecord[] = [];
      const updates: SampleRecord[] = [];
      let unchanged = 0;
      const objectSamples: string[] = [];
      const objectRecords: ObjectRecord[] = [];
      for (const sample of check.samples) {
        const before = existing.get(sample.input.id);
        const content = {
          media_type: sample.media?.type ?? null,
          media: sample.media?.ref ?? null,
          split: sample.input.split ?? null,
          label: sample.input.label ?? null,
          labels: sample.input.labels ?? null,
          values: sample.values,
          transcript: sample.input.transcript ?? null,
          mask: sample.input.mask ?? null,
          metadata: sample.metadata,
        };
        if (sample.objects) {
          objectSamples.push(sample.input.id);
          for (const object of sample.objects) {
            objectRecords.push({
              dataset_id: datasetId,
              id: object.id,
              sample_id: sample.input.id,
              label: object.label,
              x: object.bbox?.[0] ?? null,
              y: object.bbox?.[1] ?? null,
              w: object.bbox?.[2] ?? null,
              h: object.bbox?.[3] ?? null,
              segmentation: object.segmentation ?? null,
              iscrowd: object.iscrowd,
              deleted: false,
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
            processed: !sample.media && !sample.objects,
            deleted: false,
            created_record_id: recordId,
            created_at: now,
            updated_at: now,
          });
          continue;
        }
        const same = (Object.keys(content) as (keyof typeof content)[]).every((key) =>
          sameJson(before[key], content[key]),
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
              ? { processed: !content.media && !sample.objects }
              : {}),
            deleted: false,
            updated_at: now,
          });
      }
      await repos.samples.insert(inserts);
      for (const sample of updates) await repos.samples.update(sample);
      // Predictions compared with a replaced ground-truth mask are compared again.
      const newMasks = updates.filter((s) => s.mask !== existing.get(s.id)!.mask).map((s) => s.id);
      if (newMasks.length > 0)
        for (const setId of await repos.predictionSets.clearMaskStats(datasetId, newMasks))
          await this.jobs.enqueue(
            'MetadataAndFeaturesComputation',
            { dataset_id: datasetId, prediction_set_id: setId },
            actor,
            repos.jobs,
          );
      let objectDelta = 0;
      if (objectSamples.length > 0) {
        const removed = await repos.samples.replaceObjects(datasetId, objectSamples, objectRecords);
        objectDelta = objectRecords.length - removed;
      }
      if (check.newClasses.length > 0) {
        const current = (await repos.datasets.find(datasetId))!;
        await repos.datasets.update(datasetId, {
          class_names: [...new Set([...current.class_names, ...check.newClasses])],
        });
      }
      await this.registerUploadedMetadata(repos, dataset, check.newMetadataTypes, now);
      const changed = inserts.length + updates.length;
      if (changed > 0 || objectDelta !== 0)
        await repos.datasets.addCounts(datasetId, inserts.length, objectDelta, now);
      if (changed > 0 || objectSamples.length > 0 || check.newMetadataTypes.size > 0)
        await repos.datasets.bumpDataVersion(datasetId);
      // One pass reads each new file once for metadata, features and (when on) thumbnails.
      if ([...inserts, ...updates].some((sample) => !sample.processed)) {
        await this.jobs.enqueue(
          'MetadataAndFeaturesComputation',
          { dataset_id: datasetId },
          actor,
          repos.jobs,
        );
      }
      return {
        result: { created: inserts.length, updated: updates.length, unchanged },
        objectsWritten: objectRecords.length,
      };
    });
    this.statistics.wrote('samples', stored.result.created);
    this.statistics.wrote('objects', stored.objectsWritten);
    return stored.result;
  }

  /** New metadata fields of an upload, at the dataset's first data level. */
  private async registerUploadedMetadata(
    repos: Pick<SamplesUploadRepos, 'metadataFields'>,
    dataset: DatasetRecord,
    types: DatasetShape['metadata_types'],
    now: number,
  ): Promise<void> {
    if (types.size === 0) return;
    const level = DATA_LEVELS[dataset.task_type][0]!;
    await repos.metadataFields.insert(
      [...types].map(([name, type]) => ({
        dataset_id: dataset.id,
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

  /**
   * A sample's original media: a blob to stream (uploaded, or fetched from its URL by
   * processing), or bytes read from a media root. A URL is never contacted here.
   */
  async media(
    datasetId: string,
    sampleId: string,
  ): Promise<
    | { blobKey: string; sha: string; contentType?: string }
    | { bytes: Buffer; mediaType: string | null }
  > {
    const [sample] = await this.repos.samples.byIds(datasetId, [sampleId]);
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
        bytes: await this.resolver.read(datasetId, sample.media),
        mediaType: sample.media_type,
      };
    } catch (error) {
      throw new NotFound(
        `The media of sample '${sampleId}' cannot be read: ${(error as Error).message}`,
      );
    }
  }
}
