// The banner above the grid while the explorer is in a comparison of two models: both models
// with their colours and names, which one this explorer shows, the compared split and metric, a
// link back to the comparison page and a button that leaves the comparison (the explorer stays,
// with its filter, sort and cards, showing the route's model alone).
import { CloseOutlined, SwapLeftOutlined } from '@ant-design/icons';
import { getMetric } from '@loupe/metrics';
import { Button, Flex, Typography, theme } from 'antd';
import { Link } from 'react-router';
import { ComparedModelsLegend } from '../../../components/ComparedPredictions';
import type { ComparedModels } from '../../../lib/comparedModels';
import { compareStrings as strings } from './strings';

/** The comparison page of the two models (the models feature's route). */
export function comparisonPath(datasetId: string, models: ComparedModels): string {
  const root = `/models/datasets/${encodeURIComponent(datasetId)}/predictions`;
  return `${root}/${encodeURIComponent(models.a.id)}/compare/${encodeURIComponent(models.b.id)}`;
}

export function CompareBanner({
  datasetId,
  models,
  onLeave,
}: {
  datasetId: string;
  models: ComparedModels;
  onLeave(): void;
}) {
  const { token } = theme.useToken();
  const shown = models.own === 'A' ? models.a : models.b;
  const { split, metric, regression_value_name: valueName } = models.request;
  const details = [
    `${strings.split}: ${!split || split === 'all' ? strings.allSplits : split}`,
    // The metric's title as the comparison page shows it ('mAP', not 'mAP_COCO').
    ...(metric ? [`${strings.metric}: ${getMetric(metric)?.title ?? metric}`] : []),
    ...(valueName ? [`${strings.valueName}: ${valueName}`] : []),
  ];
  return (
    <Flex
      role="region"
      aria-label={strings.banner}
      data-testid="compare-banner"
      data-shown-model={shown.key}
      align="center"
      gap={16}
      wrap="wrap"
      style={{
        padding: '6px 12px',
        marginBottom: 8,
        borderRadius: token.borderRadius,
        border: `1px solid ${token.colorInfoBorder}`,
        background: token.colorInfoBg,
      }}
    >
      <Typography.Text strong>{strings.banner}</Typography.Text>
      <ComparedModelsLegend models={[models.a, models.b]} names />
      <Typography.Text data-testid="compare-shown">
        {strings.showing(shown.key, shown.name)}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid="compare-details">
        {details.join(' · ')}
      </Typography.Text>
      <Flex gap={8} style={{ marginLeft: 'auto' }}>
        <Link to={comparisonPath(datasetId, models)} style={{ alignSelf: 'center' }}>
          <SwapLeftOutlined /> {strings.backToComparison}
        </Link>
        <Button size="small" icon={<CloseOutlined />} onClick={onLeave}>
          {strings.leaveComparison}
        </Button>
      </Flex>
    </Flex>
  );
}
