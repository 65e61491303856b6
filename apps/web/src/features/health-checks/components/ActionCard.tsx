// The action card (docs/health-checks.md, "Action card"): the selection groups of the check's
// recommendation (delete, one per new label or split, promote to ground truth, ignore) with how
// many items each holds, which group a click on a card fills, and one button whose label follows
// the groups that hold items. Delete asks first. Data changes are queued as pending changes
// carrying the check's id; ignoring is applied at once.
import { Button, Card, Flex, Radio, Typography } from 'antd';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { buttonLabel, type SelectionGroup } from '../checkRules';
import { checkStrings as strings } from '../strings';

export interface ActionCardProps {
  groups: readonly SelectionGroup[];
  activeGroupId: string;
  onActiveGroupChange(groupId: string): void;
  onApply(): void;
  lockedReason: string | null;
  busy: boolean;
}

export function ActionCard(props: ActionCardProps) {
  const { groups, activeGroupId, onActiveGroupChange, onApply, lockedReason, busy } = props;
  const label = buttonLabel(groups);
  const empty = groups.every((group) => group.itemIds.length === 0);
  return (
    <Card size="small" title={strings.actions} data-testid="action-card">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{strings.selectGroup}</Typography.Text>
        <Radio.Group
          value={activeGroupId}
          onChange={(event) => onActiveGroupChange(event.target.value as string)}
          aria-label={strings.selectGroup}
        >
          <Flex vertical gap={6}>
            {groups.map((group) => (
              <Radio
                key={group.id}
                value={group.id}
                data-testid="selection-group"
                data-group={group.id}
              >
                <Flex gap={8} align="baseline">
                  <span>{group.title}</span>
                  <Typography.Text type="secondary">
                    {strings.selectedInGroup(group.itemIds.length)}
                  </Typography.Text>
                </Flex>
              </Radio>
            ))}
          </Flex>
        </Radio.Group>
        <DisabledTooltip reason={lockedReason}>
          <Button
            type="primary"
            danger={label === 'Delete'}
            disabled={lockedReason !== null || empty}
            loading={busy}
            onClick={onApply}
            data-testid="action-apply"
          >
            {label}
          </Button>
        </DisabledTooltip>
      </Flex>
    </Card>
  );
}
