// Metadata Performance (docs/product.md, Models §2, §5, §9): the chosen metrics per bin of any
// metadata field of a data level, in the chosen split, as bars; at least one metric stays chosen;
// object tasks use IoU 0.5; clicking a bar opens the model's explorer on the bin's items.
import { InfoCircleOutlined } from '@ant-design/icons';
import { DATA_LEVELS, TASK_TRAITS, type Dataset, type DataLevel } from '@loupe/contracts';
import { METADATA_PERFORMANCE_IOU, metricTitle, PERFORMANCE_METRICS } from '@loupe/metrics';
import { Empty, Flex, Segmented, Select, Spin, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorFallback } from '../../../../components/ErrorFallback';
import { EChart, type ChartClick } from '../charts/EChart';
import { metadataChart } from '../charts/metadataChart';
import { useChartColors } from '../charts/useChartColors';
import { SectionCard } from '../components/SectionCard';
import { useMetadataFields } from '../hooks/useMetadataFields';
import { useMetadataPerformance } from '../hooks/useMetadataPerformance';
import { defaultMetadataField, exploreConfigPath, modelRoot } from '../performanceRules';
import { performanceStrings as strings } from '../strings';

export interface MetadataPerformanceSectionProps {
  dataset: Dataset;
  predictionSetId: string;
  split: string;
}

export function MetadataPerformanceSection({
  dataset,
  predictionSetId,
  split,
}: MetadataPerformanceSectionProps) {
  const navigate = useNavigate();
  const colors = useChartColors();
  const task = dataset.task_type;
  const levels = DATA_LEVELS[task];
  const sliceMetrics = PERFORMANCE_METRICS[task].slice;
  const [level, setLevel] = useState<DataLevel>(levels[0] ?? 'image');
  const [chosenField, setChosenField] = useState<Partial<Record<DataLevel, string>>>({});
  const [metrics, setMetrics] = useState<string[]>(sliceMetrics.slice(0, 1));
  const fields = useMetadataFields(dataset.id, level, predictionSetId);
  const fieldList = fields.data?.metadata_config ?? [];
  const fieldId = chosenField[level] ?? defaultMetadataField(fieldList);
  const performance = useMetadataPerformance(dataset.id, predictionSetId, {
    dataLevel: level,
    metadataId: fieldId,
    metrics,
  });

  const chart = useMemo(
    () =>
      performance.data
        ? metadataChart({ task, response: performance.data, metrics, split, colors })
        : null,
    [task, performance.data, metrics, split, colors],
  );
  const root = modelRoot(dataset.id, predictionSetId);
  const onBarClick = useCallback(
    ({ seriesIndex, dataIndex }: ChartClick) => {
      const config = chart?.exploreConfig(seriesIndex, dataIndex);
      if (config) void navigate(exploreConfigPath(root, config));
    },
    [chart, navigate, root],
  );
  const noMetric = metrics.length === 0;

  let body: React.ReactNode;
  if (fields.isError || performance.isError) {
    body = (
      <ErrorFallback
        title={strings.metadataFailed}
        error={fields.error ?? performance.error}
        onRetry={() => void (fields.isError ? fields.refetch() : performance.refetch())}
      />
    );
  } else if (noMetric) {
    body = null;
  } else if (fields.data && fieldId === undefined) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noMetadata} />;
  } else if (!chart) {
    body = (
      <Flex justify="center" style={{ padding: 24 }}>
        <Spin />
      </Flex>
    );
  } else if (performance.data?.performance_per_bin.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noData} />;
  } else {
    body = (
      <Spin spinning={performance.isPlaceholderData}>
        <EChart
          option={chart.option}
          height={chart.height}
          label={strings.metadata}
          onClick={onBarClick}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {strings.exploreBin}
        </Typography.Text>
      </Spin>
    );
  }

  const title = TASK_TRAITS[task].hasObjects ? (
    <Flex gap={6} align="center">
      {strings.metadata}
      <Tooltip title={strings.metadataIou(METADATA_PERFORMANCE_IOU)}>
        <InfoCircleOutlined aria-label={strings.metadataIou(METADATA_PERFORMANCE_IOU)} />
      </Tooltip>
    </Flex>
  ) : (
    strings.metadata
  );

  return (
    <SectionCard title={title} label={strings.metadata}>
      <Flex vertical gap={12}>
        <Flex gap={12} wrap="wrap" align="flex-start">
          {levels.length > 1 && (
            <Segmented<DataLevel>
              aria-label={strings.dataLevel}
              value={level}
              options={levels.map((value) => ({ value, label: strings.levels[value] }))}
              onChange={setLevel}
            />
          )}
          <Select
            showSearch
            aria-label={strings.metadataField}
            placeholder={strings.metadataField}
            loading={fields.isPending}
            value={fieldId}
            style={{ minWidth: 220 }}
            optionFilterProp="label"
            options={fieldList.map((field) => ({
              value: field.id,
              label: field.label,
              disabled: field.state === 'pending',
            }))}
            onChange={(next: string) =>
              setChosenField((current) => ({ ...current, [level]: next }))
            }
          />
          <Flex vertical gap={2}>
            <Select
              mode="multiple"
              aria-label={strings.metrics}
              placeholder={strings.metrics}
              value={metrics}
              status={noMetric ? 'error' : undefined}
              style={{ minWidth: 280 }}
              options={sliceMetrics.map((id) => ({ value: id, label: metricTitle(task, id) }))}
              onChange={(next: string[]) =>
                setMetrics(sliceMetrics.filter((id) => next.includes(id)))
              }
            />
            {noMetric && (
              <Typography.Text type="danger" role="alert" style={{ fontSize: 12 }}>
                {strings.atLeastOneMetric}
              </Typography.Text>
            )}
          </Flex>
        </Flex>
        {body}
      </Flex>
    </SectionCard>
  );
}
