// Features of a dataset: vectors uploaded per item and data level (as JSON or base64 float32),
// idempotent by item id, and how many items of the level have one. A prediction set may have
// features of its own (a model's vectors of the same items), uploaded and listed the same way;
// one of the sample level is associated with the set's attributions (docs/formats.md).
import {
  DATA_LEVELS,
  type FeatureInfo,
  type FeatureUploadRequest,
  type PredictionFeaturesResponse,
} from '@loupe/contracts';
import type { z } from 'zod';
import type { AttributionsRepository } from '../attributions/attributions.repository.js';
import { attributionLevel } from '../attributions/attributions.service.js';
import { requireDataset, requireUploadLicense } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { Transact } from '../db/transact.js';
import { enqueueChecks } from '../health-checks/enqueue.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, BatchRejected, Conflict } from '../platform/errors.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import { requirePredictionSet } from '../prediction-sets/prediction-sets.service.js';
import type { SamplesRepository } from '../samples/samples.repository.js';
import type { Actor } from '../users/actor.js';
import { DATASET_FEATURES, type FeaturesRepository } from './features.repository.js';

export interface FeaturesRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  features: Pick<FeaturesRepository, 'list' | 'countVectors'>;
  samples: Pick<SamplesRepository, 'existingIds'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  attributions: Pick<AttributionsRepository, 'names'>;
}

export class FeaturesService {
  constructor(
    private readonly repos: FeaturesRepos,
    private readonly transact: Transact<{ features: FeaturesRepository }>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly clock: Clock,
    private readonly jobs?: Pick<JobsService, 'enqueue'>,
  ) {}

  /** The dataset of a prediction set, or a 404 for either unknown. */
  private async requireSet(datasetId: string, setId: string): Promise<DatasetRecord> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    await requirePredictionSet(this.repos.predictionSets, datasetId, setId);
    return dataset;
  }

  async upload(
    actor: Actor,
    datasetId: string,
    input: z.output<typeof FeatureUploadRequest>,
  ): Promise<FeatureInfo> {
    await requireUploadLicense(this.license, actor);
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const stored = await this.store(dataset, DATASET_FEATURES, input);
    if (this.jobs) await enqueueChecks(this.jobs, this.repos.datasets, datasetId, actor);
    return stored;
  }

  /** A prediction set's own feature, checked and stored like a dataset's. */
  async uploadForPredictionSet(
    actor: Actor,
    datasetId: string,
    setId: string,
    input: z.output<typeof FeatureUploadRequest>,
  ): Promise<FeatureInfo> {
    await requireUploadLicense(this.license, actor);
    const dataset = await this.requireSet(datasetId, setId);
    return this.store(dataset, setId, input);
  }

  private async store(
    dataset: DatasetRecord,
    setId: string,
    input: z.output<typeof FeatureUploadRequest>,
  ): Promise<FeatureInfo> {
    const datasetId = dataset.id;
    const task = dataset.task_type;
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
    const existing = (await this.repos.features.list(datasetId, setId)).find(
      (f) => f.name === input.name && f.data_level === input.data_level,
    );
    if (existing && existing.dimension !== dimension) {
      throw new Conflict(
        `Feature '${input.name}' has dimension ${existing.dimension}; these vectors have ${dimension}.`,
      );
    }
    const ids = entries.map(([id]) => id);
    if (input.data_level !== 'image_object') {
      const known = await this.repos.samples.existingIds(datasetId, ids, { live: false });
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
      await repos.features.upsert({
        dataset_id: datasetId,
        prediction_set_id: setId,
        data_level: input.data_level,
        name: input.name,
        dimension,
        source: 'uploaded',
        created_at: now,
        updated_at: now,
      });
      await repos.features.upsertVectors(
        entries.map(([id, vector]) => ({
          dataset_id: datasetId,
          prediction_set_id: setId,
          data_level: input.data_level,
          feature_name: input.name,
          item_id: id,
          vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
        })),
      );
    });
    return this.featureInfo(dataset, setId, input.name, input.data_level);
  }

  private async featureInfo(
    dataset: DatasetRecord,
    setId: string,
    name: string,
    level: string,
    attributions?: string[],
  ): Promise<FeatureInfo> {
    const feature = (await this.repos.features.list(dataset.id, setId)).find(
      (f) => f.name === name && f.data_level === level,
    )!;
    const present = await this.repos.features.countVectors(dataset.id, level, name, setId);
    // A model's feature of the sample level goes with the model's attributions (heatmaps
    // belong to samples); a dataset's feature with none.
    const associated =
      setId === DATASET_FEATURES || level !== attributionLevel(dataset)
        ? []
        : (attributions ?? (await this.repos.attributions.names(setId)));
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
      associated_features: associated,
    };
  }

  async list(datasetId: string): Promise<FeatureInfo[]> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    return this.infos(dataset, DATASET_FEATURES);
  }

  /** A prediction set's own features, and the dataset's. */
  async listForPredictionSet(
    datasetId: string,
    setId: string,
  ): Promise<PredictionFeaturesResponse> {
    const dataset = await this.requireSet(datasetId, setId);
    const [datasetFeatures, predictionsFeatures] = await Promise.all([
      this.infos(dataset, DATASET_FEATURES),
      this.infos(dataset, setId),
    ]);
    return { dataset_features: datasetFeatures, predictions_features: predictionsFeatures };
  }

  private async infos(dataset: DatasetRecord, setId: string): Promise<FeatureInfo[]> {
    const [features, attributions] = await Promise.all([
      this.repos.features.list(dataset.id, setId),
      setId === DATASET_FEATURES ? [] : this.repos.attributions.names(setId),
    ]);
    return Promise.all(
      features.map((f) => this.featureInfo(dataset, setId, f.name, f.data_level, attributions)),
    );
  }
}
