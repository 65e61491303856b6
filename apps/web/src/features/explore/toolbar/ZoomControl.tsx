// Card size: the grid's minimum card width, 120 to 384 px (default 192).
import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Slider, Tooltip } from 'antd';
import { CARD_WIDTH_STEP, MAX_CARD_WIDTH, MIN_CARD_WIDTH, clampCardWidth } from '../gridRules';
import { exploreStrings as strings } from '../strings';

export function ZoomControl({ value, onChange }: { value: number; onChange(value: number): void }) {
  return (
    <Flex align="center" gap={4}>
      <Tooltip title={strings.zoomOut}>
        <Button
          type="text"
          size="small"
          icon={<MinusOutlined />}
          aria-label={strings.zoomOut}
          disabled={value <= MIN_CARD_WIDTH}
          onClick={() => onChange(clampCardWidth(value - CARD_WIDTH_STEP))}
        />
      </Tooltip>
      <Slider
        ariaLabelForHandle={strings.zoom}
        min={MIN_CARD_WIDTH}
        max={MAX_CARD_WIDTH}
        step={CARD_WIDTH_STEP}
        value={value}
        onChange={(next) => onChange(clampCardWidth(next))}
        tooltip={{ formatter: (next) => `${next} px` }}
        style={{ width: 96, margin: '0 6px' }}
      />
      <Tooltip title={strings.zoomIn}>
        <Button
          type="text"
          size="small"
          icon={<PlusOutlined />}
          aria-label={strings.zoomIn}
          disabled={value >= MAX_CARD_WIDTH}
          onClick={() => onChange(clampCardWidth(value + CARD_WIDTH_STEP))}
        />
      </Tooltip>
    </Flex>
  );
}
