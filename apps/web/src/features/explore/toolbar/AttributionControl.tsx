// The attribution part of the display settings (docs/product.md, Datasets §2, §8, §9): which of
// the model's attributions the pictures show, and the heatmaps' opacity; or why there is
// nothing to choose.
import { HeatMapOutlined } from '@ant-design/icons';
import { Badge, Button, Flex, Popover, Select, Typography } from 'antd';
import { AttributionOpacitySlider } from '../../../components/AttributionOverlay';
import { SdkDocsLink } from '../../sdk';
import type { AttributionDisplayController } from '../hooks/useAttributionDisplay';
import { exploreStrings as strings } from '../strings';

export function AttributionControl({ attribution }: { attribution: AttributionDisplayController }) {
  const { picker, chosen } = attribution;
  const content =
    picker.kind === 'message' ? (
      <Flex vertical gap={4} style={{ maxWidth: 280 }} data-testid="attribution-message">
        <Typography.Text type="secondary">{picker.message}</Typography.Text>
        {picker.docs && <SdkDocsLink section="PredictionSet.upload_attributions" />}
      </Flex>
    ) : (
      <Flex vertical gap={12} style={{ width: 260 }}>
        <Select<string>
          aria-label={strings.attribution}
          value={chosen ?? ''}
          onChange={(value) => attribution.choose(value || null)}
          options={[
            { value: '', label: strings.attributionNone },
            ...picker.options.map((option) => ({ value: option.id, label: option.name })),
          ]}
          getPopupContainer={(node: HTMLElement) => node.parentElement ?? document.body}
        />
        <AttributionOpacitySlider
          label={strings.attributionOpacity}
          value={attribution.opacity}
          onChange={attribution.setOpacity}
        />
      </Flex>
    );
  return (
    <Popover content={content} title={strings.attribution} trigger="click" placement="bottomRight">
      <Badge dot={chosen !== null}>
        <Button icon={<HeatMapOutlined />} data-testid="attribution-control">
          {strings.attribution}
        </Button>
      </Badge>
    </Popover>
  );
}
