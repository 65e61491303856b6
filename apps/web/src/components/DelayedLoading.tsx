// A spinner that adds a reassuring line once loading takes longer than 5000 ms (docs/product.md, Shell §9).
import { Flex, Spin, Typography } from 'antd';
import { useDelayedFlag } from '../lib/useDelayedFlag';
import { commonStrings } from './strings';

export function DelayedLoading({ label }: { label?: string }) {
  const delayed = useDelayedFlag(true);
  return (
    <Flex vertical align="center" justify="center" gap={12} style={{ padding: 48 }} role="status">
      <Spin />
      {label && <Typography.Text type="secondary">{label}</Typography.Text>}
      {delayed && (
        <Typography.Text type="secondary">{commonStrings.delayedLoading}</Typography.Text>
      )}
    </Flex>
  );
}
