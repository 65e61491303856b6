// The pending-changes queue of one dataset page (docs/curation.md): the explorer's bulk actions
// and the item viewer fill the same queue, and 'Apply changes' in either applies all of it. The
// queue is UI state of the page (nothing is sent until it is applied); the last action queued
// can be repeated on other items ('Apply last action', the viewer's x key).
import type { Subset } from '@loupe/contracts';
import { App, Flex } from 'antd';
import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { describeError } from '../../api/ApiError';
import { ApplyStepError, useApplyChanges } from './hooks/useApplyChanges';
import { canReplay, type ActionContext } from './itemActionRules';
import {
  actionOf,
  addChange,
  discardItems,
  failureMessage,
  resolveNewSubset,
  resolveNewSubsetIn,
  revertTo,
  toRequests,
  type CurationStep,
  type PendingAction,
  type PendingChange,
  type PendingChangeInput,
} from './pendingChanges';
import { curationStrings as strings } from './strings';

export interface ApplyResult {
  /** Every request went through (or there was nothing to apply). */
  ok: boolean;
  changedItemIds: Set<string>;
  deletedItemIds: Set<string>;
}

export interface PendingChangesApi {
  datasetId: string;
  changes: PendingChange[];
  /** Queues a change (see addChange for how it joins the queue). */
  add(change: PendingChangeInput): void;
  discard(id: string): void;
  /** Drops the whole queue; the caller confirms first. */
  discardAll(): void;
  /**
   * Drops the pending changes of these items (with `samples`, also of their objects); returns
   * how many changes were touched.
   */
  discardItems(itemIds: readonly string[], options?: { samples?: boolean }): number;
  /** Drops what was queued since `snapshot` (a value of `changes`), restoring what it altered. */
  revertTo(snapshot: readonly PendingChange[]): void;
  /** The action queued last, for 'Apply last action'. */
  lastAction: PendingAction | null;
  /** Queues the last action again for these items, if they offer it; false if not. */
  replayLast(context: ActionContext): boolean;
  /** Runs the queue's requests, reports success or failure, and refreshes the dataset's reads. */
  apply(): Promise<ApplyResult>;
  applying: boolean;
}

const Context = createContext<PendingChangesApi | null>(null);

export function PendingChangesProvider(props: { datasetId: string; children: ReactNode }) {
  const { datasetId } = props;
  const { message } = App.useApp();
  const [changes, setChanges] = useState<PendingChange[]>([]);
  const [lastAction, setLastAction] = useState<PendingAction | null>(null);
  // Handlers read the latest queue without being re-created on each change.
  const current = useRef(changes);
  current.current = changes;
  const lastRef = useRef(lastAction);
  lastRef.current = lastAction;
  const counter = useRef(0);
  const newId = useCallback(() => `change-${++counter.current}`, []);
  const mutation = useApplyChanges(datasetId);
  const { mutateAsync } = mutation;

  const add = useCallback(
    (change: PendingChangeInput) => {
      setChanges((queue) => addChange(queue, change, newId));
      setLastAction(actionOf(change));
    },
    [newId],
  );
  const discard = useCallback(
    (id: string) => setChanges((queue) => queue.filter((change) => change.id !== id)),
    [],
  );
  const discardAll = useCallback(() => setChanges([]), []);
  const discardFor = useCallback((itemIds: readonly string[], options?: { samples?: boolean }) => {
    const before = current.current;
    const after = discardItems(before, itemIds, options);
    const touched = before.filter((change) => !after.includes(change)).length;
    if (touched > 0) setChanges((queue) => discardItems(queue, itemIds, options));
    return touched;
  }, []);
  const revert = useCallback(
    (snapshot: readonly PendingChange[]) => setChanges((queue) => revertTo(queue, snapshot)),
    [],
  );
  const replayLast = useCallback(
    (context: ActionContext) => {
      const action = lastRef.current;
      if (!action || !canReplay(action, context)) return false;
      const objectLevel = context.dataLevel === 'image_object';
      add({
        ...action,
        itemIds: context.items.map((item) => item.id),
        ...(objectLevel
          ? { sampleOf: Object.fromEntries(context.items.map((i) => [i.id, i.sampleId])) }
          : {}),
      } as PendingChangeInput);
      return true;
    },
    [add],
  );

  const apply = useCallback(async (): Promise<ApplyResult> => {
    const steps = toRequests(current.current, datasetId);
    if (steps.length === 0) {
      return { ok: true, changedItemIds: new Set(), deletedItemIds: new Set() };
    }
    // A change leaves the queue once every request carrying it went through.
    const remaining = new Map<string, number>();
    for (const step of steps) {
      for (const id of step.changeIds) remaining.set(id, (remaining.get(id) ?? 0) + 1);
    }
    const onStepDone = (step: CurationStep, created?: Subset) => {
      const done = step.changeIds.filter((id) => {
        const left = (remaining.get(id) ?? 1) - 1;
        remaining.set(id, left);
        return left === 0;
      });
      setChanges((queue) => {
        let next = queue;
        if (step.kind === 'create_subset' && created) {
          next = resolveNewSubset(next, step.newName, { id: created.id, name: created.name });
        }
        return next.filter((change) => !done.includes(change.id));
      });
      // Repeating an action that created a subset adds to that subset from now on.
      if (step.kind === 'create_subset' && created) {
        const subset = { id: created.id, name: created.name };
        setLastAction((action) => action && resolveNewSubsetIn(action, step.newName, subset));
      }
    };
    try {
      const outcome = await mutateAsync({ steps, onStepDone });
      const deleted = outcome.deletedItemIds.size;
      void message.success(
        <span data-testid="apply-result">
          {strings.applied}
          {deleted > 0 && <> {strings.deleted(deleted)}</>}
        </span>,
      );
      return { ok: true, ...outcome };
    } catch (error) {
      const failed = error instanceof ApplyStepError ? error : null;
      const detail = failed ? failureMessage(failed.step) : null;
      void message.error(
        <Flex vertical align="start" data-testid="apply-result">
          <span>{strings.applyFailed}</span>
          {detail && <span>{detail}</span>}
          <span>{describeError(failed ? failed.cause : error)}</span>
        </Flex>,
        6,
      );
      return {
        ok: false,
        changedItemIds: failed?.outcome.changedItemIds ?? new Set(),
        deletedItemIds: failed?.outcome.deletedItemIds ?? new Set(),
      };
    }
  }, [datasetId, mutateAsync, message]);

  const value = useMemo<PendingChangesApi>(
    () => ({
      datasetId,
      changes,
      add,
      discard,
      discardAll,
      discardItems: discardFor,
      revertTo: revert,
      lastAction,
      replayLast,
      apply,
      applying: mutation.isPending,
    }),
    [
      datasetId,
      changes,
      add,
      discard,
      discardAll,
      discardFor,
      revert,
      lastAction,
      replayLast,
      apply,
      mutation.isPending,
    ],
  );
  return <Context.Provider value={value}>{props.children}</Context.Provider>;
}

export function usePendingChanges(): PendingChangesApi {
  const value = useContext(Context);
  if (!value) throw new Error('usePendingChanges needs a PendingChangesProvider');
  return value;
}
