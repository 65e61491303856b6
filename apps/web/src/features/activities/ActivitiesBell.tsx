// The header bell: unseen-count badge and the activities popover with the 'My activities' /
// 'All activities' toggle (docs/product.md, Shell §2).
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Flex, Popover, Segmented, Spin, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { ActivitiesErrorBoundary } from './ActivitiesErrorBoundary';
import type { ActivityScope } from '../../api/queries/activities';
import { ActivitiesList } from './ActivitiesList';
import { LIST_HEIGHT, LIST_WIDTH, unseenCount } from './activityRules';
import { useActivities } from './hooks/useActivities';
import { useActivityScope } from './hooks/useActivityScope';
import { useSeenActivities } from './hooks/useSeenActivities';
import { activityStrings as strings } from './strings';

export function ActivitiesBell() {
  const { deployment_id: deploymentId } = useLoadedAppState();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useActivityScope();
  const activities = useActivities(scope);
  const { seenIds, markAllSeen } = useSeenActivities(deploymentId);
  const list = activities.data ?? [];
  const unseen = unseenCount(list, seenIds);

  useEffect(() => {
    if (open && activities.data) markAllSeen(activities.data);
  }, [open, activities.data, markAllSeen]);

  const content = (
    <div data-testid="activities-popover" style={{ width: LIST_WIDTH }}>
      <Flex
        align="center"
        justify="space-between"
        style={{ padding: '12px 16px', borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Typography.Text strong>{strings.title}</Typography.Text>
        <Segmented
          size="small"
          value={scope}
          onChange={(value) => setScope(value as ActivityScope)}
          options={[
            { value: 'my', label: strings.myActivities },
            { value: 'all', label: strings.allActivities },
          ]}
        />
      </Flex>
      <ActivitiesErrorBoundary>
        {activities.isPending ? (
          <Flex align="center" justify="center" style={{ height: LIST_HEIGHT }}>
            <Spin />
          </Flex>
        ) : activities.isError && !activities.data ? (
          <Flex align="center" justify="center" style={{ height: LIST_HEIGHT, padding: 24 }}>
            <Typography.Text type="danger">{strings.loadFailed}</Typography.Text>
          </Flex>
        ) : (
          <ActivitiesList
            activities={list}
            now={activities.dataUpdatedAt || Date.now()}
            onOpen={(path) => {
              setOpen(false);
              void navigate(path);
            }}
          />
        )}
      </ActivitiesErrorBoundary>
    </div>
  );

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      content={content}
      styles={{ container: { padding: 0 } }}
      arrow={false}
    >
      <Button
        type="text"
        aria-label={unseen > 0 ? strings.bellWithCount(unseen) : strings.bell}
        icon={
          <Badge count={unseen} size="small" overflowCount={99}>
            <BellOutlined style={{ fontSize: 18, color: token.colorText }} />
          </Badge>
        }
      />
    </Popover>
  );
}
