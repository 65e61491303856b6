// The metadata fields of a data level as the dataset's and the model's metadata pages list them:
// a data level switch, a search over label, name, id and group, the number shown, and the table
// (the page's name column, type, source, group, missing / total, and the page's own columns).
import type { DataLevel, MetadataFieldInfo } from '@loupe/contracts';
import {
  Flex,
  Input,
  Segmented,
  Table,
  Typography,
  type TableColumnType,
  type TableColumnsType,
} from 'antd';
import { useState, type ReactNode } from 'react';
import { DelayedLoading } from './DelayedLoading';
import { metadataFieldStrings as strings } from './strings';

export const DATA_LEVEL_LABELS: Record<DataLevel, string> = {
  image: 'Images',
  image_object: 'Objects',
  audio: 'Audio',
};

const SOURCE_LABELS: Record<MetadataFieldInfo['source'], string> = {
  builtin: 'Built-in',
  uploaded: 'Uploaded',
  computed: 'Computed',
  prediction: 'Prediction',
};

const TYPE_LABELS: Record<MetadataFieldInfo['type'], string> = {
  numeric: 'Numeric',
  string: 'String',
  boolean: 'Boolean',
  timestamp: 'Timestamp',
};

/** The name a field is shown by. */
export const fieldName = (field: MetadataFieldInfo): string => field.label || field.name;

function matches(field: MetadataFieldInfo, term: string): boolean {
  if (!term) return true;
  const needle = term.toLowerCase();
  return [field.label, field.name, field.id, field.group].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

/** The name column: sorted by the shown name, drawn by the page. */
function nameColumn(
  render: (field: MetadataFieldInfo) => ReactNode,
): TableColumnType<MetadataFieldInfo> {
  return {
    key: 'name',
    title: strings.columns.name,
    sorter: (a, b) => fieldName(a).localeCompare(fieldName(b)),
    render: (_, field) => render(field),
  };
}

const sharedColumns: TableColumnsType<MetadataFieldInfo> = [
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
];

export function MetadataFieldTable({
  levels,
  dataLevel,
  onDataLevelChange,
  fields,
  renderName,
  extraColumns = [],
  testId,
}: {
  levels: readonly DataLevel[];
  dataLevel: DataLevel | undefined;
  onDataLevelChange: (level: DataLevel) => void;
  /** The level's fields; undefined while they load. */
  fields: MetadataFieldInfo[] | undefined;
  renderName: (field: MetadataFieldInfo) => ReactNode;
  extraColumns?: TableColumnsType<MetadataFieldInfo>;
  testId: string;
}) {
  const [search, setSearch] = useState('');
  const term = search.trim();
  const shown = fields?.filter((field) => matches(field, term));
  const columns = [nameColumn(renderName), ...sharedColumns, ...extraColumns];
  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center" wrap="wrap">
        {levels.length > 1 && (
          <Segmented<DataLevel>
            aria-label={strings.dataLevel}
            value={dataLevel}
            onChange={onDataLevelChange}
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
        {shown && (
          <Typography.Text type="secondary" style={{ marginLeft: 'auto' }}>
            {strings.count(shown.length)}
          </Typography.Text>
        )}
      </Flex>
      {shown ? (
        <Table<MetadataFieldInfo>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={shown}
          pagination={shown.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
          locale={{ emptyText: term ? strings.noMatches : strings.noMetadata }}
          data-testid={testId}
        />
      ) : (
        <DelayedLoading />
      )}
    </Flex>
  );
}
