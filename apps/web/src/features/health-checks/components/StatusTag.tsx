// A check's status as a tag: the contract's label in the status's preset colour.
import type { CheckStatusType } from '@loupe/contracts';
import { Tag } from 'antd';
import { STATUS_COLORS } from '../checkRules';
import { checkStrings as strings } from '../strings';

export function StatusTag({ status }: { status: CheckStatusType }) {
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="check-status" data-status={status}>
      {strings.statusLabels[status]}
    </Tag>
  );
}
