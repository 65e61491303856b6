// One activity: job type in words, dataset, status (progress while running, error on failure)
// and how long ago; only finished jobs about a dataset are clickable.
import {
  CheckCircleFilled,
  CloseCircleFilled,
  LoadingOutlined,
  RightOutlined,
} from '@ant-design/icons';
import type { Activity } from '@loupe/contracts';
import { Flex, Progress, Tag, Typography, theme } from 'antd';
import { formatRelativeTime } from '../../lib/relativeTime';
import { activityTarget, rowHeight } from './activityRules';
import { activityStrings as strings, JOB_TYPE_LABELS } from './strings';

const TAG_STYLE = { marginInlineEnd: 0, lineHeight: '16px', fontSize: 12 };

export interface ActivityRowProps {
  activity: Activity;
  now: number;
  onOpen: (path: string) => void;
}

export function ActivityRow({ activity, now, onOpen }: ActivityRowProps) {
  const { token } = theme.useToken();
  const target = activityTarget(activity);
  const statusColor = {
    PENDING: token.colorPrimary,
    SUCCESS: token.colorSuccess,
    FAILURE: token.colorError,
  }[activity.status];
  const icon = {
    PENDING: <LoadingOutlined />,
    SUCCESS: <CheckCircleFilled />,
    FAILURE: <CloseCircleFilled />,
  }[activity.status];
  const title = JOB_TYPE_LABELS[activity.job_type] ?? activity.job_type;
  const open = () => target && onOpen(target);
  return (
    <div
      data-testid="activity-row"
      data-status={activity.status}
      role={target ? 'button' : undefined}
      tabIndex={target ? 0 : undefined}
      aria-label={target ? `${title}: ${activity.dataset_name ?? ''}` : undefined}
      onClick={open}
      onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && open()}
      className={target ? 'loupe-activity-row loupe-activity-row-link' : 'loupe-activity-row'}
      style={{
        height: rowHeight(activity),
        boxSizing: 'border-box',
        padding: '8px 16px',
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        cursor: target ? 'pointer' : 'default',
        display: 'flex',
        alignItems: 'flex-start',
        gap: 12,
      }}
    >
      <span style={{ color: statusColor, fontSize: 16, lineHeight: '22px' }}>{icon}</span>
      <Flex vertical gap={2} style={{ flex: 1, minWidth: 0, lineHeight: '18px' }}>
        <Flex justify="space-between" gap={8}>
          <Typography.Text strong ellipsis>
            {title}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, flexShrink: 0 }}>
            {formatRelativeTime(activity.updated_at, now)}
          </Typography.Text>
        </Flex>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
          {activity.dataset_name ?? strings.noDataset}
        </Typography.Text>
        {activity.job_type === 'EmbeddingsComputation' && (
          <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
            {strings.embeddingsDetail(
              activity.feature_name ?? '',
              activity.dimensionality_reduction_method ?? '',
            )}
          </Typography.Text>
        )}
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          {activity.status === 'PENDING' ? (
            <>
              <Tag color="processing" style={TAG_STYLE}>
                {strings.status.PENDING}
              </Tag>
              {activity.progress !== undefined && (
                <Progress
                  percent={Math.round(activity.progress * 100)}
                  size="small"
                  style={{ flex: 1, margin: 0 }}
                />
              )}
            </>
          ) : activity.status === 'SUCCESS' ? (
            <Tag color="success" style={TAG_STYLE}>
              {strings.status.SUCCESS}
            </Tag>
          ) : (
            <>
              <Tag color="error" style={TAG_STYLE}>
                {strings.status.FAILURE}
              </Tag>
              {activity.error && (
                <Typography.Text
                  type="danger"
                  ellipsis={{ tooltip: activity.error }}
                  style={{ fontSize: token.fontSizeSM, minWidth: 0 }}
                >
                  {activity.error}
                </Typography.Text>
              )}
            </>
          )}
        </Flex>
      </Flex>
      {target && <RightOutlined style={{ alignSelf: 'center', color: token.colorTextTertiary }} />}
    </div>
  );
}
