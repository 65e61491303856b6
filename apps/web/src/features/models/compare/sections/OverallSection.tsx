// Overall: the better model on the active metric, the relative delta of B against A (sign and
// arrow; coloured as an improvement or not by the metric's desired direction) and both scores,
// as gauges; regression and speech recognition say it in a large description instead.
import type { MetricDelta, PredictionSet, TaskType } from '@loupe/contracts';
import { metricTitle } from '@loupe/metrics';
import { Flex, Progress, Statistic, Typography, theme } from 'antd';
import { SectionCard } from '../../performance/components/SectionCard';
import {
  gaugePercent,
  hasLargeDescription,
  relativeDeltaText,
  scoreText,
} from '../comparisonRules';
import { useModelColors } from '../hooks/useCategoryColors';
import { compareStrings as strings } from '../strings';

export interface OverallSectionProps {
  task: TaskType;
  metric: string;
  delta: MetricDelta | undefined;
  modelA: PredictionSet;
  modelB: PredictionSet;
}

/** The headline: which model is better, that both are equal, or that the metric is undefined. */
export function overallHeadline(delta: MetricDelta | undefined): string {
  if (!delta || delta.better === null || delta.raw_delta === null) return strings.undefinedOverall;
  if (delta.raw_delta === 0) return strings.equalOverall;
  return strings.betterOverall(
    delta.better === 'model_a_is_better' ? strings.modelA : strings.modelB,
  );
}

export function OverallSection({ task, metric, delta, modelA, modelB }: OverallSectionProps) {
  const { token } = theme.useToken();
  const colors = useModelColors();
  const title = metricTitle(task, metric);
  const relative = delta ? relativeDeltaText(delta) : null;
  const deltaColor =
    relative?.improved === true
      ? token.colorSuccess
      : relative?.improved === false
        ? token.colorError
        : token.colorTextSecondary;
  const models = [
    {
      side: 'model_a' as const,
      name: strings.modelA,
      model: modelA,
      value: delta?.model_a ?? null,
    },
    {
      side: 'model_b' as const,
      name: strings.modelB,
      model: modelB,
      value: delta?.model_b ?? null,
    },
  ];

  return (
    <SectionCard title={strings.overall} label={strings.overall}>
      <Flex gap={48} align="center" wrap="wrap">
        <Flex vertical gap={8} style={{ minWidth: 240 }}>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="overall-headline">
            {overallHeadline(delta)}
          </Typography.Title>
          <Statistic
            title={`${strings.relativeDelta} (${title})`}
            value={relative ? `${relative.text} ${relative.arrow}`.trim() : '–'}
            styles={{ content: { color: deltaColor, fontSize: 22 } }}
            data-testid="overall-delta"
          />
        </Flex>
        {hasLargeDescription(task) ? (
          <Typography.Paragraph
            style={{ fontSize: 20, margin: 0, flex: '1 1 360px' }}
            data-testid="overall-description"
          >
            {largeDescription(task, metric, delta)}
          </Typography.Paragraph>
        ) : (
          <Flex gap={48} wrap="wrap">
            {models.map(({ side, name, model, value }) => (
              <Flex
                key={side}
                vertical
                align="center"
                gap={4}
                data-testid={`overall-score-${side}`}
              >
                <Progress
                  type="dashboard"
                  percent={gaugePercent(value)}
                  strokeColor={colors[side]}
                  format={() => scoreText(metric, value)}
                  size={120}
                  aria-label={strings.score(name)}
                />
                <Typography.Text strong>{name}</Typography.Text>
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 180 }}>
                  {model.name}
                </Typography.Text>
              </Flex>
            ))}
          </Flex>
        )}
      </Flex>
    </SectionCard>
  );
}

/** Regression and speech recognition: the errors of both models in a sentence. */
function largeDescription(task: TaskType, metric: string, delta: MetricDelta | undefined): string {
  const title = metricTitle(task, metric).toLowerCase();
  const a = scoreText(metric, delta?.model_a);
  const b = scoreText(metric, delta?.model_b);
  if (!delta || delta.better === null || delta.raw_delta === null) return strings.undefinedOverall;
  if (delta.raw_delta === 0) return strings.largeDescriptionEqual(title, a);
  // The metrics described this way are errors: the better model has the lower one.
  const better = delta.better === 'model_a_is_better' ? strings.modelA : strings.modelB;
  const worse = better === strings.modelA ? strings.modelB : strings.modelA;
  return strings.largeDescription(title, better, worse, a, b);
}
