// The metadata page (docs/product.md, Datasets §2): every metadata field of a data level with its type,
// source, group, missing count and state; 'Recomputing' fields are polled until available.
import { DATA_LEVELS, type DataLevel, type MetadataFieldInfo } from '@loupe/contracts';
import {
  Flex,
  Input,
  Segmented,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useParams } from 'react-router';
import { DelayedLoading } from '../../components/DelayedLoading';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page, type Crumb } from '../../components/Page';
import { useDataset } from '../datasets';
import {
  DATA_LEVEL_LABELS,
  metadataStrings as strings,
  SOURCE_LABELS,
  TYPE_LABELS,
} from './strings';
import { useMetadataFields } from './hooks/useMetadataFields';

/** Description is HTML from the server; the table shows its text only. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

function matches(field: MetadataFieldInfo, term: string): boolean {
  if (!term) return true;
  const needle = term.toLowerCase();
  return [field.label, field.name, field.id, field.group].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

const columns: TableColumnsType<MetadataFieldInfo> = [
  {
    key: 'name',
    title: strings.columns.name,
    sorter: (a, b) => (a.label || a.name).localeCompare(b.label || b.name),
    render: (_, field) => {
      const description = plainText(field.description);
      return (
        <Flex vertical>
          <Tooltip title={description || undefined}>
            <Typography.Text strong>{field.label || field.name}</Typography.Text>
          </Tooltip>
          {field.label && field.label !== field.name && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {field.name}
            </Typography.Text>
          )}
        </Flex>
      );
    },
  },
  {
    key: 'type',
    title: strings.columns.type,
    dataIndex: 'type',
    render: (type: MetadataFieldInfo['type']) => TYPE_LABELS[type],
  },
  {
    key: 'source',
    title: strings.columns.source,
    dataIndex: 'source',
    render: (source: MetadataFieldInfo['source']) => SOURCE_LABELS[source],
  },
  {
    key: 'group',
    title: strings.columns.group,
    dataIndex: 'group',
    sorter: (a, b) => a.group.localeCompare(b.group),
  },
  {
    key: 'missing',
    title: strings.columns.missing,
    align: 'right',
    render: (_, field) =>
      field.num_total === undefined
        ? '—'
        : `${(field.num_missing ?? 0).toLocaleString()} / ${field.num_total.toLocaleString()}`,
  },
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
  const [search, setSearch] = useState('');

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
  if (!dataset.data || !fields.data) {
    return (
      <Page title={strings.title} breadcrumbs={crumbs}>
        <DelayedLoading />
      </Page>
    );
  }
  const shown = fields.data.metadata_config.filter((field) => matches(field, search.trim()));
  return (
    <Page title={strings.title} breadcrumbs={crumbs} testId="dataset-metadata">
      <Flex vertical gap={16}>
        <Flex gap={12} align="center" wrap="wrap">
          {levels.length > 1 && (
            <Segmented<DataLevel>
              aria-label={strings.dataLevel}
              value={dataLevel}
              onChange={setChosen}
              options={levels.map((level) => ({ value: level, label: DATA_LEVEL_LABELS[level] }))}
            />
          )}
          <Input.Search
            allowClear
            placeholder={strings.search}
            aria-label={strings.search}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            style={{ maxWidth: 320 }}
          />
          <Typography.Text type="secondary" style={{ marginLeft: 'auto' }}>
            {strings.count(shown.length)}
          </Typography.Text>
        </Flex>
        <Table<MetadataFieldInfo>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={shown}
          pagination={shown.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
          locale={{ emptyText: search.trim() ? strings.noMatches : strings.noMetadata }}
          data-testid="metadata-table"
        />
      </Flex>
    </Page>
  );
}
