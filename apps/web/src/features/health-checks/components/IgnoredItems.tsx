// 'Show ignored items': the items ignored for a check (its `checks.<id>.ignored` field), each with
// 'Re-enable', which applies at once.
import { checkIgnoredField, type DataLevel } from '@loupe/contracts';
import { App, Button, Empty, Flex, Switch, Typography } from 'antd';
import { useState } from 'react';
import { describeError } from '../../../api/ApiError';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { confirmDiscard, usePendingChanges } from '../../curation';
import { useIgnoreItems } from '../hooks/useCheckMutations';
import { checkStrings as strings } from '../strings';
import { ItemsPreview, useCheckItemIds } from './ItemsPreview';

export interface IgnoredItemsProps {
  datasetId: string;
  checkId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  lockedReason: string | null;
}

export function IgnoredItems(props: IgnoredItemsProps) {
  const [shown, setShown] = useState(false);
  const { modal } = App.useApp();
  const pending = usePendingChanges();
  // The check's queued changes are for the items shown now: toggling asks to discard them.
  const toggle = (next: boolean) => {
    const count = pending.changes.length;
    if (count === 0) {
      setShown(next);
      return;
    }
    confirmDiscard(modal, {
      count,
      title: strings.discardTitle,
      okText: strings.discardAndContinue,
      onDiscard: () => {
        pending.discardAll();
        setShown(next);
      },
    });
  };
  return (
    <Flex vertical gap={8} data-testid="ignored-items">
      <Flex gap={8} align="center">
        <Switch checked={shown} onChange={toggle} aria-label={strings.showIgnored} size="small" />
        <Typography.Text>{strings.showIgnored}</Typography.Text>
      </Flex>
      {shown && <IgnoredList {...props} />}
    </Flex>
  );
}

function IgnoredList({
  datasetId,
  checkId,
  dataLevel,
  predictionsId,
  lockedReason,
}: IgnoredItemsProps) {
  const { message, notification } = App.useApp();
  const ignore = useIgnoreItems(datasetId);
  const config = {
    data_level: dataLevel,
    filter: {
      type: 'boolean' as const,
      metadata_id: checkIgnoredField(checkId),
      op: 'bool_equals' as const,
      value: true,
    },
    sort_by: [],
    visible_metadata_ids: [],
  };
  const ids = useCheckItemIds(datasetId, config, predictionsId);
  if (ids.data && ids.data.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noIgnored} />;
  const reEnable = (itemId: string) =>
    ignore.mutate(
      { checkId, itemIds: [itemId], ignore: false, predictionsId },
      {
        onSuccess: () => void message.success(strings.reEnabled(1)),
        onError: (error) =>
          void notification.error({
            title: strings.ignoreFailed,
            description: describeError(error),
          }),
      },
    );
  return (
    <ItemsPreview
      testId="ignored-list"
      datasetId={datasetId}
      config={config}
      predictionsId={predictionsId}
      renderExtra={(itemId) => (
        <DisabledTooltip reason={lockedReason}>
          <Button
            size="small"
            style={{ marginTop: 4 }}
            disabled={lockedReason !== null}
            onClick={() => reEnable(itemId)}
          >
            {strings.reEnable}
          </Button>
        </DisabledTooltip>
      )}
    />
  );
}
