// The overview's 'Version History': every change to the dataset, newest first, in words, with
// 'Show items' (the explorer filtered by the change) and, on a deletion that can be undone,
// 'Restore' after a confirmation (docs/curation.md).
import { HistoryOutlined, RollbackOutlined, SearchOutlined } from '@ant-design/icons';
import type { HistoryRecord } from '@loupe/contracts';
import {
  App,
  Button,
  Empty,
  Flex,
  Skeleton,
  Tag,
  Timeline,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { Link } from 'react-router';
import { describeError } from '../../../api/ApiError';
import { useLicense } from '../../../api/hooks/useLicense';
import { formatRelativeTime } from '../../../lib/relativeTime';
import { useDatasetHistory } from '../hooks/useDatasetHistory';
import { useRestoreHistoryRecord } from '../hooks/useRestoreHistoryRecord';
import { HISTORY_OPERATION_LABELS, datasetStrings as strings } from '../strings';
import { canShowItems, showItemsLink } from './historyLinks';

export function VersionHistory({ datasetId }: { datasetId: string }) {
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const history = useDatasetHistory(datasetId);
  const restore = useRestoreHistoryRecord(datasetId);
  const licensed = useLicense().data?.state === 'LICENSED';
  if (history.isError) {
    return <Typography.Text type="danger">{strings.historyFailed}</Typography.Text>;
  }
  if (history.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (history.data.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noHistory} />;
  }
  const now = history.dataUpdatedAt || Date.now();

  const confirmRestore = (record: HistoryRecord) =>
    void modal.confirm({
      title: strings.restoreTitle(record.num_items),
      content: strings.restoreContent,
      okText: strings.restore,
      cancelText: strings.cancel,
      onOk: () =>
        restore.mutateAsync(record.id).then(
          (answer) => void message.success(strings.restored(answer.restored)),
          (error: unknown) =>
            void message.error(`${strings.restoreFailed} ${describeError(error)}`),
        ),
    });

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
            <Flex gap={6} align="center" wrap="wrap">
              <Typography.Text strong>
                {strings.historyOperation(
                  HISTORY_OPERATION_LABELS[record.operation_type] ?? record.operation_type,
                )}
              </Typography.Text>
              {Boolean(record.restored_by) && (
                <Tag color="success" style={{ marginInlineEnd: 0 }}>
                  {strings.restoredTag}
                </Tag>
              )}
            </Flex>
            <Typography.Text
              type="secondary"
              style={{ fontSize: token.fontSizeSM }}
              title={new Date(record.timestamp).toLocaleString()}
            >
              {strings.historyItems(record.num_items)} · {strings.historyBy(record.user_name)} ·{' '}
              {formatRelativeTime(record.timestamp, now)}
            </Typography.Text>
            <RecordActions
              record={record}
              datasetId={datasetId}
              licensed={licensed}
              onRestore={() => confirmRestore(record)}
            />
          </Flex>
        ),
      }))}
    />
  );
}

function RecordActions(props: {
  record: HistoryRecord;
  datasetId: string;
  licensed: boolean;
  onRestore(): void;
}) {
  const { record, datasetId, licensed, onRestore } = props;
  const { token } = theme.useToken();
  const showItems = canShowItems(record);
  if (!showItems && !record.restorable) return null;
  return (
    <Flex gap={12} align="center" style={{ fontSize: token.fontSizeSM, marginTop: 2 }}>
      {showItems && (
        <Link to={showItemsLink(datasetId, record)} style={{ fontSize: token.fontSizeSM }}>
          <SearchOutlined /> {strings.showItems}
        </Link>
      )}
      {record.restorable && (
        <Tooltip title={licensed ? undefined : strings.restoreNeedsLicense}>
          <Button
            type="link"
            size="small"
            icon={<RollbackOutlined />}
            disabled={!licensed}
            onClick={onRestore}
            style={{ paddingInline: 0, height: 'auto', fontSize: token.fontSizeSM }}
          >
            {strings.restore}
          </Button>
        </Tooltip>
      )}
    </Flex>
  );
}
