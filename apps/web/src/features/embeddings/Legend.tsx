// The colour legend over the map: category swatches (scrolling when there are many) or the
// continuous 200-step gradient with its range, plus the missing-value swatch. Rows and swatches
// carry the same test ids as the grid's legend, so a test can compare the two.
import { Flex, Typography, theme } from 'antd';
import { CONTINUOUS_STEPS, continuousStepColor } from './colors';
import type { ColorScheme } from './legend';
import { embeddingsStrings as strings } from './strings';

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString();
  return Math.abs(value) >= 1000 ? value.toFixed(1) : Number(value.toPrecision(3)).toString();
}

const GRADIENT = `linear-gradient(to right, ${Array.from({ length: CONTINUOUS_STEPS }, (_, step) =>
  continuousStepColor(step),
)
  .filter((_, step) => step % 10 === 0 || step === CONTINUOUS_STEPS - 1)
  .join(', ')})`;

export function Legend({ scheme, missingColor }: { scheme: ColorScheme; missingColor: string }) {
  const { token } = theme.useToken();
  if (scheme.kind === 'none') return null;
  const swatch = (color: string) => (
    <span
      data-testid="legend-swatch"
      style={{ width: 10, height: 10, borderRadius: 5, background: color, flex: 'none' }}
    />
  );
  return (
    <div
      data-testid="embeddings-legend"
      style={{
        position: 'absolute',
        left: 12,
        bottom: 12,
        maxWidth: 240,
        maxHeight: '40%',
        overflowY: 'auto',
        padding: '8px 10px',
        background: token.colorBgElevated,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        boxShadow: token.boxShadowTertiary,
        fontSize: token.fontSizeSM,
      }}
    >
      {scheme.kind === 'continuous' && scheme.range && (
        <Flex vertical gap={4} style={{ width: 200 }}>
          <div style={{ height: 10, borderRadius: 2, background: GRADIENT }} />
          <Flex justify="space-between">
            <Typography.Text style={{ fontSize: token.fontSizeSM }}>
              {formatNumber(scheme.range[0])}
            </Typography.Text>
            <Typography.Text style={{ fontSize: token.fontSizeSM }}>
              {formatNumber(scheme.range[1])}
            </Typography.Text>
          </Flex>
        </Flex>
      )}
      {scheme.categories.map((category) => (
        <Flex
          key={category.key}
          align="center"
          gap={6}
          data-testid="legend-category"
          data-value={category.label}
        >
          {swatch(category.color)}
          <Typography.Text ellipsis style={{ fontSize: token.fontSizeSM }}>
            {category.label}
          </Typography.Text>
        </Flex>
      ))}
      <Flex align="center" gap={6} style={{ marginTop: scheme.kind === 'continuous' ? 4 : 0 }}>
        {swatch(missingColor)}
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {strings.missing}
        </Typography.Text>
      </Flex>
    </div>
  );
}
