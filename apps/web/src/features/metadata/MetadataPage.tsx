// The metadata page (docs/product.md, Datasets §2): every metadata field of a data level with its type,
// source, group, missing count and state; 'Recomputing' fields are polled until available.
import { DATA_LEVELS, type DataLevel, type MetadataFieldInfo } from '@loupe/contracts';
import { Flex, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useParams } from 'react-router';
import { DelayedLoading } from '../../components/DelayedLoading';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { fieldName, MetadataFieldTable } from '../../components/MetadataFieldTable';
import { Page, type Crumb } from '../../components/Page';
import { useDataset } from '../datasets';
import { metadataStrings as strings } from './strings';
import { useMetadataFields } from './hooks/useMetadataFields';

/** Description is HTML from the server; the table shows its text only. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

function FieldName({ field }: { field: MetadataFieldInfo }) {
  const description = plainText(field.description);
  return (
    <Flex vertical>
      <Tooltip title={description || undefined}>
        <Typography.Text strong>{fieldName(field)}</Typography.Text>
      </Tooltip>
      {field.label && field.label !== field.name && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {field.name}
        </Typography.Text>
      )}
    </Flex>
  );
}

const stateColumn: TableColumnsType<MetadataFieldInfo> = [
  {
    key: 'state',
    title: strings.columns.state,
    dataIndex: 'state',
    render: (state: MetadataFieldInfo['state']) =>
      state === 'pending' ? (
        <Tag color="processing">{strings.recomputing}</Tag>
      ) : (
        <Tag color="success">{strings.available}</Tag>
      ),
  },
];

export function MetadataPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const levels = dataset.data ? DATA_LEVELS[dataset.data.task_type] : [];
  const [chosen, setChosen] = useState<DataLevel | undefined>();
  const dataLevel = chosen && levels.includes(chosen) ? chosen : levels[0];
  const fields = useMetadataFields(datasetId, dataLevel);

  const crumbs: Crumb[] = [{ title: strings.datasets, to: '/datasets' }];
  if (dataset.data)
    crumbs.push({ title: dataset.data.name, to: `/datasets/${datasetId}/overview` });
  const failure = dataset.error ?? fields.error;
  if (failure) {
    return (
      <Page title={strings.title} breadcrumbs={crumbs}>
        {isNotFound(dataset.error) ? (
          <NotFoundState title={strings.datasetNotFound} />
        ) : (
          <ErrorFallback
            title={strings.failed}
            error={failure}
            onRetry={() => void (dataset.isError ? dataset.refetch() : fields.refetch())}
          />
        )}
      </Page>
    );
  }
  if (!dataset.data) {
    return (
      <Page title={strings.title} breadcrumbs={crumbs}>
        <DelayedLoading />
      </Page>
    );
  }
  return (
    <Page title={strings.title} breadcrumbs={crumbs} testId="dataset-metadata">
      <MetadataFieldTable
        levels={levels}
        dataLevel={dataLevel}
        onDataLevelChange={setChosen}
        fields={fields.data?.metadata_config}
        renderName={(field) => <FieldName field={field} />}
        extraColumns={stateColumn}
        testId="metadata-table"
      />
    </Page>
  );
}
