// Asks before leaving with pending changes (docs/product.md, Datasets §2): 'Discard changes' with
// 'Discard and leave'. With `since` (a snapshot of the queue) only what was queued after it
// counts, and only that is discarded: the item viewer asks about its own changes, not about the
// explorer's queued before it opened.
import { App } from 'antd';
import { useCallback } from 'react';
import { changedSince, type PendingChange } from '../pendingChanges';
import { confirmDiscard } from '../confirmDiscard';
import { usePendingChanges } from '../usePendingChanges';

export type ConfirmLeave = (
  onLeave: () => void,
  options?: { since?: readonly PendingChange[] },
) => void;

export function useConfirmLeave(): ConfirmLeave {
  const { modal } = App.useApp();
  const { changes, discardAll, revertTo } = usePendingChanges();
  return useCallback<ConfirmLeave>(
    (onLeave, options) => {
      const since = options?.since;
      const pending = since ? changedSince(changes, since) : changes;
      if (pending.length === 0) {
        onLeave();
        return;
      }
      confirmDiscard(modal, {
        count: pending.length,
        onDiscard: () => {
          if (since) revertTo(since);
          else discardAll();
          onLeave();
        },
      });
    },
    [modal, changes, discardAll, revertTo],
  );
}
