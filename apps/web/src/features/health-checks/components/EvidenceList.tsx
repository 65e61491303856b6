// A check's text and table evidence (items evidence is the grid preview): text as a paragraph,
// table_per_split as one table with a column group per split (more than 4 rows show 3 and 'Show
// N more'); flagged rows stand out. An evidence type the page does not know says so.
import type { Evidence } from '@loupe/contracts';
import { Alert, Button, Card, Flex, Table, Typography, theme } from 'antd';
import { useState } from 'react';
import { TABLE_COLLAPSE_OVER, TABLE_COLLAPSED_ROWS, visibleRows } from '../checkRules';
import { checkStrings as strings } from '../strings';

export function EvidenceList({ evidence }: { evidence: readonly Evidence[] }) {
  const shown = evidence.filter((each) => each.type !== 'items');
  if (shown.length === 0) return null;
  return (
    <Flex vertical gap={12}>
      {shown.map((each, index) => (
        <EvidenceBlock key={index} evidence={each} />
      ))}
    </Flex>
  );
}

function EvidenceBlock({ evidence }: { evidence: Evidence }) {
  switch (evidence.type) {
    case 'text':
      return (
        <Card size="small" title={evidence.title ?? strings.evidence} data-testid="evidence-text">
          <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
            {evidence.value}
          </Typography.Paragraph>
        </Card>
      );
    case 'table_per_split':
      return <SplitTable evidence={evidence} />;
    case 'items':
      return null;
    default: {
      const type = (evidence as { type: string }).type;
      return <Alert type="warning" showIcon title={strings.unsupportedEvidence(type)} />;
    }
  }
}

type TableEvidence = Extract<Evidence, { type: 'table_per_split' }>;

function formatCell(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return Number.isInteger(value) ? value.toLocaleString() : value.toFixed(3);
}

function SplitTable({ evidence }: { evidence: TableEvidence }) {
  const { token } = theme.useToken();
  const [expanded, setExpanded] = useState(false);
  const flagged = new Set(evidence.flagged_rows ?? []);
  const all = evidence.rows.map((name, index) => ({ key: name, name, index }));
  const rows = visibleRows(all, expanded);
  const hidden = all.length - TABLE_COLLAPSED_ROWS;
  const columns = [
    {
      title: '',
      dataIndex: 'name',
      key: 'name',
      render: (name: string) =>
        flagged.has(name) ? <Typography.Text strong>{name}</Typography.Text> : name,
    },
    ...evidence.splits.map((split) => ({
      title: split.split_name,
      key: split.split_name,
      children: split.columns.map((column) => ({
        title: column.name,
        key: `${split.split_name}/${column.name}`,
        align: 'right' as const,
        render: (_: unknown, row: { index: number }) => formatCell(column.values[row.index]),
      })),
    })),
  ];
  return (
    <Card size="small" title={strings.evidence} data-testid="evidence-table">
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">{evidence.description}</Typography.Text>
        <Table
          size="small"
          bordered
          pagination={false}
          columns={columns}
          dataSource={rows}
          onRow={(row) =>
            flagged.has(row.name)
              ? ({
                  'data-flagged': 'true',
                  style: { background: token.colorErrorBg },
                } as React.HTMLAttributes<HTMLElement>)
              : {}
          }
        />
        {all.length > TABLE_COLLAPSE_OVER && (
          <div>
            <Button type="link" style={{ paddingInline: 0 }} onClick={() => setExpanded((v) => !v)}>
              {expanded ? strings.showFewerRows : strings.showMoreRows(hidden)}
            </Button>
          </div>
        )}
      </Flex>
    </Card>
  );
}
