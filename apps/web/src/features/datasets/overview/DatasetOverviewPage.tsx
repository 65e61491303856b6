// The dataset overview (docs/product.md, Datasets §2): header with task, name, description and when it
// changed; previews; statistics; Version History beside it; then Settings.
import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Flex, Row, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { subsetsQuery } from '../../../api/queries/subsets';
import { isNotFound, NotFoundState } from '../../../app/errors/NotFoundState';
import { DelayedLoading } from '../../../components/DelayedLoading';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { Page } from '../../../components/Page';
import { TaskTag } from '../../../components/TaskTag';
import { formatRelativeTime } from '../../../lib/relativeTime';
import { emitTestEvent } from '../../../lib/testEvents';
import { useDataset } from '../hooks/useDataset';
import { datasetStrings as strings } from '../strings';
import { DeleteDatasetSetting } from './DeleteDatasetSetting';
import { HealthChecksCard } from './HealthChecksCard';
import { hasIouThreshold } from './iouRules';
import { IouThresholdSetting } from './IouThresholdSetting';
import { PreviewRow } from './PreviewRow';
import { StatisticsRow } from './StatisticsRow';
import { ThumbnailsSetting } from './ThumbnailsSetting';
import { VersionHistory } from './VersionHistory';

const SIDEBAR_WIDTH = 320;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section>
      <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 12 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

const countOf = (list: unknown[]) => list.length;

export function DatasetOverviewPage() {
  const { datasetId = '' } = useParams();
  const { token } = theme.useToken();
  const dataset = useDataset(datasetId);
  const subsetCount = useQuery({ ...subsetsQuery(datasetId), select: countOf }).data ?? 0;
  const historyRef = useRef<HTMLDivElement>(null);
  const data = dataset.data;

  useEffect(() => {
    if (data) {
      emitTestEvent({
        type: 'dataset-overview:rendered',
        datasetId: data.id,
        previews: data.preview_urls.length,
      });
    }
  }, [data]);

  const crumbs = [{ title: strings.datasets, to: '/datasets' }];
  if (dataset.isError) {
    return (
      <Page title={strings.overview} breadcrumbs={crumbs}>
        {isNotFound(dataset.error) ? (
          <NotFoundState title={strings.datasetNotFound} />
        ) : (
          <ErrorFallback
            title={strings.datasetNotFound}
            error={dataset.error}
            onRetry={() => void dataset.refetch()}
          />
        )}
      </Page>
    );
  }
  if (!data) {
    return (
      <Page title={strings.overview} breadcrumbs={crumbs}>
        <DelayedLoading />
      </Page>
    );
  }

  const openHistory = () => {
    historyRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    historyRef.current?.focus({ preventScroll: true });
  };
  const models = data.predictions_count;

  return (
    <Page
      title={strings.overview}
      breadcrumbs={[...crumbs, { title: data.name, to: `/datasets/${data.id}/overview` }]}
      testId="dataset-overview"
    >
      <Flex gap={24} align="flex-start" wrap="wrap">
        <aside
          style={{ width: SIDEBAR_WIDTH, flexShrink: 0, position: 'sticky', top: 104 }}
          aria-label={strings.versionHistory}
        >
          <Card
            ref={historyRef}
            tabIndex={-1}
            title={strings.versionHistory}
            size="small"
            styles={{ body: { maxHeight: 'calc(100vh - 200px)', overflowY: 'auto' } }}
          >
            <VersionHistory datasetId={data.id} />
          </Card>
        </aside>
        <Flex vertical gap={28} style={{ flex: 1, minWidth: 480 }}>
          <Flex vertical gap={6}>
            <div>
              <TaskTag task={data.task_type} />
            </div>
            <Typography.Title level={2} style={{ margin: 0 }} data-testid="dataset-name">
              {data.name}
            </Typography.Title>
            <Typography.Paragraph
              type="secondary"
              style={{ margin: 0, maxWidth: 820 }}
              ellipsis={{ rows: 3, expandable: true }}
            >
              {data.description || strings.noDescription}
            </Typography.Paragraph>
            <div>
              <Button
                type="link"
                icon={<ClockCircleOutlined />}
                onClick={openHistory}
                style={{ paddingInline: 0 }}
              >
                {strings.updated(formatRelativeTime(data.updated_ts * 1000))}
              </Button>
            </div>
          </Flex>
          <PreviewRow dataset={data} />
          <Section title={strings.statistics}>
            <StatisticsRow dataset={data} subsets={subsetCount} />
          </Section>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <HealthChecksCard datasetId={data.id} />
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title={strings.concepts} style={{ height: '100%' }}>
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={
                    <Flex vertical>
                      <Typography.Text>{strings.noConcepts}</Typography.Text>
                      <Typography.Text type="secondary">{strings.conceptsLater}</Typography.Text>
                    </Flex>
                  }
                />
              </Card>
            </Col>
          </Row>
          <Section title={strings.settings}>
            <div
              style={{
                background: token.colorBgContainer,
                border: `1px solid ${token.colorBorderSecondary}`,
                borderRadius: token.borderRadiusLG,
                padding: '0 20px',
              }}
            >
              {hasIouThreshold(data.task_type) && (
                <IouThresholdSetting datasetId={data.id} models={models} />
              )}
              {/* Every task has thumbnails: images, and spectrograms for audio. */}
              <ThumbnailsSetting
                datasetId={data.id}
                expectingThumbnails={
                  data.thumbnails_enabled &&
                  (data.samples_count ?? 0) > 0 &&
                  data.preview_urls.length === 0
                }
              />
              <DeleteDatasetSetting dataset={data} />
            </div>
          </Section>
        </Flex>
      </Flex>
    </Page>
  );
}
