// 'Loading dataset' ('Loading model' under a model route), and after the delayed-loading time
// the product's longer message (docs/product.md, Datasets §2 and Models §2).
import { Flex, Spin, Typography } from 'antd';
import { useDelayedFlag } from '../../lib/useDelayedFlag';
import { exploreStrings as strings } from './strings';

export function ExploreLoading({ model = false }: { model?: boolean }) {
  const delayed = useDelayedFlag(true);
  return (
    <Flex vertical align="center" justify="center" gap={12} style={{ padding: 64 }} role="status">
      <Spin />
      <Typography.Text>{model ? strings.loadingModel : strings.loadingDataset}</Typography.Text>
      {delayed && (
        <Typography.Text type="secondary" style={{ maxWidth: 420, textAlign: 'center' }}>
          {model ? strings.loadingModelDelayed : strings.loadingDelayed}
        </Typography.Text>
      )}
    </Flex>
  );
}
