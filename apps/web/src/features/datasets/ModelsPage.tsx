// The models list: every prediction set with its dataset, or the empty state.
import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Empty, Table } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { DelayedLoading } from '../../components/DelayedLoading';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { useModels } from './hooks/useModels';
import { datasetStrings } from './strings';

export function ModelsPage() {
  const [params] = useSearchParams();
  const models = useModels();
  const list = models.data ?? [];
  return (
    <Page title={datasetStrings.models} testId="models">
      {(params.has('instructions') || (models.isSuccess && list.length === 0)) && (
        <Alert
          type="info"
          showIcon
          icon={<ExperimentOutlined />}
          style={{ marginBottom: 24 }}
          message={datasetStrings.modelInstructionsTitle}
          description={datasetStrings.modelInstructions}
        />
      )}
      {models.isPending ? (
        <DelayedLoading />
      ) : models.isError ? (
        <ErrorFallback
          title={datasetStrings.modelsLoadFailed}
          error={models.error}
          onRetry={() => void models.refetch()}
        />
      ) : list.length === 0 ? (
        <Empty style={{ marginTop: 48 }} description={datasetStrings.noModels} />
      ) : (
        <Table
          rowKey="id"
          dataSource={list}
          pagination={list.length > 20 ? { pageSize: 20 } : false}
          columns={[
            {
              key: 'name',
              title: datasetStrings.modelName,
              render: (_value, model) => (
                <Link
                  to={`/models/datasets/${encodeURIComponent(model.dataset.id)}/predictions/${encodeURIComponent(model.id)}/overview`}
                >
                  {model.name}
                </Link>
              ),
            },
            {
              key: 'dataset',
              title: datasetStrings.dataset,
              render: (_v, model) => model.dataset.name,
            },
            {
              key: 'added',
              title: datasetStrings.added,
              render: (_v, model) => new Date(model.added_at).toLocaleString(),
            },
          ]}
        />
      )}
    </Page>
  );
}
