// The datasets list, the default landing page. Lists come with the datasets issue; until then
// it shows the empty state and the upload instructions the Getting started dialog links to.
import { DatabaseOutlined } from '@ant-design/icons';
import { Alert, Empty, Flex, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { Page } from '../../components/Page';
import { DelayedLoading } from '../../components/DelayedLoading';
import { useDatasets } from './hooks/useDatasets';
import { datasetStrings } from './strings';

export function DatasetsPage() {
  const [params] = useSearchParams();
  const { data, isPending } = useDatasets();
  const showInstructions = params.has('instructions') || (data && data.length === 0);
  return (
    <Page title={datasetStrings.datasets} testId="datasets">
      {showInstructions && (
        <Alert
          type="info"
          showIcon
          icon={<DatabaseOutlined />}
          style={{ marginBottom: 24 }}
          message={datasetStrings.instructionsTitle}
          description={datasetStrings.instructions}
        />
      )}
      {isPending ? (
        <DelayedLoading />
      ) : (
        <Empty
          style={{ marginTop: 48 }}
          description={
            <Flex vertical gap={4}>
              <Typography.Text strong>{datasetStrings.noDatasets}</Typography.Text>
              <Typography.Text type="secondary">{datasetStrings.noDatasetsHint}</Typography.Text>
            </Flex>
          }
        />
      )}
    </Page>
  );
}
