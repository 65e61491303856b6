// The overview's health-check section (docs/health-checks.md, "Overview"): failed and passed
// counts, the passing percentage and a link to the checks list; 'No health checks found' when the
// dataset has none, and a one-line failure note when they did not load.
import { CHECK_MESSAGES } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Progress, Skeleton, Statistic } from 'antd';
import { Link } from 'react-router';
import { healthChecksQuery } from '../../../api/queries/healthChecks';

const cardStrings = {
  title: 'Health Checks',
  failed: 'Failed',
  passed: 'Passed',
  passing: 'Passing',
  viewAll: 'View health checks',
} as const;

export function HealthChecksCard({ datasetId }: { datasetId: string }) {
  const checks = useQuery(healthChecksQuery(datasetId));
  const listPath = `/datasets/${encodeURIComponent(datasetId)}/checks`;
  const summary = checks.data?.summary;
  let body: React.ReactNode;
  if (checks.isError) body = <Alert type="error" showIcon title={CHECK_MESSAGES.listFailed} />;
  else if (!checks.data || !summary) body = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (checks.data.checks.length === 0)
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={CHECK_MESSAGES.noChecks} />;
  else
    body = (
      <Flex gap={32} align="center" wrap="wrap" data-testid="overview-checks">
        <Progress
          type="circle"
          size={72}
          percent={summary.passing_percentage ?? 0}
          format={() =>
            summary.passing_percentage === null ? '–' : `${summary.passing_percentage}%`
          }
          aria-label={cardStrings.passing}
        />
        <Statistic title={cardStrings.failed} value={summary.num_failed} />
        <Statistic title={cardStrings.passed} value={summary.num_passed} />
      </Flex>
    );
  return (
    <Card
      size="small"
      title={cardStrings.title}
      style={{ height: '100%' }}
      extra={
        <Link to={listPath}>
          <Button size="small" type="link">
            {cardStrings.viewAll}
          </Button>
        </Link>
      }
    >
      {body}
    </Card>
  );
}
