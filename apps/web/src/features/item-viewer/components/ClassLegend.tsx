// The class legend under the image: each class present in the item (label-map pixels or objects)
// with its colour and a checkbox that shows or hides it, and, for label maps, the ground-truth
// and prediction layers (in a comparison, the prediction layer is named and coloured after the
// model whose label map it draws).
import { Checkbox, Divider, Flex, Typography, theme } from 'antd';
import { viewerStrings as strings } from '../strings';

export interface LegendClass {
  name: string;
  color: string;
  /** Share of the picture the class covers in the label map shown (0..1), when there is one. */
  share?: number;
}

export type MaskLayerName = 'gt' | 'pred';

export interface ClassLegendProps {
  classes: LegendClass[];
  hidden: ReadonlySet<string>;
  onToggleClass: (name: string) => void;
  /** The label-map layers the item has, and whether each is shown. */
  layers: Partial<Record<MaskLayerName, boolean>>;
  onToggleLayer: (layer: MaskLayerName) => void;
  /** In a comparison: the model whose label map the prediction layer draws. */
  predictionModel?: { key: 'A' | 'B'; color: string } | null;
}

function Swatch({ color, dashed }: { color: string; dashed?: boolean }) {
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 12,
        height: 12,
        borderRadius: 2,
        verticalAlign: -1,
        marginRight: 6,
        ...(dashed
          ? { border: `2px dashed ${color}`, boxSizing: 'border-box' }
          : { background: color }),
      }}
    />
  );
}

export function ClassLegend({
  classes,
  hidden,
  onToggleClass,
  layers,
  onToggleLayer,
  predictionModel = null,
}: ClassLegendProps) {
  const { token } = theme.useToken();
  const layerNames = (['gt', 'pred'] as const).filter((layer) => layers[layer] !== undefined);
  if (classes.length === 0 && layerNames.length === 0) return null;
  return (
    <Flex
      wrap="wrap"
      align="center"
      gap={4}
      role="group"
      aria-label={strings.classLegend}
      data-testid="class-legend"
      style={{ paddingTop: 8, rowGap: 2 }}
    >
      {layerNames.map((layer) => (
        <Checkbox
          key={layer}
          checked={layers[layer]}
          onChange={() => onToggleLayer(layer)}
          data-testid={`legend-layer-${layer}`}
        >
          <Swatch
            color={
              layer === 'pred' && predictionModel ? predictionModel.color : token.colorTextSecondary
            }
            dashed={layer === 'pred'}
          />
          {layer === 'gt'
            ? strings.groundTruthLayer
            : predictionModel
              ? strings.predictionLayerOf(predictionModel.key)
              : strings.predictionLayer}
        </Checkbox>
      ))}
      {layerNames.length > 0 && classes.length > 0 && <Divider orientation="vertical" />}
      {classes.length > 0 && (
        <Typography.Text type="secondary" style={{ marginRight: 4 }}>
          {strings.classLegend}
        </Typography.Text>
      )}
      {classes.map((entry) => {
        const visible = !hidden.has(entry.name);
        return (
          <Checkbox
            key={entry.name}
            checked={visible}
            onChange={() => onToggleClass(entry.name)}
            aria-label={entry.name}
            data-testid="legend-class"
            data-class={entry.name}
            data-visible={visible}
          >
            <Swatch color={entry.color} />
            <span style={{ color: visible ? undefined : token.colorTextDisabled }}>
              {entry.name}
            </span>
            {entry.share !== undefined && (
              <Typography.Text type="secondary" style={{ marginLeft: 4 }}>
                {strings.classShare(entry.share)}
              </Typography.Text>
            )}
          </Checkbox>
        );
      })}
    </Flex>
  );
}
