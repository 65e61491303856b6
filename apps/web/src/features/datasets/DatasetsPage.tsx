// The datasets list, the default landing page: each dataset with its task and counts, or the
// empty state with the upload instructions the Getting started dialog links to.
import { DatabaseOutlined } from '@ant-design/icons';
import type { Dataset } from '@loupe/contracts';
import { Alert, Card, Col, Empty, Flex, Row, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { DelayedLoading } from '../../components/DelayedLoading';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { useDatasets } from './hooks/useDatasets';
import { datasetStrings } from './strings';

function DatasetCard({ dataset }: { dataset: Dataset }) {
  return (
    <Link to={`/datasets/${encodeURIComponent(dataset.id)}/overview`}>
      <Card hoverable style={{ height: '100%' }}>
        <Flex vertical gap={8}>
          <Typography.Text strong ellipsis>
            {dataset.name}
          </Typography.Text>
          <Flex gap={4} wrap>
            <Tag>{dataset.task_type.replace(/_/g, ' ')}</Tag>
            {dataset.issues_count > 0 && (
              <Tag color="error">{datasetStrings.issues(dataset.issues_count)}</Tag>
            )}
          </Flex>
          <Typography.Text type="secondary">
            {datasetStrings.counts(dataset.samples_count ?? 0, dataset.predictions_count)}
          </Typography.Text>
        </Flex>
      </Card>
    </Link>
  );
}

export function DatasetsPage() {
  const [params] = useSearchParams();
  const datasets = useDatasets();
  const list = datasets.data ?? [];
  const showInstructions = params.has('instructions') || (datasets.isSuccess && list.length === 0);
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
      {datasets.isPending ? (
        <DelayedLoading />
      ) : datasets.isError ? (
        <ErrorFallback
          title={datasetStrings.loadFailed}
          error={datasets.error}
          onRetry={() => void datasets.refetch()}
        />
      ) : list.length === 0 ? (
        <Empty
          style={{ marginTop: 48 }}
          description={
            <Flex vertical gap={4}>
              <Typography.Text strong>{datasetStrings.noDatasets}</Typography.Text>
              <Typography.Text type="secondary">{datasetStrings.noDatasetsHint}</Typography.Text>
            </Flex>
          }
        />
      ) : (
        <Row gutter={[16, 16]}>
          {list.map((dataset) => (
            <Col key={dataset.id} xs={24} md={12} xl={8}>
              <DatasetCard dataset={dataset} />
            </Col>
          ))}
        </Row>
      )}
    </Page>
  );
}
