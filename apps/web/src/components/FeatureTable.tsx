// The table of features a dataset's and a model's features pages show (name, type, group, data
// level, how many items have one and its size), and the columns attributions share with it.
import type { FeatureInfo } from '@loupe/contracts';
import { Table, Typography, type TableColumnType, type TableColumnsType } from 'antd';
import { featureTableStrings as strings } from './strings';

const count = (value: number) => value.toLocaleString();

/** What a feature and what is listed like one (an attribution) have in common. */
interface Listed {
  name: string;
  data_level: string;
  num_present: number;
  num_missing: number;
}

/** Name, data level and the present and missing counts, for any table of listed things. */
export function listedColumns<T extends Listed>(): Record<
  'name' | 'dataLevel' | 'present' | 'missing',
  TableColumnType<T>
> {
  return {
    name: {
      key: 'name',
      title: strings.name,
      dataIndex: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    dataLevel: { key: 'data_level', title: strings.dataLevel, dataIndex: 'data_level' },
    present: {
      key: 'present',
      title: strings.present,
      dataIndex: 'num_present',
      align: 'right',
      render: count,
    },
    missing: {
      key: 'missing',
      title: strings.missing,
      dataIndex: 'num_missing',
      align: 'right',
      render: count,
    },
  };
}

const listed = listedColumns<FeatureInfo>();
const columns: TableColumnsType<FeatureInfo> = [
  listed.name,
  { key: 'type', title: strings.type, dataIndex: 'type' },
  { key: 'group', title: strings.group, dataIndex: 'group' },
  listed.dataLevel,
  listed.present,
  listed.missing,
  { key: 'size', title: strings.size, dataIndex: 'size', align: 'right', render: count },
];

/** Features, 50 a page when there are more. */
export function FeatureTable({ features, testId }: { features: FeatureInfo[]; testId?: string }) {
  return (
    <Table<FeatureInfo>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={features}
      pagination={features.length > 50 ? { pageSize: 50 } : false}
      data-testid={testId}
    />
  );
}
