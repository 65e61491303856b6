// Prediction sets (docs/product.md calls them models): created per dataset, their predictions
// uploaded in batches idempotent by sample id, and attribution heatmaps beside them.
import { randomUUID } from 'node:crypto';
import {
  AttributionInput,
  TASK_TRAITS,
  type PredictionSet,
  type UploadResult,
} from '@loupe/contracts';
import type { z } from 'zod';
import { datasetShape } from '../datasets/dataset-shape.js';
import { requireDataset, requireUploadLicense } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { MetadataFieldsRepository } from '../datasets/metadata-fields.repository.js';
import type { PlannerStatistics } from '../db/statistics.js';
import type { Transact } from '../db/transact.js';
import { enqueueChecks } from '../health-checks/enqueue.js';
import type { JobsRepository } from '../jobs/jobs.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { MediaService } from '../media/media.service.js';
import type { Clock } from '../platform/clock.js';
import { BatchRejected, Conflict, NotFound } from '../platform/errors.js';
import { checkPredictionBatch } from '../samples/sample-validation.js';
import type { SamplesRepository } from '../samples/samples.repository.js';
import type { MediaResolver } from '../storage/media.js';
import type { Actor } from '../users/actor.js';
import type {
  PredictedObjectRecord,
  PredictionRecord,
  PredictionSetRecord,
  PredictionSetsRepository,
} from './prediction-sets.repository.js';

export interface PredictionSetsRepos {
  datasets: Pick<DatasetsRepository, 'find' | 'list' | 'update'>;
  predictionSets: PredictionSetsRepository;
  samples: Pick<SamplesRepository, 'existingIds' | 'liveSeqs'>;
  metadataFields: Pick<MetadataFieldsRepository, 'list'>;
}

/** Where an upload of predictions writes, in one transaction. */
export interface PredictionsUploadRepos {
  datasets: Pick<DatasetsRepository, 'lockForUpload' | 'update' | 'bumpDataVersion'>;
  predictionSets: PredictionSetsRepository;
  jobs: Pick<JobsRepository, 'enqueue'>;
}

/** The prediction set with this id in the dataset, or a 404. */
export async function requirePredictionSet(
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>,
  datasetId: string,
  id: string,
): Promise<PredictionSetRecord> {
  const set = await predictionSets.findSet(id);
  if (!set || set.dataset_id !== datasetId)
    throw new NotFound(`No prediction set with id ${id} in dataset ${datasetId}.`);
  return set;
}

export function toPredictionSet(set: PredictionSetRecord, dataset: DatasetRecord): PredictionSet {
  return {
    id: set.id,
    name: set.name,
    added_at: set.created_at,
    num_present: set.num_present,
    num_missing: Math.max(0, dataset.samples_count - set.num_present),
    dataset: { id: dataset.id, name: dataset.name, task_type: dataset.task_type },
  };
}

export class PredictionSetsService {
  constructor(
    private readonly repos: PredictionSetsRepos,
    private readonly transact: Transact<PredictionsUploadRepos>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly uploads: Pick<MediaService, 'uploaded'>,
    private readonly resolver: Pick<MediaResolver, 'problem'>,
    private readonly clock: Clock,
    private readonly statistics: Pick<PlannerStatistics, 'wrote'>,
    private readonly jobs: Pick<JobsService, 'enqueue'>,
  ) {}

  /** The prediction sets of a dataset, or of every dataset. */
  async list(datasetId?: string): Promise<PredictionSet[]> {
    const datasets = new Map((await this.repos.datasets.list()).map((d) => [d.id, d]));
    if (datasetId && !datasets.has(datasetId))
      throw new NotFound(`No dataset with id ${datasetId}.`);
    const sets = await this.repos.predictionSets.listSets(datasetId);
    return sets.map((set) => toPredictionSet(set, datasets.get(set.dataset_id)!));
  }

  /** A prediction set of a dataset, with the dataset; 404 for either unknown. */
  async find(
    datasetId: string,
    id: string,
  ): Promise<{ set: PredictionSetRecord; dataset: DatasetRecord }> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const set = await requirePredictionSet(this.repos.predictionSets, datasetId, id);
    return { set, dataset };
  }

  async create(
    actor: Actor,
    datasetId: string,
    name: string,
    existOk: boolean,
  ): Promise<{ set: PredictionSet; created: boolean }> {
    await requireUploadLicense(this.license, actor);
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const existing = await this.repos.predictionSets.findSetByName(datasetId, name);
    if (existing) {
      if (existOk) return { set: toPredictionSet(existing, dataset), created: false };
      throw new Conflict(`The dataset already has a prediction set named '${name}'.`);
    }
    const now = this.clock();
    const set: PredictionSetRecord = {
      id: randomUUID(),
      dataset_id: datasetId,
      name,
      num_present: 0,
      created_at: now,
      updated_at: now,
      version: 0,
    };
    await this.repos.predictionSets.insertSet(set);
    await this.repos.datasets.update(datasetId, { updated_at: now });
    return { set: toPredictionSet(set, dataset), created: true };
  }

  async uploadPredictions(
    actor: Actor,
    datasetId: string,
    setId: string,
    rows: unknown[],
  ): Promise<UploadResult> {
    await requireUploadLicense(this.license, actor);
    const { dataset } = await this.find(datasetId, setId);
    const shape = await datasetShape(this.repos.metadataFields, dataset);
    const ids = rows
      .map((row) => (row as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string');
    const seqs = await this.repos.samples.liveSeqs(datasetId, ids);
    // A predicted mask names media of this dataset, checked as a sample's mask is.
    const masks = rows
      .map((row) => (row as { mask?: unknown } | null)?.mask)
      .filter((mask): mask is string => typeof mask === 'string');
    const uploaded = await this.uploads.uploaded(datasetId, masks);
    const check = checkPredictionBatch(
      rows,
      shape,
      (id) => seqs.has(id),
      (ref) => this.resolver.problem(ref, uploaded),
    );
    if (check.errors.length > 0) throw new BatchRejected(check.errors);
    const now = this.clock();
    const stored = await this.transact(async (repos) => {
      // Batches sent at once take turns, so each counts the predictions the one before stored.
      await repos.datasets.lockForUpload(datasetId);
      const before = await repos.predictionSets.existingSampleIds(
        setId,
        check.predictions.map((p) => p.input.id),
      );
      const predictions: PredictionRecord[] = [];
      const objects: PredictedObjectRecord[] = [];
      for (const p of check.predictions) {
        predictions.push({
          prediction_set_id: setId,
          sample_id: p.input.id,
          sample_seq: seqs.get(p.input.id)!,
          label: p.input.label ?? null,
          score: p.input.score ?? null,
          probabilities: p.probabilities,
          values: p.input.values ?? null,
          transcript: p.input.transcript ?? null,
          mask: p.input.mask ?? null,
          created_at: now,
        });
        for (const object of p.objects ?? []) {
          objects.push({
            prediction_set_id: setId,
            id: object.id,
            sample_id: p.input.id,
            label: object.label,
            score: object.score ?? 0,
            x: object.bbox?.[0] ?? null,
            y: object.bbox?.[1] ?? null,
            w: object.bbox?.[2] ?? null,
            h: object.bbox?.[3] ?? null,
            segmentation: object.segmentation ?? null,
          });
        }
      }
      await repos.predictionSets.replacePredictions(setId, predictions, objects);
      const present = await repos.predictionSets.countPredictions(setId);
      await repos.predictionSets.wrotePredictions(setId, { num_present: present, updated_at: now });
      await repos.datasets.update(datasetId, { updated_at: now });
      await repos.datasets.bumpDataVersion(datasetId);
      // Predicted masks are compared with their ground truth in the background (mask-stats.service.ts).
      if (TASK_TRAITS[dataset.task_type].label === 'mask' && predictions.some((p) => p.mask))
        await this.jobs.enqueue(
          'MetadataAndFeaturesComputation',
          { dataset_id: datasetId, prediction_set_id: setId },
          actor,
          repos.jobs,
        );
      const created = predictions.filter((p) => !before.has(p.sample_id)).length;
      return {
        result: { created, updated: predictions.length - created, unchanged: 0 },
        objectsWritten: objects.length,
      };
    });
    this.statistics.wrote('predictions', stored.result.created);
    this.statistics.wrote('predicted_objects', stored.objectsWritten);
    await enqueueChecks(this.jobs, this.repos.datasets, datasetId, actor);
    return stored.result;
  }

  /**
   * Attribution heatmaps of a prediction set, checked row by row like samples and predictions:
   * a batch with bad rows is refused whole, naming each row and field.
   */
  async uploadAttributions(
    actor: Actor,
    datasetId: string,
    setId: string,
    name: string,
    rows: unknown[],
  ): Promise<{ uploaded: number }> {
    await requireUploadLicense(this.license, actor);
    await this.find(datasetId, setId);
    const errors: { row: number; id?: string; field: string; message: string }[] = [];
    const attributions: z.output<typeof AttributionInput>[] = [];
    rows.forEach((row, i) => {
      const parsed = AttributionInput.safeParse(row);
      if (parsed.success) attributions.push(parsed.data);
      else {
        const issue = parsed.error.issues[0];
        const id = (row as { id?: unknown } | null)?.id;
        errors.push({
          row: i,
          ...(typeof id === 'string' ? { id } : {}),
          field: issue?.path.map(String).join('.') || 'row',
          message: issue?.message ?? 'invalid value',
        });
      }
    });
    if (errors.length > 0) throw new BatchRejected(errors);
    const known = await this.repos.samples.existingIds(
      datasetId,
      attributions.map((a) => a.id),
      { live: false },
    );
    attributions.forEach((a, i) => {
      if (!known.has(a.id))
        errors.push({
          row: i,
          id: a.id,
          field: 'id',
          message: `no sample with id '${a.id}' in this dataset`,
        });
    });
    if (errors.length) throw new BatchRejected(errors);
    await this.repos.predictionSets.upsertAttributions(
      attributions.map((a) => ({
        prediction_set_id: setId,
        name,
        sample_id: a.id,
        heatmap: a.heatmap,
      })),
    );
    return { uploaded: attributions.length };
  }
}
