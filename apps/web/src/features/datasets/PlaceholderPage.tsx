// A dataset or model page whose content arrives with its own issue: titled by the route.
import { Empty, Flex, Typography } from 'antd';
import { Page, type Crumb } from '../../components/Page';
import { datasetStrings } from './strings';

export function PlaceholderPage({ title, breadcrumbs }: { title: string; breadcrumbs: Crumb[] }) {
  return (
    <Page title={title} breadcrumbs={breadcrumbs}>
      <Empty
        style={{ marginTop: 48 }}
        description={
          <Flex vertical gap={4}>
            <Typography.Text strong>{datasetStrings.comingSoon}</Typography.Text>
            <Typography.Text type="secondary">{datasetStrings.placeholder}</Typography.Text>
          </Flex>
        }
      />
    </Page>
  );
}
