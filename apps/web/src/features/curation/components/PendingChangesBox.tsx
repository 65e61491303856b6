// The queued changes of the page, each with what it will do and a discard button, with 'Discard
// all' (after a confirmation) and 'Apply changes' ('Applying changes' while it runs).
import { CloseOutlined } from '@ant-design/icons';
import { App, Button, Flex, Tag, Typography, theme } from 'antd';
import { useLicense } from '../../../api/hooks/useLicense';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { describeChange, type PendingChange } from '../pendingChanges';
import { curationStrings as strings } from '../strings';
import { usePendingChanges, type ApplyResult } from '../usePendingChanges';

export interface PendingChangesBoxProps {
  /** After 'Apply changes' ran (whether it succeeded or not). */
  onApplied?(result: ApplyResult): void;
}

/** A queued change creates a subset or a split. */
const createsSomething = (change: PendingChange) =>
  (change.kind === 'add_to_subset' && 'newName' in change.subset) ||
  (change.kind === 'move_to_subset' && 'newName' in change.to) ||
  (change.kind === 'update_split' && change.isNew);

function ChangeRow(props: { change: PendingChange; disabled: boolean; onDiscard(): void }) {
  const { change, disabled, onDiscard } = props;
  const { token } = theme.useToken();
  const [only] = change.itemIds;
  const subject = change.itemIds.length === 1 ? only! : strings.items(change.itemIds.length);
  return (
    <Flex
      align="center"
      gap={8}
      data-testid="pending-change"
      data-kind={change.kind}
      style={{
        padding: '4px 8px',
        borderRadius: token.borderRadiusSM,
        background: token.colorFillQuaternary,
      }}
    >
      <Typography.Text style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong ellipsis style={{ maxWidth: '100%' }} title={subject}>
          {subject}
        </Typography.Text>{' '}
        {describeChange(change)}
        {createsSomething(change) && (
          <Tag color="processing" style={{ marginInlineStart: 6 }}>
            {strings.newTag}
          </Tag>
        )}
      </Typography.Text>
      <Button
        size="small"
        type="text"
        icon={<CloseOutlined />}
        aria-label={strings.discardChange}
        title={strings.discardChange}
        disabled={disabled}
        onClick={onDiscard}
      />
    </Flex>
  );
}

export function PendingChangesBox({ onApplied }: PendingChangesBoxProps) {
  const { modal } = App.useApp();
  const { changes, discard, discardAll, apply, applying } = usePendingChanges();
  const licensed = useLicense().data?.state === 'LICENSED';

  if (changes.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="pending-changes-box">
        {strings.noPendingChanges}
      </Typography.Text>
    );
  }
  const confirmDiscardAll = () =>
    void modal.confirm({
      title: strings.discardAllTitle,
      content: strings.discardAllText(changes.length),
      okText: strings.discardAll,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: discardAll,
    });
  const run = async () => {
    const result = await apply();
    onApplied?.(result);
  };

  return (
    <Flex vertical gap={6} data-testid="pending-changes-box" aria-busy={applying}>
      {changes.map((change) => (
        <ChangeRow
          key={change.id}
          change={change}
          disabled={applying}
          onDiscard={() => discard(change.id)}
        />
      ))}
      <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 4 }}>
        <Button size="small" type="text" disabled={applying} onClick={confirmDiscardAll}>
          {strings.discardAll}
        </Button>
        <DisabledTooltip reason={licensed ? null : strings.needsLicense}>
          <Button
            type="primary"
            size="small"
            loading={applying}
            disabled={!licensed}
            onClick={() => void run()}
          >
            {applying ? strings.applyingChanges : strings.applyChanges}
          </Button>
        </DisabledTooltip>
      </Flex>
    </Flex>
  );
}
