// A dataset in the list: name, task, up to 3 previews, when it changed and its counts.
import { DatabaseOutlined } from '@ant-design/icons';
import type { Dataset } from '@loupe/contracts';
import { Card, Flex, Tag, Typography, theme } from 'antd';
import { Link } from 'react-router';
import { TaskTag } from '../../../components/TaskTag';
import { formatRelativeTime } from '../../../lib/relativeTime';
import { PreviewImage } from '../PreviewImage';
import { datasetStrings as strings } from '../strings';

const PREVIEW_HEIGHT = 104;

export function datasetCounts(dataset: Dataset): string[] {
  return [
    strings.samples(dataset.samples_count ?? 0),
    dataset.classes_count > 0 ? strings.classes(dataset.classes_count) : null,
    dataset.objects_count > 0 ? strings.objects(dataset.objects_count) : null,
    dataset.predictions_count > 0 ? strings.predictions(dataset.predictions_count) : null,
  ].filter((text): text is string => text !== null);
}

export function DatasetCard({ dataset, now }: { dataset: Dataset; now: number }) {
  const { token } = theme.useToken();
  const previews = dataset.preview_urls.slice(0, 3);
  return (
    <Link
      to={`/datasets/${encodeURIComponent(dataset.id)}/overview`}
      aria-label={dataset.name}
      data-testid="dataset-card"
      style={{ display: 'block', height: '100%' }}
    >
      <Card hoverable style={{ height: '100%' }} styles={{ body: { padding: 16 } }}>
        <Flex vertical gap={12}>
          <Flex gap={4} style={{ height: PREVIEW_HEIGHT }}>
            {previews.length > 0 ? (
              previews.map((url) => (
                <PreviewImage key={url} src={url} style={{ flex: 1, height: PREVIEW_HEIGHT }} />
              ))
            ) : (
              <Flex
                vertical
                align="center"
                justify="center"
                gap={4}
                style={{
                  flex: 1,
                  background: token.colorFillQuaternary,
                  borderRadius: token.borderRadiusSM,
                  color: token.colorTextQuaternary,
                }}
              >
                <DatabaseOutlined style={{ fontSize: 22 }} />
                <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                  {strings.noPreview}
                </Typography.Text>
              </Flex>
            )}
          </Flex>
          <Flex vertical gap={4}>
            <Flex align="center" justify="space-between" gap={8}>
              <Typography.Text strong ellipsis style={{ fontSize: token.fontSizeLG }}>
                {dataset.name}
              </Typography.Text>
              <TaskTag task={dataset.task_type} style={{ flexShrink: 0 }} />
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {strings.updated(formatRelativeTime(dataset.updated_ts * 1000, now))}
            </Typography.Text>
          </Flex>
          <Flex gap={6} wrap data-testid="dataset-counts">
            {datasetCounts(dataset).map((text) => (
              <Tag key={text} bordered={false} style={{ marginInlineEnd: 0 }}>
                {text}
              </Tag>
            ))}
          </Flex>
        </Flex>
      </Card>
    </Link>
  );
}

/** The 4 cards shown while the list loads. */
export function DatasetCardPlaceholder() {
  return (
    <Card loading style={{ height: '100%' }} data-testid="dataset-card-placeholder">
      <div style={{ height: PREVIEW_HEIGHT }} />
    </Card>
  );
}
