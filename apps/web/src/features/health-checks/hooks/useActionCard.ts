// The action card's state: the selection groups (from the recommendation, then edited by clicks
// on the grid's cards), the active group, the loaded items (an object's sample), and applying:
// data groups are queued as pending changes carrying the check's id, the ignore group is sent at
// once; deleting asks first.
import type { DataLevel, ExploreItem, Recommendation } from '@loupe/contracts';
import { App } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { describeError } from '../../../api/ApiError';
import { usePendingChanges } from '../../curation';
import { cardOutcome, selectionGroupsFrom, toggleItem, type SelectionGroup } from '../checkRules';
import { checkStrings as strings } from '../strings';
import { useIgnoreItems } from './useCheckMutations';

export function useActionCard(input: {
  datasetId: string;
  checkId: string;
  dataLevel: DataLevel;
  recommendation: Recommendation | null;
  predictionsId?: string;
}) {
  const { datasetId, checkId, dataLevel, recommendation, predictionsId } = input;
  const { modal, message, notification } = App.useApp();
  const pending = usePendingChanges();
  const ignore = useIgnoreItems(datasetId);
  const initial = useMemo(() => selectionGroupsFrom(recommendation), [recommendation]);
  const [edited, setEdited] = useState<{
    from: Recommendation | null;
    groups: SelectionGroup[];
  } | null>(null);
  // A new evaluation (after polling or an apply) starts from its recommendation again.
  const groups = edited && edited.from === recommendation ? edited.groups : initial;
  const [activeGroupId, setActiveGroupId] = useState<string>(() => initial[0]?.id ?? 'ignore');
  const active = groups.some((group) => group.id === activeGroupId)
    ? activeGroupId
    : (groups[0]?.id ?? 'ignore');
  const loaded = useRef(new Map<string, ExploreItem>());
  const onItems = useCallback((items: ReadonlyMap<string, ExploreItem>) => {
    for (const [id, item] of items) loaded.current.set(id, item);
  }, []);

  const toggle = useCallback(
    (itemId: string) =>
      setEdited({ from: recommendation, groups: toggleItem(groups, active, itemId) }),
    [groups, active, recommendation],
  );

  const run = () => {
    const sampleOf = Object.fromEntries(
      [...loaded.current].map(([id, item]) => [id, item.sample_id]),
    );
    const outcome = cardOutcome(groups, { checkId, dataLevel, sampleOf });
    for (const change of outcome.changes) pending.add(change);
    if (outcome.changes.length > 0) void message.success(strings.queued(outcome.changes.length));
    // What was applied leaves the card; the groups stay for the rest.
    setEdited({
      from: recommendation,
      groups: groups.map((group) => ({ ...group, itemIds: [] })),
    });
    if (outcome.ignore.length > 0) {
      const count = outcome.ignore.length;
      ignore.mutate(
        { checkId, itemIds: outcome.ignore, ignore: true, predictionsId },
        {
          onSuccess: () => void message.success(strings.ignored(count)),
          onError: (error) =>
            void notification.error({
              title: strings.ignoreFailed,
              description: describeError(error),
            }),
        },
      );
    }
  };

  const apply = () => {
    const deleting = groups.find((group) => group.kind === 'delete')?.itemIds.length ?? 0;
    if (deleting === 0) return run();
    void modal.confirm({
      title: strings.deleteConfirmTitle(deleting),
      content: strings.deleteConfirmText,
      okText: strings.delete,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: run,
    });
  };

  return {
    groups,
    activeGroupId: active,
    setActiveGroupId,
    toggle,
    onItems,
    apply,
    busy: ignore.isPending,
  };
}
