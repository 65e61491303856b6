// Attributions of a prediction set (docs/product.md, Models §3): the overview with each one's
// presence among live samples and associated features (the set's own features of the sample
// level, docs/formats.md), one sample's heatmap as a PNG, and deleting one by name, which also
// clears the prediction set's embeddings settings (they may name what was deleted).
import {
  attributionId,
  DATA_LEVELS,
  type AttributionOverview,
  type DataLevel,
  type DeleteAttributionResult,
} from '@loupe/contracts';
import { requireDataset } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { Transact } from '../db/transact.js';
import type { EmbeddingsRepository } from '../embeddings/embeddings.repository.js';
import type { FeaturesRepository } from '../features/features.repository.js';
import type { LicenseService } from '../license/license.service.js';
import { BadRequest, NotFound } from '../platform/errors.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import { requirePredictionSet } from '../prediction-sets/prediction-sets.service.js';
import type { MediaResolver } from '../storage/media.js';
import type { Actor } from '../users/actor.js';
import type { AttributionsRepository } from './attributions.repository.js';
import { heatmapPng, imageAsPng } from './heatmap-image.js';

export interface AttributionsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  attributions: Pick<AttributionsRepository, 'presence' | 'exists' | 'heatmap'>;
  features: Pick<FeaturesRepository, 'list'>;
}

/** Where deleting an attribution writes, in one transaction. */
export interface AttributionsDeleteRepos {
  attributions: Pick<AttributionsRepository, 'delete'>;
  embeddings: Pick<EmbeddingsRepository, 'clearSettings'>;
}

/** A heatmap belongs to a sample: its level is the dataset's sample level. */
export const attributionLevel = (dataset: DatasetRecord): DataLevel =>
  DATA_LEVELS[dataset.task_type][0]!;

export class AttributionsService {
  constructor(
    private readonly repos: AttributionsRepos,
    private readonly transact: Transact<AttributionsDeleteRepos>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly resolver: Pick<MediaResolver, 'read'>,
  ) {}

  private async requireSet(datasetId: string, setId: string): Promise<DatasetRecord> {
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    await requirePredictionSet(this.repos.predictionSets, datasetId, setId);
    return dataset;
  }

  async overview(
    datasetId: string,
    setId: string,
    dataLevel?: DataLevel,
  ): Promise<AttributionOverview[]> {
    const dataset = await this.requireSet(datasetId, setId);
    const task = dataset.task_type;
    if (dataLevel && !DATA_LEVELS[task].includes(dataLevel))
      throw new BadRequest(
        `query.data_level: a ${task} dataset has no ${dataLevel} level (it has ${DATA_LEVELS[task].join(', ')}).`,
      );
    const level = attributionLevel(dataset);
    if (dataLevel && dataLevel !== level) return [];
    const [presence, features] = await Promise.all([
      this.repos.attributions.presence(datasetId, setId),
      this.repos.features.list(datasetId, setId),
    ]);
    // The model's own vectors of the samples its heatmaps belong to, e.g. the embeddings the
    // attribution workflows lay out; the dataset's features are not the model's.
    const associated = features.filter((f) => f.data_level === level).map((f) => f.name);
    return presence.map(({ name, present }) => ({
      id: attributionId(level, name),
      name,
      associated_features: associated,
      data_level: level,
      num_present: present,
      num_missing: Math.max(0, dataset.samples_count - present),
    }));
  }

  /** One sample's heatmap as PNG bytes. */
  async heatmap(datasetId: string, setId: string, name: string, sampleId: string): Promise<Buffer> {
    await this.requireSet(datasetId, setId);
    const stored = await this.repos.attributions.heatmap(setId, name, sampleId);
    if (stored === undefined)
      throw new NotFound(`Sample '${sampleId}' has no attribution named '${name}'.`);
    if (typeof stored !== 'string') return heatmapPng(stored);
    try {
      return await imageAsPng(await this.resolver.read(datasetId, stored));
    } catch (error) {
      throw new NotFound(
        `The heatmap '${name}' of sample '${sampleId}' cannot be read: ${(error as Error).message}`,
      );
    }
  }

  async delete(
    actor: Actor,
    datasetId: string,
    setId: string,
    name: string,
  ): Promise<DeleteAttributionResult> {
    await this.license.requireLicense('delete attributions', { actor });
    await this.requireSet(datasetId, setId);
    if (!(await this.repos.attributions.exists(setId, name)))
      throw new NotFound(`The prediction set has no attribution named '${name}'.`);
    const deleted = await this.transact(async (repos) => {
      const count = await repos.attributions.delete(setId, name);
      await repos.embeddings.clearSettings(datasetId, setId);
      return count;
    });
    return { deleted };
  }
}
