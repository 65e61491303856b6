// Item actions and restores (docs/curation.md): the writes behind the pending-changes queue —
// relabel, resplit, soft delete, promote predicted objects — applied all or none in one
// transaction, each writing one history record with its items; and the restore of a delete
// record. After label and split edits, this process's cached explorer tables are patched in
// place instead of being rebuilt.
import { randomUUID } from 'node:crypto';
import {
  DATA_LEVELS,
  TASK_TRAITS,
  type ApplyActionsRequest,
  type ApplyActionsResponse,
  type DataLevel,
  type HistoryOperation,
  type RestoreResponse,
} from '@loupe/contracts';
import type { z } from 'zod';
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import { requireDataset } from '../datasets/datasets.service.js';
import { DELETE_OPERATIONS, toHistoryRecord } from '../datasets/history.js';
import type { HistoryEntry, HistoryRepository } from '../datasets/history.repository.js';
import type { Transact } from '../db/transact.js';
import type { ExploreService } from '../explore/explore.service.js';
import type { HealthChecksService } from '../health-checks/health-checks.service.js';
import { PREDICTED_OBJECT_PREFIX } from '../explore/field-catalogue.js';
import type { ItemEdits, SampleGroup } from '../explore/item-table-patch.js';
import type { LicenseService } from '../license/license.service.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, Conflict, NotFound } from '../platform/errors.js';
import type { PredictionSetsRepository } from '../prediction-sets/prediction-sets.repository.js';
import { objectMetadata } from '../processing/media-metadata.js';
import type { ObjectRecord } from '../samples/samples.repository.js';
import { actingUser, actorUserId, type Actor } from '../users/actor.js';
import type { ActionsRepository } from './actions.repository.js';

type Action = z.output<typeof ApplyActionsRequest>['actions'][number];
type ActionOf<T extends Action['type']> = Extract<Action, { type: T }>;

/** Longest split name (as an upload allows). */
const MAX_SPLIT_LENGTH = 100;
/** Longest object id (the objects table's limit). */
const MAX_OBJECT_ID_LENGTH = 1100;

export const ACTION_MESSAGES = {
  noHealthCheck: (id: string) => `No health check with id '${id}'.`,
  splitForObjects: 'Update Split is not available for objects',
  separateRequests: 'sample actions and object actions go in separate requests',
} as const;

/**
 * The id a promoted predicted object takes, like an uploaded object's `<sample>#<own id>`: the
 * same promotion twice names the same object, and the prediction set's id keeps two sets'
 * objects of one id apart.
 */
export function promotedObjectId(sampleId: string, setId: string, predictedId: string): string {
  const own = predictedId.startsWith(`${sampleId}#`)
    ? predictedId.slice(sampleId.length + 1)
    : predictedId;
  return `${sampleId}#pred:${setId}:${own}`;
}

export interface ActionsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<PredictionSetsRepository, 'findSet'>;
  history: Pick<HistoryRepository, 'find'>;
}

/** Where actions and restores write, in one transaction. */
export interface ActionsWriteRepos {
  datasets: Pick<DatasetsRepository, 'lockForUpload' | 'find' | 'addCounts' | 'bumpDataVersion'>;
  history: Pick<
    HistoryRepository,
    'find' | 'insert' | 'insertItems' | 'copyItems' | 'setRestoredBy'
  >;
  actions: ActionsRepository;
}

type Kind = 'sample' | 'object';

/** What one action changed: nothing, or items with the history record to write. */
interface Change {
  operation: HistoryOperation;
  level: DataLevel;
  ids: string[];
}

/** Names a few values and how many more there are. */
function few(values: readonly string[], max = 10): string {
  const shown = values
    .slice(0, max)
    .map((v) => `'${v}'`)
    .join(', ');
  return values.length > max ? `${shown} and ${values.length - max} more` : shown;
}

function unknownItems(where: string, ids: readonly string[]): BadRequest {
  return new BadRequest(
    ids.length === 1
      ? `${where}: unknown item '${ids[0]}'.`
      : `${where}: unknown items ${few(ids)}.`,
  );
}

/** The state of one request while its actions run, in its transaction. */
class Run {
  kind: Kind | null = null;
  samplesDelta = 0;
  objectsDelta = 0;
  /** Only label and split edits so far: cached tables can be patched instead of rebuilt. */
  patchable = true;
  readonly sampleLabels = new Map<string, string>();
  readonly sampleSplits = new Map<string, string>();
  readonly objectLabels = new Map<string, string>();
  /** Upload positions of the edited samples (where their rows are in the explorer's tables). */
  readonly sampleSeqs = new Map<string, number>();
  /** Samples whose computed image.object_count must follow their objects. */
  readonly objectCountSamples = new Set<string>();
  readonly results: ApplyActionsResponse['results'] = [];
  readonly records: HistoryEntry[] = [];

  constructor(
    readonly repos: ActionsWriteRepos,
    readonly dataset: DatasetRecord,
    readonly actor: Actor,
    readonly now: number,
  ) {}

  get sampleLevel(): DataLevel {
    return DATA_LEVELS[this.dataset.task_type][0]!;
  }

  claim(where: string, kind: Kind): void {
    if (this.kind !== null && this.kind !== kind)
      throw new BadRequest(
        `${where}: ${ACTION_MESSAGES.separateRequests} (the actions before it act on ${this.kind}s).`,
      );
    this.kind = kind;
  }

  async record(type: string, change: Change): Promise<void> {
    let recordId: string | null = null;
    if (change.ids.length > 0) {
      recordId = randomUUID();
      const entry: HistoryEntry = {
        id: recordId,
        dataset_id: this.dataset.id,
        operation_type: change.operation,
        data_level: change.level,
        num_items: change.ids.length,
        user_id: actorUserId(this.actor),
        created_at: this.now,
        updated_at: this.now,
        restored_by: null,
      };
      await this.repos.history.insert(entry);
      await this.repos.history.insertItems(recordId, change.ids);
      this.records.push(entry);
    }
    this.results.push({
      type,
      data_level: change.level,
      item_ids: change.ids,
      history_record_id: recordId,
    });
  }
}

/** Groups id → value into value → ids. */
function byValue(values: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [id, value] of values) {
    const ids = out.get(value);
    if (ids) ids.push(id);
    else out.set(value, [id]);
  }
  return out;
}

/** Groups id → value into value → the samples' ids and upload positions. */
function sampleGroups(
  values: ReadonlyMap<string, string>,
  seqs: ReadonlyMap<string, number>,
): Map<string, SampleGroup> {
  const out = new Map<string, { ids: string[]; seqs: number[] }>();
  for (const [id, value] of values) {
    let group = out.get(value);
    if (!group) out.set(value, (group = { ids: [], seqs: [] }));
    group.ids.push(id);
    group.seqs.push(seqs.get(id)!);
  }
  return out;
}

export class ActionsService {
  constructor(
    private readonly repos: ActionsRepos,
    private readonly transact: Transact<ActionsWriteRepos>,
    private readonly license: Pick<LicenseService, 'requireLicense'>,
    private readonly explore: Pick<ExploreService, 'applyItemEdits'>,
    private readonly checks: Pick<HealthChecksService, 'exists' | 'ignore' | 'enqueue'>,
    private readonly clock: Clock,
  ) {}

  async apply(
    actor: Actor,
    request: z.output<typeof ApplyActionsRequest>,
  ): Promise<ApplyActionsResponse> {
    await this.license.requireLicense('apply item actions', { actor });
    const { actions } = request;
    const datasetId = await this.datasetOf(actions);
    await requireDataset(this.repos.datasets, datasetId);
    // An action naming a health check names one of its dataset's (docs/health-checks.md).
    for (const action of actions)
      if (action.check_id !== undefined && !(await this.checks.exists(datasetId, action.check_id)))
        throw new NotFound(ACTION_MESSAGES.noHealthCheck(action.check_id));
    // Ignoring changes no data: applied once the data actions of the request have committed.
    const ignores = actions.filter(
      (a): a is ActionOf<'check_ignore_items'> => a.type === 'check_ignore_items',
    );

    const now = this.clock();
    const run = await this.transact(async (repos) => {
      await repos.datasets.lockForUpload(datasetId);
      const dataset = await requireDataset(repos.datasets, datasetId);
      const run = new Run(repos, dataset, actor, now);
      for (const [i, action] of actions.entries()) {
        const where = `body.actions[${i}]`;
        if (action.type === 'check_ignore_items') {
          run.results.push({
            type: action.type,
            data_level: run.sampleLevel,
            item_ids: action.item_ids,
            history_record_id: null,
          });
          continue;
        }
        const change = await this.run(run, action, where);
        await run.record(action.type, change);
      }
      if (run.records.length > 0) {
        if (run.objectCountSamples.size > 0)
          await repos.actions.refreshObjectCounts(datasetId, [...run.objectCountSamples]);
        await repos.datasets.addCounts(datasetId, run.samplesDelta, run.objectsDelta, now);
        await repos.datasets.bumpDataVersion(datasetId);
      }
      return run;
    });
    if (run.records.length > 0 && run.patchable) {
      const edits: ItemEdits = {
        sampleLabels: sampleGroups(run.sampleLabels, run.sampleSeqs),
        sampleSplits: sampleGroups(run.sampleSplits, run.sampleSeqs),
        objectLabels: byValue(run.objectLabels),
      };
      // The dataset row was locked: the bump took it from exactly this version to the next.
      const from = run.dataset.data_version;
      this.explore.applyItemEdits(datasetId, from, from + 1, edits);
    }
    for (const ignore of ignores) {
      const level = await this.checks.ignore(datasetId, ignore);
      const result = run.results.find(
        (r) => r.type === ignore.type && r.item_ids === ignore.item_ids,
      );
      if (result) result.data_level = level;
    }
    if (run.records.length > 0) await this.checks.enqueue(datasetId, actor);
    const userName = actingUser(actor)?.name ?? 'Loupe';
    return {
      dataset_id: datasetId,
      results: run.results,
      history: run.records.map((entry) => {
        const deletes = DELETE_OPERATIONS.includes(entry.operation_type);
        return toHistoryRecord(entry, userName, { live: !deletes, deleted: deletes });
      }),
    };
  }

  /** The one dataset every action of a request acts on. */
  private async datasetOf(actions: Action[]): Promise<string> {
    let datasetId: string | null = null;
    for (const [i, action] of actions.entries()) {
      let id: string;
      let field: string;
      if (action.type === 'add_predicted_objects_to_ground_truth') {
        const set = await this.repos.predictionSets.findSet(action.predictions_id);
        if (!set) throw new NotFound(`No prediction set with id ${action.predictions_id}.`);
        id = set.dataset_id;
        field = 'predictions_id';
      } else {
        id = action.dataset_id;
        field = 'dataset_id';
      }
      if (datasetId === null) datasetId = id;
      else if (id !== datasetId)
        throw new BadRequest(
          `body.actions[${i}].${field}: every action of a request acts on one dataset (dataset ${datasetId}).`,
        );
    }
    return datasetId!;
  }

  private run(run: Run, action: Action, where: string): Promise<Change> {
    switch (action.type) {
      case 'update_label':
        return this.updateLabel(run, action, where);
      case 'update_split':
        return this.updateSplit(run, action, where);
      case 'delete_items':
        return this.deleteItems(run, action, where);
      case 'add_predicted_objects_to_ground_truth':
        return this.promote(run, action, where);
      case 'check_ignore_items':
        // Applied after the transaction (apply); never run here.
        throw new BadRequest(`${where}: check_ignore_items is applied on its own.`);
    }
  }

  /** Value → ids of an update as id → value, each id under one value only. */
  private updates(updates: Record<string, string[]>, where: string): Map<string, string> {
    const values = new Map<string, string>();
    for (const [value, ids] of Object.entries(updates))
      for (const id of ids) {
        const before = values.get(id);
        if (before !== undefined && before !== value)
          throw new BadRequest(
            `${where}.updates: item '${id}' is given two values ('${before}' and '${value}').`,
          );
        values.set(id, value);
      }
    return values;
  }

  /**
   * Writes an edit, one statement per value that finds, compares and updates the rows in one
   * pass, then tells apart the ids it did not change: live ones already held the value, the
   * others are unknown (refused: the transaction then writes nothing). Answers the changed ids in
   * the order given, with their samples' seq.
   */
  private async edit(
    run: Run,
    values: Map<string, string>,
    table: 'samples' | 'objects',
    column: 'label' | 'split',
    where: string,
    beforeRefusing?: (unknown: string[]) => Promise<void>,
  ): Promise<{ ids: string[]; seqs: number[] }> {
    const { dataset, repos } = run;
    const seqs = new Map<string, number>();
    for (const [value, group] of byValue(values))
      for (const row of await repos.actions.change(
        table,
        dataset.id,
        group,
        column,
        value,
        run.now,
      ))
        seqs.set(row.id, row.seq);
    if (seqs.size < values.size) {
      const rest = [...values.keys()].filter((id) => !seqs.has(id));
      const live =
        table === 'objects'
          ? await repos.actions.liveObjects(dataset.id, rest)
          : await repos.actions.liveSamples(dataset.id, rest);
      const unknown = rest.filter((id) => !live.has(id));
      if (unknown.length > 0) {
        await beforeRefusing?.(unknown);
        throw unknownItems(`${where}.updates.${values.get(unknown[0]!)!}`, unknown);
      }
    }
    const changed = { ids: [] as string[], seqs: [] as number[] };
    for (const id of values.keys()) {
      const seq = seqs.get(id);
      if (seq === undefined) continue;
      changed.ids.push(id);
      changed.seqs.push(seq);
    }
    return changed;
  }

  private async updateLabel(
    run: Run,
    action: ActionOf<'update_label'>,
    where: string,
  ): Promise<Change> {
    const { dataset } = run;
    const traits = TASK_TRAITS[dataset.task_type];
    if (traits.label !== 'class' && !traits.hasObjects)
      throw new BadRequest(
        `${where}.type: Update Label is not available for ${dataset.task_type} datasets.`,
      );
    const objectLevel = traits.hasObjects;
    run.claim(where, objectLevel ? 'object' : 'sample');
    for (const label of Object.keys(action.updates))
      if (!dataset.class_names.includes(label))
        throw new BadRequest(
          `${where}.updates: '${label}' is not a class of this dataset (its classes: ${few(dataset.class_names)}).`,
        );
    const labels = this.updates(action.updates, where);
    if (objectLevel) {
      const predicted = [...labels.keys()].find((id) => id.startsWith(PREDICTED_OBJECT_PREFIX));
      if (predicted)
        throw new BadRequest(
          `${where}.updates.${labels.get(predicted)!}: '${predicted}' is a predicted object; only dataset items can be relabelled.`,
        );
    }
    const changed = await this.edit(
      run,
      labels,
      objectLevel ? 'objects' : 'samples',
      'label',
      where,
    );
    changed.ids.forEach((id, i) => {
      if (objectLevel) run.objectLabels.set(id, labels.get(id)!);
      else {
        run.sampleLabels.set(id, labels.get(id)!);
        run.sampleSeqs.set(id, changed.seqs[i]!);
      }
    });
    return {
      operation: objectLevel ? 'object.label:edit' : 'sample.label:edit',
      level: objectLevel ? 'image_object' : run.sampleLevel,
      ids: changed.ids,
    };
  }

  private async updateSplit(
    run: Run,
    action: ActionOf<'update_split'>,
    where: string,
  ): Promise<Change> {
    const { dataset, repos } = run;
    const splits = this.updates(action.updates, where);
    // Objects take their image's split: naming one is a mistake worth its own message.
    const refuseObject = (id: string, what: string) => {
      throw new BadRequest(
        `${where}.updates.${splits.get(id)!}: ${ACTION_MESSAGES.splitForObjects} ('${id}' is ${what}).`,
      );
    };
    const predicted = [...splits.keys()].find((id) => id.startsWith(PREDICTED_OBJECT_PREFIX));
    if (predicted) refuseObject(predicted, 'a predicted object');
    run.claim(where, 'sample');
    for (const split of new Set(splits.values()))
      if (split.length > MAX_SPLIT_LENGTH)
        throw new BadRequest(
          `${where}.updates: a split name has at most ${MAX_SPLIT_LENGTH} characters ('${split.slice(0, 20)}…' has ${split.length}).`,
        );
    const changed = await this.edit(run, splits, 'samples', 'split', where, async (unknown) => {
      if (!TASK_TRAITS[dataset.task_type].hasObjects) return;
      const objects = await repos.actions.objectIds(dataset.id, unknown);
      const object = unknown.find((id) => objects.has(id));
      if (object) refuseObject(object, 'an object');
    });
    changed.ids.forEach((id, i) => {
      run.sampleSplits.set(id, splits.get(id)!);
      run.sampleSeqs.set(id, changed.seqs[i]!);
    });
    return { operation: 'sample.split:edit', level: run.sampleLevel, ids: changed.ids };
  }

  private async deleteItems(
    run: Run,
    action: ActionOf<'delete_items'>,
    where: string,
  ): Promise<Change> {
    const { dataset, repos } = run;
    const field = `${where}.item_ids`;
    const ids = [...new Set(action.item_ids)];
    const predicted = ids.find((id) => id.startsWith(PREDICTED_OBJECT_PREFIX));
    if (predicted)
      throw new BadRequest(
        `${field}: '${predicted}' is a predicted object; only dataset items can be deleted.`,
      );
    const samples = await repos.actions.liveSamples(dataset.id, ids);
    const rest = ids.filter((id) => !samples.has(id));
    const objects =
      rest.length > 0 && TASK_TRAITS[dataset.task_type].hasObjects
        ? await repos.actions.liveObjects(dataset.id, rest)
        : new Map<string, { sample_id: string }>();
    const unknown = rest.filter((id) => !objects.has(id));
    if (unknown.length > 0) throw unknownItems(field, unknown);
    if (samples.size > 0 && objects.size > 0)
      throw new BadRequest(
        `${field}: ${ACTION_MESSAGES.separateRequests} ('${samples.keys().next().value}' is a sample, '${objects.keys().next().value}' an object).`,
      );
    run.patchable = false;
    if (samples.size > 0) {
      run.claim(where, 'sample');
      // Their objects go with them as far as reads are concerned; they stay as they are.
      if (TASK_TRAITS[dataset.task_type].hasObjects)
        run.objectsDelta -= await repos.actions.countObjectsOf(dataset.id, ids);
      await repos.actions.setDeleted('samples', dataset.id, ids, true, run.now);
      run.samplesDelta -= ids.length;
      return { operation: 'sample:delete', level: run.sampleLevel, ids };
    }
    run.claim(where, 'object');
    await repos.actions.setDeleted('objects', dataset.id, ids, true, run.now);
    run.objectsDelta -= ids.length;
    for (const object of objects.values()) run.objectCountSamples.add(object.sample_id);
    return { operation: 'object:delete', level: 'image_object', ids };
  }

  /**
   * Predicted objects become ground-truth objects with the same label, box and mask, under an id
   * made of their sample, prediction set and own id: promoting one again changes nothing, unless
   * the promoted object was deleted since, which brings it back.
   */
  private async promote(
    run: Run,
    action: ActionOf<'add_predicted_objects_to_ground_truth'>,
    where: string,
  ): Promise<Change> {
    const { dataset, repos } = run;
    const field = `${where}.item_ids`;
    if (!TASK_TRAITS[dataset.task_type].hasObjects)
      throw new BadRequest(
        `${where}.type: Add as ground truth is only available for object detection and instance segmentation datasets.`,
      );
    run.claim(where, 'object');
    const ids = [...new Set(action.item_ids)];
    const plain = ids.find((id) => !id.startsWith(PREDICTED_OBJECT_PREFIX));
    if (plain !== undefined)
      throw new BadRequest(
        `${field}: '${plain}' is not a predicted object (predicted object ids start with '${PREDICTED_OBJECT_PREFIX}').`,
      );
    const setId = action.predictions_id;
    const predictions = await repos.actions.predictedObjects(
      setId,
      ids.map((id) => id.slice(PREDICTED_OBJECT_PREFIX.length)),
    );
    const unknown = ids.filter((id) => !predictions.has(id.slice(PREDICTED_OBJECT_PREFIX.length)));
    if (unknown.length > 0)
      throw new BadRequest(
        `${field}: unknown predicted object${unknown.length > 1 ? 's' : ''} ${few(unknown)} in prediction set ${setId}.`,
      );
    const sizes = await repos.actions.liveSampleSizes(dataset.id, [
      ...new Set([...predictions.values()].map((p) => p.sample_id)),
    ]);
    const promoted: ObjectRecord[] = [];
    for (const p of predictions.values()) {
      const id = promotedObjectId(p.sample_id, setId, p.id);
      const name = `'${PREDICTED_OBJECT_PREFIX}${p.id}'`;
      const size = sizes.get(p.sample_id);
      if (!size)
        throw new BadRequest(`${field}: ${name} is in sample '${p.sample_id}', which is deleted.`);
      if (id.length > MAX_OBJECT_ID_LENGTH)
        throw new BadRequest(
          `${field}: ${name} would make a ground-truth object id longer than ${MAX_OBJECT_ID_LENGTH} characters.`,
        );
      // Predictions are checked against the classes when uploaded, and classes are never
      // removed: this holds unless the database was edited by hand.
      if (!dataset.class_names.includes(p.label))
        throw new BadRequest(
          `${field}: ${name} has label '${p.label}', which is not a class of this dataset.`,
        );
      promoted.push({
        dataset_id: dataset.id,
        id,
        sample_id: p.sample_id,
        label: p.label,
        x: p.x,
        y: p.y,
        w: p.w,
        h: p.h,
        segmentation: p.segmentation,
        iscrowd: false,
        deleted: false,
        // Measured now when the image was; otherwise the metadata pass measures it with the image.
        computed: size.width !== undefined ? objectMetadata(p, size.width, size.height) : null,
        created_at: run.now,
        updated_at: run.now,
      });
    }
    const live = await repos.actions.liveObjects(
      dataset.id,
      promoted.map((o) => o.id),
    );
    const fresh = promoted.filter((o) => !live.has(o.id));
    run.patchable = false;
    await repos.actions.putObjects(fresh);
    run.objectsDelta += fresh.length;
    for (const object of fresh) run.objectCountSamples.add(object.sample_id);
    return { operation: 'object:create', level: 'image_object', ids: fresh.map((o) => o.id) };
  }

  /**
   * Restores what a delete record deleted and is still deleted by it, writing a sample:restore
   * record (at the record's data level: objects too, as the history has no object restore).
   */
  async restore(actor: Actor, datasetId: string, recordId: string): Promise<RestoreResponse> {
    await this.license.requireLicense('restore deleted items', { actor });
    await requireDataset(this.repos.datasets, datasetId);
    const check = (record: HistoryEntry | undefined): HistoryEntry => {
      if (!record || record.dataset_id !== datasetId)
        throw new NotFound(`No history record with id '${recordId}' in this dataset.`);
      if (!DELETE_OPERATIONS.includes(record.operation_type))
        throw new BadRequest(
          `Only a deletion can be restored: this record is a ${record.operation_type}.`,
        );
      if (record.restored_by !== null) throw new Conflict('This deletion was already restored.');
      return record;
    };
    check(await this.repos.history.find(recordId));
    const now = this.clock();
    const restored = await this.transact(async (repos) => {
      await repos.datasets.lockForUpload(datasetId);
      const record = check(await repos.history.find(recordId));
      const ids = await repos.actions.restoreDeletedBy(record, now);
      if (ids.length === 0)
        throw new Conflict(
          'Nothing to restore: the items of this deletion are no longer deleted by it.',
        );
      const dataset = await requireDataset(repos.datasets, datasetId);
      let samples = 0;
      let objects = 0;
      if (record.operation_type === 'object:delete') {
        const live = await repos.actions.liveObjects(datasetId, ids);
        objects = live.size;
        await repos.actions.refreshObjectCounts(datasetId, [
          ...new Set([...live.values()].map((o) => o.sample_id)),
        ]);
      } else {
        samples = ids.length;
        if (TASK_TRAITS[dataset.task_type].hasObjects)
          objects = await repos.actions.countObjectsOf(datasetId, ids);
      }
      const entry: HistoryEntry = {
        id: randomUUID(),
        dataset_id: datasetId,
        operation_type: 'sample:restore',
        data_level: record.data_level,
        num_items: ids.length,
        user_id: actorUserId(actor),
        created_at: now,
        updated_at: now,
        restored_by: null,
      };
      await repos.history.insert(entry);
      // Each item of a record appears once, so as many ids as the record's items are all of them.
      if (ids.length === record.num_items) await repos.history.copyItems(entry.id, record.id);
      else await repos.history.insertItems(entry.id, ids);
      await repos.history.setRestoredBy(record.id, entry.id);
      await repos.datasets.addCounts(datasetId, samples, objects, now);
      await repos.datasets.bumpDataVersion(datasetId);
      return entry;
    });
    return {
      record: toHistoryRecord(restored, actingUser(actor)?.name ?? 'Loupe', {
        live: true,
        deleted: false,
      }),
      restored: restored.num_items,
    };
  }
}
