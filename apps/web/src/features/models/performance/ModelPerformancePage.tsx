// The Model performance page (docs/product.md, Models §2): a split selector, a banner when
// predictions are missing and while the report is computed, the IoU threshold of object tasks,
// then Statistics, Overall, Fine-grained, Subset and Metadata Performance.
import type { Dataset, PredictionSet } from '@loupe/contracts';
import { TASK_TRAITS } from '@loupe/contracts';
import { Alert, Flex, Progress, Select, Typography, theme } from 'antd';
import { useState } from 'react';
import { IouThresholdSetting } from '../../datasets';
import { ModelPageFrame } from '../ModelPageFrame';
import { useFinegrainedPerformance } from './hooks/useFinegrainedPerformance';
import { useOverallPerformance } from './hooks/useOverallPerformance';
import { usePerformanceStatistics } from './hooks/usePerformanceStatistics';
import { defaultSplit, splitOptions } from './performanceRules';
import { FinegrainedSection } from './sections/FinegrainedSection';
import { MetadataPerformanceSection } from './sections/MetadataPerformanceSection';
import { OverallPerformanceSection } from './sections/OverallPerformanceSection';
import { StatisticsSection } from './sections/StatisticsSection';
import { SubsetPerformanceSection } from './sections/SubsetPerformanceSection';
import { performanceStrings as strings } from './strings';

export function ModelPerformancePage() {
  return (
    <ModelPageFrame title={strings.title} testId="model-performance">
      {({ dataset, model }) => <PerformanceContent dataset={dataset} model={model} />}
    </ModelPageFrame>
  );
}

function PerformanceContent({ dataset, model }: { dataset: Dataset; model: PredictionSet }) {
  const { token } = theme.useToken();
  // A dataset answered without splits has only 'all'.
  const splits = splitOptions(dataset.splits ?? []);
  const [split, setSplit] = useState(() => defaultSplit(splits));
  const statistics = usePerformanceStatistics(dataset.id, model.id);
  const overall = useOverallPerformance(dataset.id, model.id);
  const finegrained = useFinegrainedPerformance(dataset.id, model.id);
  const report = statistics.data;

  return (
    <Flex vertical gap={16}>
      {report?.status === 'computing' && (
        <Alert
          type="info"
          showIcon
          title={strings.computing}
          description={
            <Progress
              percent={Math.round(report.progress * 100)}
              size="small"
              aria-label={strings.progress(Math.round(report.progress * 100))}
            />
          }
          data-testid="performance-computing"
        />
      )}
      {report?.status === 'failed' && (
        <Alert type="error" showIcon title={strings.failed} description={report.error} />
      )}
      {report && report.num_missing > 0 && (
        <Alert
          type="warning"
          showIcon
          title={
            report.num_missing >= report.num_items
              ? strings.noPredictions
              : strings.missingPredictions(report.num_missing, report.num_items)
          }
          data-testid="performance-missing"
        />
      )}
      <Flex gap={16} align="center" wrap="wrap">
        <Flex gap={8} align="center">
          <Typography.Text>{strings.split}</Typography.Text>
          <Select
            aria-label={strings.split}
            value={split}
            onChange={setSplit}
            style={{ minWidth: 160 }}
            options={splits.map((name) => ({
              value: name,
              label: name === 'all' ? strings.splitAll : name,
            }))}
          />
        </Flex>
      </Flex>
      {TASK_TRAITS[dataset.task_type].hasObjects && (
        <div
          style={{
            background: token.colorBgContainer,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
            padding: '0 16px',
          }}
        >
          <IouThresholdSetting datasetId={dataset.id} models={dataset.predictions_count ?? 0} />
        </div>
      )}
      <StatisticsSection task={dataset.task_type} split={split} statistics={statistics} />
      <OverallPerformanceSection task={dataset.task_type} split={split} overall={overall} />
      <FinegrainedSection dataset={dataset} split={split} finegrained={finegrained} />
      <SubsetPerformanceSection dataset={dataset} predictionSetId={model.id} split={split} />
      <MetadataPerformanceSection dataset={dataset} predictionSetId={model.id} split={split} />
    </Flex>
  );
}
