// The overview's 'Version History': every change to the dataset, newest first, in words.
import { HistoryOutlined } from '@ant-design/icons';
import { Empty, Flex, Skeleton, Timeline, Typography, theme } from 'antd';
import { formatRelativeTime } from '../../../lib/relativeTime';
import { useDatasetHistory } from '../hooks/useDatasetHistory';
import { HISTORY_OPERATION_LABELS, datasetStrings as strings } from '../strings';

export function VersionHistory({ datasetId }: { datasetId: string }) {
  const { token } = theme.useToken();
  const history = useDatasetHistory(datasetId);
  if (history.isError) {
    return <Typography.Text type="danger">{strings.historyFailed}</Typography.Text>;
  }
  if (history.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (history.data.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noHistory} />;
  }
  const now = history.dataUpdatedAt || Date.now();
  return (
    <Timeline
      style={{ paddingTop: 8 }}
      items={history.data.map((record) => ({
        key: record.id,
        dot: <HistoryOutlined style={{ color: token.colorPrimary }} />,
        children: (
          <Flex vertical gap={0} data-testid="history-record">
            {/* What was done (the operation's name), then how many items, by whom and when:
                the count is not read into the name ('120 items uploaded items'). */}
            <Typography.Text strong>
              {strings.historyOperation(
                HISTORY_OPERATION_LABELS[record.operation_type] ?? record.operation_type,
              )}
            </Typography.Text>
            <Typography.Text
              type="secondary"
              style={{ fontSize: token.fontSizeSM }}
              title={new Date(record.timestamp).toLocaleString()}
            >
              {strings.historyItems(record.num_items)} · {strings.historyBy(record.user_name)} ·{' '}
              {formatRelativeTime(record.timestamp, now)}
            </Typography.Text>
          </Flex>
        ),
      }))}
    />
  );
}
