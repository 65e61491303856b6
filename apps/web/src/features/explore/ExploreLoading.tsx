// 'Loading dataset', and after the delayed-loading time the product's longer message (§2).
import { Flex, Spin, Typography } from 'antd';
import { useDelayedFlag } from '../../lib/useDelayedFlag';
import { exploreStrings as strings } from './strings';

export function ExploreLoading() {
  const delayed = useDelayedFlag(true);
  return (
    <Flex vertical align="center" justify="center" gap={12} style={{ padding: 64 }} role="status">
      <Spin />
      <Typography.Text>{strings.loadingDataset}</Typography.Text>
      {delayed && (
        <Typography.Text type="secondary" style={{ maxWidth: 420, textAlign: 'center' }}>
          {strings.loadingDelayed}
        </Typography.Text>
      )}
    </Flex>
  );
}
