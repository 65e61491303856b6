// One group of the checks list: its checks (sorted by the caller) with status, summary line and
// an enable switch; more than 6 checks show 3 and 'Show N More' / 'Show N Less'.
import type { HealthCheckOverview } from '@loupe/contracts';
import { Button, Card, Flex, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { summaryLine, visibleChecks } from '../checkRules';
import { checkStrings as strings } from '../strings';
import { StatusTag } from './StatusTag';

export interface CheckGroupCardProps {
  group: string;
  checks: HealthCheckOverview[];
  checkPath(checkId: string): string;
  /** Why the switches are disabled (no license), or null. */
  lockedReason: string | null;
  onToggle(check: HealthCheckOverview, enabled: boolean): void;
  /** The check whose switch is being saved. */
  togglingId: string | null;
}

export function CheckGroupCard(props: CheckGroupCardProps) {
  const { group, checks, checkPath, lockedReason, onToggle, togglingId } = props;
  const { token } = theme.useToken();
  const [expanded, setExpanded] = useState(false);
  const { shown, collapsible, extra } = visibleChecks(checks, expanded);
  return (
    <Card
      size="small"
      title={
        <span role="heading" aria-level={2}>
          {group}
        </span>
      }
      data-testid="check-group"
      data-group={group}
    >
      <Flex vertical gap={0}>
        {shown.map((check, index) => {
          const summary = summaryLine(check);
          const enabled = check.status.type !== 'disabled_check';
          return (
            <Flex
              key={check.id}
              align="center"
              gap={12}
              data-testid="check-row"
              data-check-id={check.id}
              style={{
                padding: '8px 0',
                borderTop: index === 0 ? undefined : `1px solid ${token.colorBorderSecondary}`,
              }}
            >
              <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                <Flex align="center" gap={8} wrap="wrap">
                  <Link to={checkPath(check.id)}>
                    <Typography.Text strong>{check.name}</Typography.Text>
                  </Link>
                  <StatusTag status={check.status.type} />
                </Flex>
                {summary && (
                  <Typography.Text type="secondary" ellipsis={{ tooltip: summary }}>
                    {summary}
                  </Typography.Text>
                )}
              </Flex>
              <DisabledTooltip reason={lockedReason}>
                <Switch
                  size="small"
                  checked={enabled}
                  aria-label={strings.enableCheck(check.name)}
                  disabled={lockedReason !== null}
                  loading={togglingId === check.id}
                  onChange={(next) => onToggle(check, next)}
                />
              </DisabledTooltip>
            </Flex>
          );
        })}
        {collapsible && (
          <div>
            <Button type="link" style={{ paddingInline: 0 }} onClick={() => setExpanded((v) => !v)}>
              {expanded ? strings.showLess(extra) : strings.showMore(extra)}
            </Button>
          </div>
        )}
      </Flex>
    </Card>
  );
}
