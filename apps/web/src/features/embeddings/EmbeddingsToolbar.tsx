// The map's toolbar: pan/zoom or lasso, zoom buttons that stop at the scale bounds, reset, point
// size, the point count and the settings button.
import {
  DragOutlined,
  ExpandOutlined,
  HighlightOutlined,
  SettingOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { Button, Flex, Segmented, Slider, Tooltip, Typography } from 'antd';
import type { MouseMode } from './scatter/createScatter';
import { embeddingsStrings as strings } from './strings';

export const POINT_SIZE = { min: 3, max: 10, default: 4 } as const;

export interface EmbeddingsToolbarProps {
  mouseMode: MouseMode;
  onMouseModeChange(mode: MouseMode): void;
  canZoomIn: boolean;
  canZoomOut: boolean;
  onZoom(direction: 'in' | 'out'): void;
  onReset(): void;
  pointSize: number;
  onPointSizeChange(size: number): void;
  numPoints: number | null;
  onOpenSettings(): void;
  /** Map controls need a drawn map. */
  mapReady: boolean;
}

export function EmbeddingsToolbar(props: EmbeddingsToolbarProps) {
  const disabled = !props.mapReady;
  return (
    <Flex align="center" gap={8} wrap style={{ padding: '8px 12px' }}>
      <Segmented<MouseMode>
        aria-label={strings.mouseMode}
        value={props.mouseMode}
        onChange={props.onMouseModeChange}
        disabled={disabled}
        options={[
          {
            value: 'panZoom',
            icon: <DragOutlined />,
            title: strings.panZoom,
            label: <span aria-label={strings.panZoom} />,
          },
          {
            value: 'lasso',
            icon: <HighlightOutlined />,
            title: strings.lasso,
            label: <span aria-label={strings.lasso} />,
          },
        ]}
      />
      <Flex gap={4}>
        <Tooltip title={strings.zoomOut}>
          <Button
            aria-label={strings.zoomOut}
            icon={<ZoomOutOutlined />}
            disabled={disabled || !props.canZoomOut}
            onClick={() => props.onZoom('out')}
          />
        </Tooltip>
        <Tooltip title={strings.zoomIn}>
          <Button
            aria-label={strings.zoomIn}
            icon={<ZoomInOutlined />}
            disabled={disabled || !props.canZoomIn}
            onClick={() => props.onZoom('in')}
          />
        </Tooltip>
        <Tooltip title={strings.resetView}>
          <Button
            aria-label={strings.resetView}
            icon={<ExpandOutlined />}
            disabled={disabled}
            onClick={props.onReset}
          />
        </Tooltip>
      </Flex>
      <Flex align="center" gap={8} style={{ minWidth: 160 }}>
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          {strings.pointSize}
        </Typography.Text>
        <Slider
          ariaLabelForHandle={strings.pointSize}
          min={POINT_SIZE.min}
          max={POINT_SIZE.max}
          step={1}
          value={props.pointSize}
          onChange={props.onPointSizeChange}
          style={{ width: 96, margin: '0 4px' }}
        />
      </Flex>
      <div style={{ flex: 1 }} />
      {props.numPoints !== null && (
        <Typography.Text type="secondary" data-testid="embeddings-point-count">
          {strings.points(props.numPoints)}
        </Typography.Text>
      )}
      <Tooltip title={strings.settings}>
        <Button
          aria-label={strings.settings}
          icon={<SettingOutlined />}
          onClick={props.onOpenSettings}
        />
      </Tooltip>
    </Flex>
  );
}
