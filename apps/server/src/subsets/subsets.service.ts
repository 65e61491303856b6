// Subsets (docs/curation.md): saved sets of items at one data level of a dataset, in the order
// they were added. Reading is open to every signed-in user; every write needs a license, and
// members and admins curate alike. An item deleted later stays a member (a restore brings it
// back) but is neither counted nor listed.
import { randomUUID } from 'node:crypto';
import {
  DATA_LEVELS,
  RESERVED_SUBSET_NAMES,
  SUBSET_MESSAGES,
  type CreateSubsetRequest,
  type DataLevel,
  type Subset,
  type SubsetDetail,
  type UpdateSubsetRequest,
} from '@loupe/contracts';
import type { z } from 'zod';
import { requireDataset } from '../datasets/datasets.service.js';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { Transact } from '../db/transact.js';
import type { ExploreService } from '../explore/explore.service.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { AppError, BadRequest, Conflict, NotFound } from '../platform/errors.js';
import { actorUserId, type Actor } from '../users/actor.js';
import type { SubsetRecord, SubsetsRepository } from './subsets.repository.js';

/** Ids an error message names before it says how many more there are. */
const NAMED_IDS = 5;

export interface SubsetsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  subsets: Pick<SubsetsRepository, 'list' | 'find' | 'findByName' | 'liveCounts' | 'liveItemIds'>;
}

/** Where subset writes go, in one transaction. */
export interface SubsetsWriteRepos {
  subsets: SubsetsRepository;
}

export class SubsetsService {
  constructor(
    private readonly repos: SubsetsRepos,
    private readonly transact: Transact<SubsetsWriteRepos>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly clock: Clock,
    private readonly explore: Pick<ExploreService, 'cachedAllLive'>,
  ) {}

  async list(datasetId: string): Promise<Subset[]> {
    await requireDataset(this.repos.datasets, datasetId);
    const subsets = await this.repos.subsets.list(datasetId);
    const counts = await this.repos.subsets.liveCounts(
      datasetId,
      subsets.map((s) => ({ id: s.id, level: s.data_level })),
    );
    return subsets.map((s) => toSubset(s, counts.get(s.id) ?? 0));
  }

  async get(datasetId: string, subsetId: string): Promise<SubsetDetail> {
    await requireDataset(this.repos.datasets, datasetId);
    const subset = await this.repos.subsets.find(datasetId, subsetId);
    if (!subset) throw new NotFound(SUBSET_MESSAGES.notFound);
    const ids = await this.repos.subsets.liveItemIds(datasetId, {
      id: subset.id,
      level: subset.data_level,
    });
    return { ...toSubset(subset, ids.length), sample_ids: ids };
  }

  async create(
    actor: Actor,
    datasetId: string,
    input: z.output<typeof CreateSubsetRequest>,
  ): Promise<Subset> {
    await this.requireCurator(actor, 'create subsets');
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const name = checkName(input.name);
    const levels = DATA_LEVELS[dataset.task_type];
    if (!levels.includes(input.data_level))
      throw new BadRequest(
        `body.data_level: a ${dataset.task_type} dataset has no ${input.data_level} level (it has ${levels.join(', ')}).`,
      );
    const ids = [...new Set(input.item_ids)];
    const now = this.clock();
    const subset: SubsetRecord = {
      id: randomUUID(),
      dataset_id: datasetId,
      name,
      description: input.description ?? null,
      data_level: input.data_level,
      enabled_for_performance: input.enabled_for_performance,
      num_items: ids.length,
      next_position: ids.length,
      created_by: actorUserId(actor),
      created_at: now,
      updated_at: now,
    };
    const level = input.data_level;
    // The explorer's table cached in this process, when it is current, tells which ids are live
    // in memory: the database then only stores them (an item deleted meanwhile stays a member,
    // as if deleted just after). Otherwise each id is looked up while added.
    const checked =
      (await this.explore.cachedAllLive(datasetId, level, dataset.data_version, ids)) === true;
    await this.nameConflicts(datasetId, { name }, () =>
      this.transact(async ({ subsets }) => {
        if (await subsets.findByName(datasetId, name))
          throw new Conflict(SUBSET_MESSAGES.nameTaken);
        await subsets.insert(subset);
        // Unless checked above, checked while added, in one pass; what was left out is then
        // explained.
        const added = await subsets.fill(subset.id, ids, checked ? null : { datasetId, level });
        if (added === ids.length) return;
        await checkItems(subsets, dataset, level, ids, 'body.item_ids');
        throw new Conflict(
          'Items of this dataset changed while the subset was created: try again.',
        );
      }),
    );
    // Every item was checked live when it was added.
    return toSubset(subset, ids.length);
  }

  /**
   * Adds and removes items and changes name, description and the performance toggle, all in
   * one transaction. Items already in the subset keep their place; removing an item that is not
   * in it does nothing; an id both added and removed ends up removed.
   */
  async update(
    actor: Actor,
    datasetId: string,
    subsetId: string,
    input: z.output<typeof UpdateSubsetRequest>,
  ): Promise<Subset> {
    await this.requireCurator(actor, 'change subsets');
    const dataset = await requireDataset(this.repos.datasets, datasetId);
    const name = input.name === undefined ? undefined : checkName(input.name);
    const added = [...new Set(input.added_item_ids)];
    const removed = [...new Set(input.removed_item_ids)];
    const now = this.clock();
    return this.nameConflicts(datasetId, { name, subsetId }, () =>
      this.transact(async ({ subsets }) => {
        const subset = await subsets.lock(datasetId, subsetId);
        if (!subset) throw new NotFound(SUBSET_MESSAGES.notFound);
        if (
          name !== undefined &&
          name !== subset.name &&
          (await subsets.findByName(datasetId, name))
        )
          throw new Conflict(SUBSET_MESSAGES.nameTaken);
        await checkItems(subsets, dataset, subset.data_level, added, 'body.added_item_ids');
        const inserted = await subsets.addItems(subset.id, added, subset.next_position);
        const deleted = await subsets.removeItems(subset.id, removed);
        const changes = {
          ...(name !== undefined ? { name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.enabled_for_performance !== undefined
            ? { enabled_for_performance: input.enabled_for_performance }
            : {}),
          num_items: subset.num_items + inserted - deleted,
          next_position: subset.next_position + added.length,
          // Strictly increasing, so it versions the subset (the explorer caches its rows by it).
          updated_at: Math.max(now, subset.updated_at + 1),
        };
        await subsets.update(subset.id, changes);
        const level = subset.data_level;
        const counts = await subsets.liveCounts(datasetId, [{ id: subset.id, level }]);
        return toSubset({ ...subset, ...changes }, counts.get(subset.id) ?? 0);
      }),
    );
  }

  /** Deletes the subset and its membership list; the items stay in the dataset. */
  async delete(actor: Actor, datasetId: string, subsetId: string): Promise<void> {
    await this.requireCurator(actor, 'delete subsets');
    await requireDataset(this.repos.datasets, datasetId);
    const deleted = await this.transact(({ subsets }) => subsets.delete(datasetId, subsetId));
    if (!deleted) throw new NotFound(SUBSET_MESSAGES.notFound);
  }

  /** Who may curate: any member or admin (no role differences), on a licensed instance. */
  private requireCurator(actor: Actor, action: string): Promise<void> {
    return this.license.requireLicense(action, { actor });
  }

  /**
   * Runs a write that may take a name: when two writes take the same name at once, the unique
   * index lets one win and the other hears 409, like a write that found the name taken.
   */
  private async nameConflicts<T>(
    datasetId: string,
    taking: { name: string | undefined; subsetId?: string },
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof AppError || taking.name === undefined) throw error;
      const holder = await this.repos.subsets.findByName(datasetId, taking.name);
      if (holder && holder.id !== taking.subsetId) throw new Conflict(SUBSET_MESSAGES.nameTaken);
      throw error;
    }
  }
}

/** A subset on the wire, with its live item count. */
export function toSubset(subset: SubsetRecord, liveItems: number): Subset {
  return {
    id: subset.id,
    name: subset.name,
    description: subset.description,
    dataset_id: subset.dataset_id,
    data_level: subset.data_level,
    num_items: liveItems,
    enabled_for_performance: subset.enabled_for_performance,
    created: subset.created_at,
    updated: subset.updated_at,
  };
}

/** The name (already trimmed by the contract) if a subset may take it. */
function checkName(name: string): string {
  if (name === '') throw new BadRequest(SUBSET_MESSAGES.nameRequired);
  if ((RESERVED_SUBSET_NAMES as readonly string[]).includes(name))
    throw new BadRequest(SUBSET_MESSAGES.nameReserved(name));
  return name;
}

/**
 * Every id must name a live item of the level: a sample (image, audio) or a ground-truth object
 * (image_object; predicted objects are not dataset items). Items of the dataset's other level
 * are a data-level mismatch; other ids are unknown (or deleted).
 */
async function checkItems(
  subsets: Pick<SubsetsRepository, 'notLive'>,
  dataset: DatasetRecord,
  level: DataLevel,
  ids: string[],
  where: string,
): Promise<void> {
  if (ids.length === 0) return;
  const unknown = await subsets.notLive(dataset.id, level, ids);
  if (unknown.length === 0) return;
  const candidates = unknown.slice(0, 1000);
  for (const other of DATA_LEVELS[dataset.task_type]) {
    if (other === level) continue;
    const notThere = new Set(await subsets.notLive(dataset.id, other, candidates));
    const mismatched = candidates.filter((id) => !notThere.has(id));
    if (mismatched.length > 0)
      throw new BadRequest(
        `${SUBSET_MESSAGES.levelMismatch} ${where}: ${nameIds(mismatched)} ${mismatched.length === 1 ? 'is an item' : 'are items'} of the ${other} level, not of the subset's ${level} level.`,
      );
  }
  throw new BadRequest(
    `${where}: ${unknown.length === 1 ? '1 id names' : `${unknown.length} ids name`} no ${level} item of this dataset (unknown or deleted): ${nameIds(unknown)}.`,
  );
}

function nameIds(ids: string[]): string {
  const named = ids
    .slice(0, NAMED_IDS)
    .map((id) => `'${id}'`)
    .join(', ');
  return ids.length > NAMED_IDS ? `${named} and ${ids.length - NAMED_IDS} more` : named;
}
