// Datasets themselves: create, list, read and delete them, their version history, and their
// settings (thumbnails on or off, the IoU threshold). What goes into a dataset — samples, media,
// features, prediction sets — has its own folder, each of which finds its dataset here.
import { randomUUID } from 'node:crypto';
import type { CreateDatasetRequest } from '@loupe/contracts';
import { TASK_TRAITS, type Dataset, type HistoryRecord } from '@loupe/contracts';
import type { z } from 'zod';
import type { HealthChecksRepository } from '../health-checks/health-checks.repository.js';
import type { Transact } from '../db/transact.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { TableSnapshots } from '../explore/table-snapshots.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, Conflict, NotFound } from '../platform/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { thumbnailUrl } from '../storage/thumbnail-refs.js';
import { actorUserId, type Actor } from '../users/actor.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { DatasetRecord, DatasetsRepository } from './datasets.repository.js';
import type { HistoryRepository } from './history.repository.js';
import { toHistoryRecord } from './history.js';

export const UPLOAD_LICENSE_MESSAGE = 'Please set up your license key in Settings to add datasets.';
export const DEFAULT_IOU_THRESHOLD = 0.5;

type LicenseGate = Pick<LicenseService, 'requireLicense'>;

/** The license check of everything that adds to a dataset, with the product's message. */
export function requireUploadLicense(license: LicenseGate, actor: Actor): Promise<void> {
  return license.requireLicense('add datasets', { actor, message: UPLOAD_LICENSE_MESSAGE });
}

/** The dataset with this id, or a 404. */
export async function requireDataset(
  datasets: Pick<DatasetsRepository, 'find'>,
  id: string,
): Promise<DatasetRecord> {
  const dataset = await datasets.find(id);
  if (!dataset) throw new NotFound(`No dataset with id ${id}.`);
  return dataset;
}

export interface DatasetsRepos {
  datasets: DatasetsRepository;
  history: Pick<HistoryRepository, 'list' | 'itemStates'>;
  users: Pick<UsersRepository, 'list'>;
  /** The overview's issues_count: failed health checks, from their stored statuses. */
  healthChecks?: Pick<HealthChecksRepository, 'failedCounts'>;
}

export class DatasetsService {
  constructor(
    private readonly repos: DatasetsRepos,
    private readonly transact: Transact<{ datasets: DatasetsRepository }>,
    private readonly license: LicenseGate,
    private readonly jobs: Pick<JobsService, 'enqueue'>,
    private readonly blobs: Pick<BlobStore, 'deletePrefix'>,
    private readonly clock: Clock,
    private readonly tableSnapshots?: Pick<TableSnapshots, 'forget'>,
  ) {}

  async dataset(id: string): Promise<DatasetRecord> {
    return requireDataset(this.repos.datasets, id);
  }

  async toDataset(
    dataset: DatasetRecord,
    predictionsCount?: number,
    issuesCount?: number,
  ): Promise<Dataset> {
    const { datasets } = this.repos;
    const task = dataset.task_type;
    const traits = TASK_TRAITS[task];
    const audio = traits.media === 'audio';
    const [splits, previews, durations, predictions, issues] = await Promise.all([
      datasets.splits(dataset.id),
      datasets.previewSamples(dataset.id, 5),
      audio ? datasets.durationBounds(dataset.id) : Promise.resolve(null),
      predictionsCount ?? datasets.predictionSetCount(dataset.id),
      issuesCount ?? this.issuesCounts(dataset.id).then((counts) => counts.get(dataset.id) ?? 0),
    ]);
    return {
      id: dataset.id,
      name: dataset.name,
      description: dataset.description,
      task_type: task,
      issues_count: issues,
      samples_count: dataset.samples_count,
      views: [{ id: 'default', name: audio ? 'Audio' : 'Image' }],
      ...(traits.label === 'value' ? { regression_value_names: dataset.value_names } : {}),
      class_names: dataset.class_names,
      ...(dataset.label_map ? { label_map: dataset.label_map } : {}),
      classes_count: dataset.class_names.length,
      objects_count: dataset.objects_count,
      predictions_count: predictions,
      updated_ts: Math.floor(dataset.updated_at / 1000),
      preview_urls: previews.flatMap((p) => thumbnailUrl(dataset.id, p) ?? []),
      splits,
      ...(durations && durations.min !== null && durations.max !== null
        ? {
            min_duration: durations.min,
            max_duration: durations.max,
            default_duration: Math.min(durations.max, 11.48),
          }
        : {}),
      iou_threshold: dataset.iou_threshold,
      thumbnails_enabled: dataset.thumbnails_enabled,
    };
  }

  async list(): Promise<Dataset[]> {
    const [datasets, counts, issues] = await Promise.all([
      this.repos.datasets.list(),
      this.repos.datasets.predictionSetCounts(),
      this.issuesCounts(),
    ]);
    return Promise.all(
      datasets.map((d) => this.toDataset(d, counts.get(d.id) ?? 0, issues.get(d.id) ?? 0)),
    );
  }

  /** Failed health checks per dataset (of one dataset when given). */
  private issuesCounts(datasetId?: string): Promise<Map<string, number>> {
    return this.repos.healthChecks?.failedCounts(datasetId) ?? Promise.resolve(new Map());
  }

  async get(id: string): Promise<Dataset> {
    return this.toDataset(await this.dataset(id));
  }

  async create(
    actor: Actor,
    input: z.output<typeof CreateDatasetRequest>,
  ): Promise<{ dataset: Dataset; created: boolean }> {
    await requireUploadLicense(this.license, actor);
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
    if (TASK_TRAITS[input.task_type].label === 'value' && !input.value_names?.length) {
      throw new BadRequest('body.value_names: a regression dataset needs at least one value name.');
    }
    if (input.class_names && new Set(input.class_names).size !== input.class_names.length) {
      throw new BadRequest('body.class_names: class names must be unique.');
    }
    const classNames =
      input.class_names ?? (input.label_map ? [...new Set(Object.values(input.label_map))] : []);
    const now = this.clock();
    const dataset: DatasetRecord = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
      task_type: input.task_type,
      class_names: classNames,
      value_names: input.value_names ?? [],
      label_map: input.label_map ?? null,
      // Classes named at creation are a closed list; otherwise they are learned from uploads.
      closed_classes: classNames.length > 0,
      iou_threshold: DEFAULT_IOU_THRESHOLD,
      thumbnails_enabled: true,
      samples_count: 0,
      objects_count: 0,
      next_seq: 0,
      data_version: 0,
      created_by: actorUserId(actor),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.repos.datasets.insert(dataset);
    } catch (error) {
      // Two creates of the same name at once: the unique index lets one win.
      if (await this.repos.datasets.findByName(input.name))
        throw new Conflict(`A dataset named '${input.name}' already exists.`);
      throw error;
    }
    return { dataset: await this.toDataset(dataset, 0), created: true };
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.license.requireLicense('delete datasets', { actor });
    await this.dataset(id);
    await this.repos.datasets.delete(id);
    await this.blobs.deletePrefix(`datasets/${id}`);
    await this.tableSnapshots?.forget(id);
  }

  async history(datasetId: string): Promise<HistoryRecord[]> {
    await this.dataset(datasetId);
    const [entries, users, states] = await Promise.all([
      this.repos.history.list(datasetId),
      this.repos.users.list(),
      this.repos.history.itemStates(datasetId),
    ]);
    const names = new Map(users.map((user) => [user.id, user.name]));
    return entries.map((entry) =>
      toHistoryRecord(
        entry,
        entry.user_id ? (names.get(entry.user_id) ?? 'Deleted user') : 'Loupe',
        states.get(entry.id) ?? { live: true, deleted: false },
      ),
    );
  }

  // ---- settings

  async thumbnails(id: string): Promise<{ enabled: boolean }> {
    return { enabled: (await this.dataset(id)).thumbnails_enabled };
  }

  async setThumbnailsEnabled(
    actor: Actor,
    id: string,
    enabled: boolean,
  ): Promise<{ enabled: boolean }> {
    await this.dataset(id);
    await this.repos.datasets.update(id, { thumbnails_enabled: enabled });
    if (enabled) await this.jobs.enqueue('ThumbnailGeneration', { dataset_id: id }, actor);
    else {
      // Disabling deletes every thumbnail (the web app confirms first).
      await this.repos.datasets.clearThumbnails(id);
      await this.blobs.deletePrefix(`datasets/${id}/thumbnails`);
    }
    return { enabled };
  }

  async iouThreshold(id: string): Promise<{ iou_threshold: number }> {
    return { iou_threshold: (await this.dataset(id)).iou_threshold };
  }

  async setIouThreshold(id: string, threshold: number): Promise<{ iou_threshold: number }> {
    const dataset = await this.dataset(id);
    if (!TASK_TRAITS[dataset.task_type].hasObjects) {
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
}
