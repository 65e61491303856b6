// What the explorer's cards and the item viewer show of a comparison's two models: a legend of
// their dashed colours ('Model A' / 'Model B') and each model's sample-level prediction as a tag
// ('A: cat 0.91' / 'B: dog 0.55'), A first (see lib/comparedModels.ts).
import { Flex, Tag, Typography, theme } from 'antd';
import { predictionText, type ComparedModel, type ComparedSide } from '../lib/comparedModels';

export const comparedStrings = {
  modelA: 'Model A',
  modelB: 'Model B',
  legend: 'Compared models',
  noPrediction: 'no prediction',
};

/** A small dashed square in the model's colour, as its boxes are drawn. */
export function ComparedSwatch({ color }: { color: string }) {
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 12,
        height: 12,
        flexShrink: 0,
        borderRadius: 2,
        border: `2px dashed ${color}`,
      }}
    />
  );
}

/** 'Model A' and 'Model B' with their colours, and their names when `names` is set. */
export function ComparedModelsLegend({
  models,
  names = false,
}: {
  models: [ComparedModel, ComparedModel];
  names?: boolean;
}) {
  const { token } = theme.useToken();
  return (
    <Flex gap={12} align="center" wrap="wrap" role="list" aria-label={comparedStrings.legend}>
      {models.map((model) => (
        <Flex
          key={model.key}
          gap={6}
          align="center"
          role="listitem"
          data-testid={`compared-legend-${model.key}`}
          data-color={model.color}
        >
          <ComparedSwatch color={model.color} />
          <Typography.Text style={{ fontSize: token.fontSizeSM }}>
            {model.key === 'A' ? comparedStrings.modelA : comparedStrings.modelB}
            {names && <Typography.Text type="secondary">{` · ${model.name}`}</Typography.Text>}
          </Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}

/** Each model's label and score (or values) as a tag in its colour; none when neither has one. */
export function ComparedPredictionTags({
  sides,
  compact = false,
}: {
  sides: [ComparedSide, ComparedSide];
  /** On a grid card: one line, small tags that shorten their text. */
  compact?: boolean;
}) {
  const { token } = theme.useToken();
  const texts = sides.map((side) => predictionText(side.prediction));
  if (texts.every((text) => text === null)) return null;
  return (
    <Flex
      gap={4}
      wrap={compact ? undefined : 'wrap'}
      style={{ minWidth: 0 }}
      data-testid="compared-predictions"
    >
      {sides.map((side, index) => {
        const text = `${side.model.key}: ${texts[index] ?? comparedStrings.noPrediction}`;
        return (
          <Tag
            key={side.model.key}
            data-testid={`compared-prediction-${side.model.key}`}
            title={`${side.model.name}: ${texts[index] ?? comparedStrings.noPrediction}`}
            style={{
              marginInlineEnd: 0,
              border: `1px dashed ${side.model.color}`,
              color: token.colorText,
              background: token.colorBgContainer,
              minWidth: 0,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              ...(compact
                ? { fontSize: token.fontSizeSM, lineHeight: '16px', flex: '0 1 auto' }
                : {}),
            }}
          >
            {text}
          </Tag>
        );
      })}
    </Flex>
  );
}
