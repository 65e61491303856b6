// The Model comparison page (docs/model-comparison.md, "The comparison page"): model A from the
// route, model B from the Compare menu (or the picker shown without one); split, metric and
// regression value name; then Overall, Subset Performance, the per-class or per-word breakdown,
// the per-item sections of the task and the other metrics. The comparison is computed by a job
// and polled while 'computing'.
import { ReadOutlined } from '@ant-design/icons';
import type { ComparisonRequest, Dataset, PredictionSet } from '@loupe/contracts';
import { COMPARISON_METRICS, metricTitle } from '@loupe/metrics';
import { Alert, Button, Flex, Progress, Select, Typography } from 'antd';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useLicense } from '../../../api/hooks/useLicense';
import { DelayedLoading } from '../../../components/DelayedLoading';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { Page } from '../../../components/Page';
import { readStorage, writeStorage } from '../../../lib/storage';
import { useDatasetModels } from '../../datasets';
import { useModelPageFrame } from '../ModelPageFrame';
import { defaultSplit, splitOptions } from '../performance/performanceRules';
import { CompareMenu } from './components/CompareMenu';
import { ModelPicker } from './components/ModelPicker';
import { useComparison } from './hooks/useComparison';
import { EntityBreakdownSection, PerClassUnavailable } from './sections/EntityBreakdownSection';
import { ItemSection } from './sections/ItemSection';
import { OtherMetricsSection } from './sections/OtherMetricsSection';
import { OverallSection } from './sections/OverallSection';
import { SubsetComparisonSection } from './sections/SubsetComparisonSection';
import { compareStrings as strings } from './strings';

/** Where the guide's open or closed state is kept between visits. */
const GUIDE_KEY = 'loupe.compare.guideOpen';
/** The value name select's entry for every value name (averaged). */
const ALL_VALUE_NAMES = '';

export function ModelComparisonPage() {
  const frame = useModelPageFrame(strings.title, { loadFailedTitle: strings.failedToLoad });
  const { comparePredictionSetId } = useParams();
  const models = useDatasetModels(frame.datasetId);
  const licensed = useLicense().data?.state === 'LICENSED';
  if (frame.failure) return frame.failure;
  const { dataset, model } = frame;
  const others = (models.data ?? []).filter((other) => other.id !== frame.predictionSetId);
  const modelB = models.data?.find((other) => other.id === comparePredictionSetId);

  return (
    <Page
      title={strings.title}
      breadcrumbs={frame.crumbs}
      testId="model-comparison"
      tools={
        <CompareMenu
          datasetId={frame.datasetId}
          modelA={frame.predictionSetId}
          others={others}
          current={modelB && modelB.id !== frame.predictionSetId ? modelB : undefined}
          licensed={licensed}
        />
      }
    >
      {dataset && model && models.data ? (
        <ComparisonContent
          // A new pair starts from the dataset's default split and the task's first metric.
          key={comparePredictionSetId ?? ''}
          dataset={dataset}
          modelA={model}
          modelBId={comparePredictionSetId}
          modelB={modelB}
          others={others}
          licensed={licensed}
        />
      ) : (
        <DelayedLoading />
      )}
    </Page>
  );
}

interface ComparisonContentProps {
  dataset: Dataset;
  modelA: PredictionSet;
  modelBId: string | undefined;
  modelB: PredictionSet | undefined;
  others: PredictionSet[];
  licensed: boolean;
}

function ComparisonContent({
  dataset,
  modelA,
  modelBId,
  modelB,
  others,
  licensed,
}: ComparisonContentProps) {
  const task = dataset.task_type;
  const splits = splitOptions(dataset.splits ?? []);
  const metrics = COMPARISON_METRICS[task];
  const valueNames = dataset.regression_value_names ?? [];
  const [split, setSplit] = useState(() => defaultSplit(splits));
  const [metric, setMetric] = useState(metrics[0]!);
  const [valueName, setValueName] = useState(ALL_VALUE_NAMES);
  const [guideOpen, setGuideOpen] = useState(() => readStorage(GUIDE_KEY) !== 'false');
  const sameModel = modelBId !== undefined && modelBId === modelA.id;
  const ready = modelB !== undefined && !sameModel;

  const body: ComparisonRequest = {
    predictions_id_a: modelA.id,
    predictions_id_b: modelB?.id ?? modelA.id,
    split,
    metric,
    ...(task === 'regression' && valueName !== ALL_VALUE_NAMES
      ? { regression_value_name: valueName }
      : {}),
  };
  const comparison = useComparison(dataset.id, body, ready);

  const toggleGuide = () => {
    setGuideOpen((open) => {
      writeStorage(GUIDE_KEY, String(!open));
      return !open;
    });
  };

  const picker = (
    <ModelPicker datasetId={dataset.id} modelA={modelA.id} others={others} licensed={licensed} />
  );
  let content: React.ReactNode;
  if (modelBId === undefined) {
    content = picker;
  } else if (sameModel) {
    content = (
      <>
        <Alert type="warning" showIcon title={strings.sameModel} data-testid="same-model" />
        {picker}
      </>
    );
  } else if (!modelB) {
    content = (
      <>
        <Alert
          type="error"
          showIcon
          title={strings.modelNotFound(modelBId)}
          data-testid="model-b-not-found"
        />
        {picker}
      </>
    );
  } else if (comparison.isError) {
    content = (
      <ErrorFallback
        title={strings.failedToLoad}
        error={comparison.error}
        onRetry={() => void comparison.refetch()}
      />
    );
  } else if (!comparison.data) {
    content = <DelayedLoading />;
  } else {
    const data = comparison.data;
    const percent = Math.round(data.progress * 100);
    content = (
      <>
        {data.status === 'computing' && (
          <Alert
            type="info"
            showIcon
            title={strings.computing}
            description={
              <Progress percent={percent} size="small" aria-label={strings.progress(percent)} />
            }
            data-testid="comparison-computing"
          />
        )}
        {data.status === 'failed' && (
          <Alert
            type="error"
            showIcon
            title={strings.failed}
            description={data.error}
            data-testid="comparison-failed"
          />
        )}
        {data.status === 'ready' && (
          <>
            <OverallSection
              task={task}
              metric={data.metric}
              delta={data.overall[data.metric]}
              modelA={modelA}
              modelB={modelB}
            />
            <SubsetComparisonSection
              dataset={dataset}
              modelA={modelA.id}
              modelB={modelB.id}
              split={split}
            />
            {data.per_class_unavailable && <PerClassUnavailable />}
            {data.per_class && (
              <EntityBreakdownSection
                key={`class-${data.split}-${data.metric}`}
                datasetId={dataset.id}
                task={task}
                breakdown={data.per_class}
              />
            )}
            {data.per_word && (
              <EntityBreakdownSection
                key={`word-${data.split}-${data.metric}`}
                datasetId={dataset.id}
                task={task}
                breakdown={data.per_word}
              />
            )}
            {[data.per_sample, data.per_object_gt, data.per_object_pred].map((section) =>
              section ? (
                <ItemSection
                  key={`${section.unit}-${data.split}-${data.metric}-${data.regression_value_name}`}
                  datasetId={dataset.id}
                  task={task}
                  section={section}
                />
              ) : null,
            )}
            {data.other_metrics && Object.keys(data.other_metrics).length > 0 && (
              <OtherMetricsSection task={task} metrics={data.other_metrics} />
            )}
          </>
        )}
      </>
    );
  }

  return (
    <Flex vertical gap={16}>
      <Flex gap={16} align="center" wrap="wrap">
        <Control label={strings.split}>
          <Select
            aria-label={strings.split}
            value={split}
            onChange={setSplit}
            disabled={!ready}
            style={{ minWidth: 140 }}
            options={splits.map((name) => ({
              value: name,
              label: name === 'all' ? strings.splitAll : name,
            }))}
          />
        </Control>
        <Control label={strings.metric}>
          <Select
            aria-label={strings.metric}
            value={metric}
            onChange={setMetric}
            disabled={!ready}
            style={{ minWidth: 180 }}
            options={metrics.map((id) => ({ value: id, label: metricTitle(task, id) }))}
          />
        </Control>
        {task === 'regression' && (
          <Control label={strings.valueName}>
            <Select
              aria-label={strings.valueName}
              value={valueName}
              onChange={setValueName}
              disabled={!ready}
              style={{ minWidth: 180 }}
              options={[
                { value: ALL_VALUE_NAMES, label: strings.allValueNames },
                ...valueNames.map((name) => ({ value: name, label: name })),
              ]}
            />
          </Control>
        )}
        <Button
          icon={<ReadOutlined />}
          aria-expanded={guideOpen}
          onClick={toggleGuide}
          style={{ marginInlineStart: 'auto' }}
        >
          {guideOpen ? strings.hideGuide : strings.showGuide}
        </Button>
      </Flex>
      {guideOpen && (
        <Alert
          type="info"
          title={strings.guideTitle}
          data-testid="comparison-guide"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {strings.guide.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          }
        />
      )}
      {content}
    </Flex>
  );
}

function Control({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Flex gap={8} align="center">
      <Typography.Text>{label}</Typography.Text>
      {children}
    </Flex>
  );
}
