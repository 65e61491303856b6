// The legend of the colouring: swatches per category, or a 200-step scale from min to max. The
// colours are the scale's (one per field and value, shared with the map and its legend).
import type { MetadataFieldInfo } from '@loupe/contracts';
import { Flex, Tooltip, Typography, theme } from 'antd';
import { CONTINUOUS_STEPS, continuousStepColor, type ColorScale } from '../colorRules';
import { formatValue } from '../grid/itemValues';
import { exploreStrings as strings } from '../strings';

const MAX_SWATCHES = 24;

function gradient(): string {
  const stops = Array.from({ length: CONTINUOUS_STEPS }, (_, step) => {
    const from = (step / CONTINUOUS_STEPS) * 100;
    const to = ((step + 1) / CONTINUOUS_STEPS) * 100;
    const color = continuousStepColor(step);
    return `${color} ${from.toFixed(2)}% ${to.toFixed(2)}%`;
  });
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

export function ColorLegend({ field, scale }: { field: MetadataFieldInfo; scale: ColorScale }) {
  const { token } = theme.useToken();
  const text = { fontSize: token.fontSizeSM };
  return (
    <Flex
      align="center"
      gap={10}
      wrap="wrap"
      role="group"
      aria-label={`${strings.legend}: ${field.label}`}
      data-testid="color-legend"
    >
      <Typography.Text strong style={text}>
        {field.label}
      </Typography.Text>
      {scale.range ? (
        <Flex align="center" gap={6}>
          <Typography.Text type="secondary" style={text}>
            {formatValue(scale.range[0], field.type)}
          </Typography.Text>
          <div
            data-testid="legend-scale"
            data-steps={CONTINUOUS_STEPS}
            style={{ width: 200, height: 10, borderRadius: 5, background: gradient() }}
          />
          <Typography.Text type="secondary" style={text}>
            {formatValue(scale.range[1], field.type)}
          </Typography.Text>
        </Flex>
      ) : (
        <>
          {scale.categories?.slice(0, MAX_SWATCHES).map((category) => (
            <Flex
              key={category.value}
              align="center"
              gap={4}
              data-testid="legend-category"
              data-value={category.value}
            >
              <span
                data-testid="legend-swatch"
                style={{
                  width: 10,
                  height: 10,
                  borderRadius: 2,
                  background: category.color,
                  display: 'inline-block',
                }}
              />
              <Typography.Text style={text}>{category.value}</Typography.Text>
            </Flex>
          ))}
          {(scale.categories?.length ?? 0) > MAX_SWATCHES && (
            <Tooltip
              title={scale
                .categories!.slice(MAX_SWATCHES)
                .map((category) => category.value)
                .join(', ')}
            >
              <Typography.Text type="secondary" style={text}>
                +{scale.categories!.length - MAX_SWATCHES}
              </Typography.Text>
            </Tooltip>
          )}
        </>
      )}
      <Flex align="center" gap={4}>
        <span
          style={{
            width: 10,
            height: 10,
            borderRadius: 2,
            border: `1px solid ${token.colorBorder}`,
            display: 'inline-block',
          }}
        />
        <Typography.Text type="secondary" style={text}>
          {strings.missing}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
