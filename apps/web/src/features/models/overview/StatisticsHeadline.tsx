// The model's headline numbers on its overview: the task's visible statistics over all splits,
// from the job-computed report (asked again every 2 s while it is computing), with a link to the
// Performance page.
import {
  ALL_SPLITS,
  PERFORMANCE_MESSAGES,
  type StatisticsResponse,
  type TaskType,
} from '@loupe/contracts';
import { formatByType, metricTitle, PERFORMANCE_METRICS } from '@loupe/metrics';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Flex, Progress, Row, Spin, Statistic, Typography } from 'antd';
import { Link } from 'react-router';
import { performanceStatisticsQuery } from '../../../api/queries/performance';
import { describeError } from '../../../api/ApiError';
import { commonStrings } from '../../../components/strings';
import { overviewStrings as strings } from './strings';

/** The value of each of the task's visible statistics over all splits ('–' when undefined). */
export function headlineStatistics(
  task: TaskType,
  response: Pick<StatisticsResponse, 'statistics'>,
): { metric: string; title: string; value: string }[] {
  return PERFORMANCE_METRICS[task].statistics.visible.map((metric) => {
    const value = response.statistics
      .find((statistic) => statistic.metric_name === metric)
      ?.values.find((entry) => entry.split_name === ALL_SPLITS)?.value;
    return {
      metric,
      title: metricTitle(task, metric),
      value: value === null || value === undefined ? '–' : formatByType(metric, value),
    };
  });
}

/**
 * Col spans of `cards` headline cards that share their row evenly: all in one row from tablets up
 * (a task shows at most 4), two a row on phones.
 */
export function headlineSpans(cards: number): { xs: number; md: number } {
  const columns = Math.max(1, Math.min(cards, 4));
  return { xs: 24 / Math.min(columns, 2), md: 24 / columns };
}

export function StatisticsHeadline({
  datasetId,
  predictionSetId,
  task,
  hasPredictions,
}: {
  datasetId: string;
  predictionSetId: string;
  task: TaskType;
  hasPredictions: boolean;
}) {
  const statistics = useQuery({
    ...performanceStatisticsQuery(datasetId, predictionSetId),
    enabled: hasPredictions,
  });
  const data = statistics.data;

  let body: React.ReactNode;
  if (!hasPredictions) {
    body = <Typography.Text type="secondary">{PERFORMANCE_MESSAGES.noPredictions}</Typography.Text>;
  } else if (statistics.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={strings.statisticsFailed}
        description={describeError(statistics.error)}
        action={
          <Button size="small" onClick={() => void statistics.refetch()}>
            {commonStrings.retry}
          </Button>
        }
      />
    );
  } else if (!data) {
    body = (
      <Flex justify="center" style={{ padding: 16 }}>
        <Spin />
      </Flex>
    );
  } else if (data.status === 'computing') {
    body = (
      <Alert
        type="info"
        showIcon
        data-testid="statistics-computing"
        title={PERFORMANCE_MESSAGES.computing}
        description={<Progress percent={Math.round(data.progress * 100)} size="small" />}
      />
    );
  } else if (data.status === 'failed') {
    body = (
      <Alert type="error" showIcon title={PERFORMANCE_MESSAGES.failed} description={data.error} />
    );
  } else {
    const headline = headlineStatistics(task, data);
    body = (
      <Flex vertical gap={12}>
        <Row gutter={[12, 12]}>
          {headline.map(({ metric, title, value }) => (
            <Col key={metric} {...headlineSpans(headline.length)}>
              <Card size="small" style={{ height: '100%' }} data-testid={`headline-${metric}`}>
                <Statistic title={title} value={value} />
              </Card>
            </Col>
          ))}
        </Row>
        {data.num_missing > 0 && (
          <Typography.Text type="secondary">
            {PERFORMANCE_MESSAGES.missingPredictions(data.num_missing, data.num_items)}
          </Typography.Text>
        )}
      </Flex>
    );
  }

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="baseline">
          {strings.performance}
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {strings.allSplits}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Link
          to={`/models/datasets/${encodeURIComponent(datasetId)}/predictions/${encodeURIComponent(predictionSetId)}/performance`}
        >
          {strings.viewPerformance}
        </Link>
      }
    >
      {body}
    </Card>
  );
}
