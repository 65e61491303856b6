// The pending-changes queue as data (docs/curation.md): what each queued change says, how a new
// change joins the queue (same action merges, a later label or split wins, deleting a sample
// drops what was queued for its objects), and the requests that apply a queue, in order.
import type {
  ApplyActionsRequest,
  CreateSubsetRequest,
  DataLevel,
  ItemAction,
  UpdateSubsetRequest,
} from '@loupe/contracts';
import { curationStrings as strings } from './strings';

/** A subset that exists, or one the queue will create when it is applied. */
export type SubsetRef = { id: string; name: string } | { newName: string };

/** A change a health check's action card queued carries the check's id to the server. */
interface FromCheck {
  checkId?: string;
}

interface Items {
  id: string;
  itemIds: string[];
  /** Object-level items: the sample each object belongs to (deleting a sample drops them). */
  sampleOf?: Record<string, string>;
}

export type PendingChange =
  | (Items & { kind: 'add_to_subset'; subset: SubsetRef; dataLevel: DataLevel })
  | (Items & {
      kind: 'remove_from_subset';
      subset: { id: string; name: string };
      dataLevel: DataLevel;
    })
  | (Items & {
      kind: 'move_to_subset';
      from: { id: string; name: string };
      to: SubsetRef;
      dataLevel: DataLevel;
    })
  | (Items & FromCheck & { kind: 'update_label'; label: string; dataLevel: DataLevel })
  /** Samples only: a split is a sample's. `isNew` when the queue creates it. */
  | (Items & FromCheck & { kind: 'update_split'; split: string; isNew: boolean })
  /** Dataset items only (samples or ground-truth objects). */
  | (Items & FromCheck & { kind: 'delete'; dataLevel: DataLevel })
  /** Predicted objects of a prediction set, added to the ground truth. */
  | (Items & FromCheck & { kind: 'promote'; predictionsId: string });

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A change as an action makes it, before the queue gives it an id. */
export type PendingChangeInput = DistributiveOmit<PendingChange, 'id'>;
/** The action of a change without its items: what 'Apply last action' (x) replays. */
export type PendingAction = DistributiveOmit<PendingChange, 'id' | 'itemIds' | 'sampleOf'>;
export type ChangeKind = PendingChange['kind'];

const refName = (ref: SubsetRef) => ('newName' in ref ? ref.newName : ref.name);
const refKey = (ref: SubsetRef) => ('newName' in ref ? `new:${ref.newName}` : `id:${ref.id}`);

/** The level a change acts at: update_split acts on samples, promote on predicted objects. */
export function levelOf(change: PendingAction): DataLevel | 'sample' | 'object' {
  if (change.kind === 'update_split') return 'sample';
  if (change.kind === 'promote') return 'object';
  return change.dataLevel;
}

const isObjectLevel = (change: PendingAction) => {
  const level = levelOf(change);
  return level === 'image_object' || level === 'object';
};

/**
 * What a change will do, in the product's voice ('will be added to subset "{name}"'); with a
 * count, as a sentence about that many items.
 */
export function describeChange(change: PendingAction, count?: number): string {
  let text: string;
  switch (change.kind) {
    case 'add_to_subset':
      text = strings.willAdd(refName(change.subset));
      break;
    case 'remove_from_subset':
      text = strings.willRemove(change.subset.name);
      break;
    case 'move_to_subset':
      text = strings.willMove(refName(change.to));
      break;
    case 'update_label':
      text = strings.willLabel(change.label);
      break;
    case 'update_split':
      text = strings.willSplit(change.split);
      break;
    case 'delete':
      text = strings.willDelete;
      break;
    case 'promote':
      text = strings.willPromote;
      break;
  }
  return count === undefined ? text : `${strings.items(count)} ${text}`;
}

/** Two changes do the same thing (to possibly different items): they merge in the queue. */
export function sameAction(a: PendingAction, b: PendingAction): boolean {
  if (a.kind !== b.kind || checkOf(a) !== checkOf(b)) return false;
  switch (a.kind) {
    case 'add_to_subset': {
      const other = b as typeof a;
      return a.dataLevel === other.dataLevel && refKey(a.subset) === refKey(other.subset);
    }
    case 'remove_from_subset': {
      const other = b as typeof a;
      return a.dataLevel === other.dataLevel && a.subset.id === other.subset.id;
    }
    case 'move_to_subset': {
      const other = b as typeof a;
      return (
        a.dataLevel === other.dataLevel &&
        a.from.id === other.from.id &&
        refKey(a.to) === refKey(other.to)
      );
    }
    case 'update_label': {
      const other = b as typeof a;
      return a.dataLevel === other.dataLevel && a.label === other.label;
    }
    case 'update_split':
      return a.split === (b as typeof a).split;
    case 'delete':
      return a.dataLevel === (b as typeof a).dataLevel;
    case 'promote':
      return a.predictionsId === (b as typeof a).predictionsId;
  }
}

const checkOf = (change: PendingAction) => ('checkId' in change ? change.checkId : undefined);

/** The action of a change, without its items and id. */
export function actionOf(change: PendingChange | PendingChangeInput): PendingAction {
  const { itemIds: _items, sampleOf: _samples, ...rest } = change as PendingChange;
  const { id: _id, ...action } = rest as PendingAction & { id?: string };
  return action;
}

/** Keeps the items `keep` accepts; a change left without items leaves the queue. */
function filterItems(
  queue: PendingChange[],
  keep: (change: PendingChange, itemId: string) => boolean,
): PendingChange[] {
  const out: PendingChange[] = [];
  for (const change of queue) {
    const itemIds = change.itemIds.filter((itemId) => keep(change, itemId));
    if (itemIds.length === change.itemIds.length) out.push(change);
    else if (itemIds.length > 0) out.push(withItems(change, itemIds, change.sampleOf));
  }
  return out;
}

function withItems(
  change: PendingChange,
  itemIds: string[],
  sampleOf: Record<string, string> | undefined,
): PendingChange {
  const next = { ...change, itemIds };
  if (sampleOf) {
    next.sampleOf = Object.fromEntries(
      itemIds.filter((id) => sampleOf[id] !== undefined).map((id) => [id, sampleOf[id]!]),
    );
  } else delete next.sampleOf;
  return next;
}

/** Only one label (or split) per item can be pending: the later change wins. */
const overrides = (earlier: PendingChange, later: PendingChangeInput) =>
  (later.kind === 'update_label' &&
    earlier.kind === 'update_label' &&
    earlier.dataLevel === later.dataLevel) ||
  (later.kind === 'update_split' && earlier.kind === 'update_split');

/**
 * The queue after `input` joins it: it merges into a queued change with the same action (its
 * items added once), takes its items out of earlier label or split changes it overrides, and a
 * sample deletion drops the deleted samples' pending label and split changes and every pending
 * change of their objects (those objects go with the sample).
 */
export function addChange(
  queue: PendingChange[],
  input: PendingChangeInput,
  newId: () => string,
): PendingChange[] {
  const itemIds = [...new Set(input.itemIds)];
  if (itemIds.length === 0) return queue;
  const incoming = new Set(itemIds);
  let next = filterItems(
    queue,
    (change, itemId) =>
      !(incoming.has(itemId) && overrides(change, input) && !sameAction(change, input)),
  );

  if (input.kind === 'delete' && !isObjectLevel(input)) {
    next = filterItems(next, (change, itemId) => {
      if (isObjectLevel(change)) return !incoming.has(change.sampleOf?.[itemId] ?? '');
      const edit = change.kind === 'update_label' || change.kind === 'update_split';
      return !(edit && incoming.has(itemId));
    });
  }

  const index = next.findIndex((change) => sameAction(change, input));
  if (index < 0) {
    const sampleOf = input.sampleOf
      ? Object.fromEntries(itemIds.map((id) => [id, input.sampleOf![id]!]))
      : undefined;
    return [
      ...next,
      { ...input, itemIds, ...(sampleOf ? { sampleOf } : {}), id: newId() } as PendingChange,
    ];
  }
  const existing = next[index]!;
  const merged = [...existing.itemIds, ...itemIds.filter((id) => !existing.itemIds.includes(id))];
  const sampleOf =
    existing.sampleOf || input.sampleOf ? { ...existing.sampleOf, ...input.sampleOf } : undefined;
  return next.map((change, i) => (i === index ? withItems(change, merged, sampleOf) : change));
}

/**
 * The queue without the given items' pending changes; `samples` also drops changes of objects
 * of those samples (discarding a sample's changes in the viewer).
 */
export function discardItems(
  queue: PendingChange[],
  itemIds: readonly string[],
  { samples = false }: { samples?: boolean } = {},
): PendingChange[] {
  const ids = new Set(itemIds);
  return filterItems(
    queue,
    (change, itemId) =>
      !ids.has(itemId) && !(samples && ids.has(change.sampleOf?.[itemId] ?? '\u0000')),
  );
}

/** After a queued subset was created, a change (or an action) names it by id. */
export function resolveNewSubsetIn<T extends PendingAction>(
  change: T,
  newName: string,
  subset: { id: string; name: string },
): T {
  const resolve = (ref: SubsetRef): SubsetRef =>
    'newName' in ref && ref.newName === newName ? subset : ref;
  if (change.kind === 'add_to_subset') return { ...change, subset: resolve(change.subset) };
  if (change.kind === 'move_to_subset') return { ...change, to: resolve(change.to) };
  return change;
}

/** After a queued subset was created: the queue names it by id from now on. */
export function resolveNewSubset(
  queue: PendingChange[],
  newName: string,
  subset: { id: string; name: string },
): PendingChange[] {
  return queue.map((change) => resolveNewSubsetIn(change, newName, subset));
}

// ---- requests

/** One request of an apply, with the queued changes it carries (fully or in part). */
export type CurationStep =
  | {
      kind: 'create_subset';
      newName: string;
      body: CreateSubsetRequest;
      changeIds: string[];
    }
  | {
      kind: 'update_subset';
      subset: { id: string; name: string };
      body: { added_item_ids: string[]; removed_item_ids: string[] } & UpdateSubsetRequest;
      changeIds: string[];
    }
  | {
      kind: 'apply_actions';
      level: 'samples' | 'objects';
      body: { actions: ItemAction[] } & ApplyActionsRequest;
      changeIds: string[];
    };
export type CurationRequests = CurationStep[];

type Membership = Map<string, { added: boolean; changeIds: Set<string> }>;

/**
 * The requests that apply a queue, in the order they must run: the subsets the queue creates
 * (with the items added to them), then the changes to existing subsets (a move is an add there
 * and a remove here; for an item both added and removed, the later change wins), then one
 * request with the sample actions, then one with the object actions.
 */
export function toRequests(changes: PendingChange[], datasetId: string): CurationRequests {
  const creates = new Map<string, { level: DataLevel; items: Membership }>();
  const updates = new Map<string, { name: string; items: Membership }>();
  const mark = (items: Membership, itemIds: string[], added: boolean, changeId: string) => {
    for (const itemId of itemIds) {
      const entry = items.get(itemId) ?? { added, changeIds: new Set<string>() };
      entry.added = added;
      entry.changeIds.add(changeId);
      items.set(itemId, entry);
    }
  };
  const target = (ref: SubsetRef, level: DataLevel): Membership => {
    if ('newName' in ref) {
      const create = creates.get(ref.newName) ?? { level, items: new Map() };
      creates.set(ref.newName, create);
      return create.items;
    }
    const update = updates.get(ref.id) ?? { name: ref.name, items: new Map() };
    updates.set(ref.id, update);
    return update.items;
  };

  // One set of actions per health check (and one without): an action carries one check_id.
  const samples = new Map<string, Actions>();
  const objects = new Map<string, Actions>();
  for (const change of changes) {
    switch (change.kind) {
      case 'add_to_subset':
        mark(target(change.subset, change.dataLevel), change.itemIds, true, change.id);
        break;
      case 'remove_from_subset':
        mark(target(change.subset, change.dataLevel), change.itemIds, false, change.id);
        break;
      case 'move_to_subset':
        mark(target(change.to, change.dataLevel), change.itemIds, true, change.id);
        mark(target(change.from, change.dataLevel), change.itemIds, false, change.id);
        break;
      default: {
        const byCheck = isObjectLevel(change) ? objects : samples;
        const actions = byCheck.get(change.checkId ?? '') ?? emptyActions();
        byCheck.set(change.checkId ?? '', actions);
        actions.changeIds.push(change.id);
        if (change.kind === 'update_label') assign(actions.labels, change.itemIds, change.label);
        else if (change.kind === 'update_split')
          assign(actions.splits, change.itemIds, change.split);
        else if (change.kind === 'delete') change.itemIds.forEach((id) => actions.deletes.add(id));
        else {
          const promoted = actions.promotes.get(change.predictionsId) ?? new Set<string>();
          change.itemIds.forEach((id) => promoted.add(id));
          actions.promotes.set(change.predictionsId, promoted);
        }
      }
    }
  }

  const steps: CurationStep[] = [];
  for (const [newName, { level, items }] of creates) {
    const added = [...items].filter(([, entry]) => entry.added);
    steps.push({
      kind: 'create_subset',
      newName,
      body: { name: newName, data_level: level, item_ids: added.map(([id]) => id) },
      changeIds: changeIdsOf(items),
    });
  }
  for (const [subsetId, { name, items }] of updates) {
    const entries = [...items];
    steps.push({
      kind: 'update_subset',
      subset: { id: subsetId, name },
      body: {
        added_item_ids: entries.filter(([, entry]) => entry.added).map(([id]) => id),
        removed_item_ids: entries.filter(([, entry]) => !entry.added).map(([id]) => id),
      },
      changeIds: changeIdsOf(items),
    });
  }
  for (const [level, actions] of [
    ['samples', samples],
    ['objects', objects],
  ] as const) {
    const list = [...actions].flatMap(([checkId, each]) =>
      itemActions(each, datasetId, checkId || undefined),
    );
    if (list.length > 0) {
      steps.push({
        kind: 'apply_actions',
        level,
        body: { actions: list },
        changeIds: [...actions.values()].flatMap((each) => each.changeIds),
      });
    }
  }
  return steps;
}

interface Actions {
  labels: Map<string, string>;
  splits: Map<string, string>;
  deletes: Set<string>;
  promotes: Map<string, Set<string>>;
  changeIds: string[];
}

const emptyActions = (): Actions => ({
  labels: new Map(),
  splits: new Map(),
  deletes: new Set(),
  promotes: new Map(),
  changeIds: [],
});

/** Later assignments win: the queue keeps one label per item, but be safe. */
function assign(map: Map<string, string>, itemIds: string[], value: string) {
  for (const id of itemIds) map.set(id, value);
}

function byValue(map: Map<string, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [id, value] of map) (out[value] ??= []).push(id);
  return out;
}

function changeIdsOf(items: Membership): string[] {
  const ids = new Set<string>();
  for (const entry of items.values()) entry.changeIds.forEach((id) => ids.add(id));
  return [...ids];
}

/** Edits first, then promotions, then deletions: a request is one transaction either way. */
function itemActions(actions: Actions, datasetId: string, checkId?: string): ItemAction[] {
  const list: ItemAction[] = [];
  const check = checkId ? { check_id: checkId } : {};
  if (actions.labels.size > 0)
    list.push({
      type: 'update_label',
      dataset_id: datasetId,
      updates: byValue(actions.labels),
      ...check,
    });
  if (actions.splits.size > 0)
    list.push({
      type: 'update_split',
      dataset_id: datasetId,
      updates: byValue(actions.splits),
      ...check,
    });
  for (const [predictionsId, ids] of actions.promotes) {
    list.push({
      type: 'add_predicted_objects_to_ground_truth',
      predictions_id: predictionsId,
      item_ids: [...ids],
      ...check,
    });
  }
  if (actions.deletes.size > 0)
    list.push({
      type: 'delete_items',
      dataset_id: datasetId,
      item_ids: [...actions.deletes],
      ...check,
    });
  return list;
}

/**
 * What failed when a request of an apply was refused, in the product's words where it has them
 * ('Failed to delete {n} items', 'Failed adding {n} items to {subset}', …); null when the
 * request mixed several actions (the server's reason names the one it refused).
 */
export function failureMessage(step: CurationStep): string | null {
  if (step.kind === 'create_subset') return strings.createSubsetFailed;
  if (step.kind === 'update_subset') {
    const { added_item_ids: added, removed_item_ids: removed } = step.body;
    return removed.length === 0
      ? strings.addFailed(added.length, step.subset.name)
      : strings.updateSubsetFailed;
  }
  const [only, ...others] = step.body.actions;
  if (!only || others.length > 0) return null;
  if (only.type === 'delete_items') return strings.deleteFailed(only.item_ids.length);
  if (only.type === 'update_label') {
    const labels = Object.entries(only.updates);
    if (labels.length === 1) return strings.labelFailed(labels[0]![1].length, labels[0]![0]);
  }
  return null;
}

/** The changes queued or altered since `snapshot` was taken (the same change object is unaltered). */
export function changedSince(
  queue: readonly PendingChange[],
  snapshot: readonly PendingChange[],
): PendingChange[] {
  const before = new Set(snapshot);
  return queue.filter((change) => !before.has(change));
}

/**
 * The queue without what was queued since `snapshot`: new changes go, altered ones are as they
 * were; changes discarded or applied since stay out.
 */
export function revertTo(
  queue: readonly PendingChange[],
  snapshot: readonly PendingChange[],
): PendingChange[] {
  const before = new Map(snapshot.map((change) => [change.id, change]));
  return queue.flatMap((change) => {
    const earlier = before.get(change.id);
    return earlier ? [earlier] : [];
  });
}
