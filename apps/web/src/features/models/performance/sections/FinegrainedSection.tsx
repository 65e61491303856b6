// Fine-grained Performance: the chosen split's precision-recall or ROC curves, or its error, WER
// or IoU distribution, one series per class, word or value name.
import type { Dataset, FinegrainedPerformanceResponse } from '@loupe/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Empty } from 'antd';
import { useMemo } from 'react';
import { ErrorFallback } from '../../../../components/ErrorFallback';
import { labelColor } from '../../../../lib/classColors';
import { EChart } from '../charts/EChart';
import { FINEGRAINED_CHART_HEIGHT, finegrainedChart } from '../charts/finegrainedChart';
import { useChartColors } from '../charts/useChartColors';
import { ComputingState } from '../components/ComputingState';
import { SectionCard } from '../components/SectionCard';
import { performanceStrings as strings } from '../strings';

// Stable, so the chart's option (and the legend choices a user made) survive re-renders.
const NO_CLASSES: string[] = [];

export interface FinegrainedSectionProps {
  dataset: Dataset;
  split: string;
  finegrained: UseQueryResult<FinegrainedPerformanceResponse>;
}

export function FinegrainedSection({ dataset, split, finegrained }: FinegrainedSectionProps) {
  const colors = useChartColors();
  const data = finegrained.data;
  const entry = data?.split_performance.find((item) => item.split_name === split);
  const classNames = dataset.class_names ?? NO_CLASSES;
  const option = useMemo(
    () =>
      data && entry
        ? finegrainedChart({
            task: dataset.task_type,
            kind: data.kind,
            dimensionNames: data.dimension_names,
            performance: entry.performance,
            average: entry.average_performance,
            colorOf: (name) => labelColor(name, undefined, classNames),
            colors,
          })
        : null,
    [data, entry, classNames, colors, dataset.task_type],
  );

  let body: React.ReactNode;
  if (finegrained.isError) {
    body = (
      <ErrorFallback
        title={strings.finegrainedFailed}
        error={finegrained.error}
        onRetry={() => void finegrained.refetch()}
      />
    );
  } else if (!data || (data.status === 'computing' && data.split_performance.length === 0)) {
    body = <ComputingState progress={data?.progress ?? 0} />;
  } else if (data.status === 'failed') {
    body = <Alert type="error" showIcon title={strings.failed} description={data.error} />;
  } else if (!option || !entry || entry.performance.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noData} />;
  } else {
    body = <EChart option={option} height={FINEGRAINED_CHART_HEIGHT} label={strings.finegrained} />;
  }

  return (
    <SectionCard title={strings.finegrained} label={strings.finegrained}>
      {body}
    </SectionCard>
  );
}
