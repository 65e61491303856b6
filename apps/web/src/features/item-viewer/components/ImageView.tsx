// The image and image-object variants: the image (or the object's crop region) fitted to the
// view, rotated in quarter turns, zoomed with buttons and the wheel, panned by dragging; boxes
// (solid ground truth, dashed predictions) with labels when the view is large enough, and masks.
import {
  CompressOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  RotateLeftOutlined,
  RotateRightOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import type { ExploreItem, ExploreObject } from '@loupe/contracts';
import { Button, Empty, Flex, Slider, Tooltip, Typography, theme } from 'antd';
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useElementSize } from '../hooks/useElementSize';
import {
  cropRegion,
  CROP_OFFSET_MAX,
  FULL_IMAGE,
  INITIAL_VIEW,
  isUsableBox,
  labelsVisible,
  layoutImage,
  WHEEL_ZOOM_STEP,
  ZOOM_STEP,
  zoomAround,
  type Box,
  type ViewState,
} from '../lib/geometry';
import { viewerStrings as strings } from '../strings';
import { LabelMapMask } from './LabelMapMask';
import { MaskLayer } from './MaskLayer';

export const DEFAULT_CROP_OFFSET = 10;
export const DEFAULT_OBJECT_ZOOM_LEVEL = 80;

export interface ImageViewProps {
  item: ExploreItem;
  variant: 'image' | 'image-object';
  colorOf: (label: string) => string;
  overlaysVisible: boolean;
  onToggleOverlays: () => void;
  hidden: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  onObjectClick: (id: string, toggle: boolean) => void;
  turns: number;
  onRotate: (delta: 1 | -1) => void;
  /** Semantic segmentation: label-map pixel value → class name. */
  labelMap?: Record<string, string>;
}

function ObjectBox({
  object,
  rect,
  color,
  showLabel,
  selected,
  dimmed,
  onClick,
}: {
  object: ExploreObject;
  rect: { left: number; top: number; width: number; height: number };
  color: string;
  showLabel: boolean;
  selected: boolean;
  /** Another object than the one an object item is about. */
  dimmed: boolean;
  onClick: (toggle: boolean) => void;
}) {
  const label =
    object.type === 'pred' && object.score !== undefined
      ? `${object.label} ${object.score.toFixed(2)}`
      : object.label;
  return (
    <div
      data-testid="object-box"
      data-object-id={object.id}
      data-object-type={object.type}
      data-selected={selected || undefined}
      title={label}
      onPointerDown={(event) => event.stopPropagation()}
      onClick={(event) => {
        event.stopPropagation();
        onClick(event.metaKey || event.ctrlKey || event.shiftKey);
      }}
      style={{
        position: 'absolute',
        left: rect.left,
        top: rect.top,
        width: rect.width,
        height: rect.height,
        border: `${selected ? 3 : 2}px ${object.type === 'pred' ? 'dashed' : 'solid'} ${color}`,
        boxShadow: selected ? `0 0 0 2px rgba(255,255,255,0.8)` : undefined,
        boxSizing: 'border-box',
        cursor: 'pointer',
        opacity: dimmed && !selected ? 0.45 : 1,
      }}
    >
      {showLabel && (
        <span
          data-testid="object-label"
          style={{
            position: 'absolute',
            left: -2,
            // At the stage's top edge the label goes inside the box, so it stays visible.
            ...(rect.top < 18 ? { top: 0 } : { bottom: '100%' }),
            background: color,
            color: '#fff',
            fontSize: 11,
            lineHeight: '16px',
            padding: '0 4px',
            whiteSpace: 'nowrap',
            borderRadius: 2,
            textShadow: '0 0 2px rgba(0,0,0,0.6)',
          }}
        >
          {label}
        </span>
      )}
    </div>
  );
}

export function ImageView(props: ImageViewProps) {
  const { item, variant, colorOf, overlaysVisible, hidden, selected, turns } = props;
  const { token } = theme.useToken();
  const stageRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(stageRef);
  const [view, setView] = useState<ViewState>(INITIAL_VIEW);
  const [failed, setFailed] = useState(false);
  const [natural, setNatural] = useState<[number, number] | null>(null);
  const [cropOffset, setCropOffset] = useState(DEFAULT_CROP_OFFSET);
  const [zoomLevel, setZoomLevel] = useState(DEFAULT_OBJECT_ZOOM_LEVEL);
  const drag = useRef<{ x: number; y: number; panX: number; panY: number } | null>(null);

  const width = item.width ?? natural?.[0] ?? 0;
  const height = item.height ?? natural?.[1] ?? 0;
  // A crop that cannot be shown falls back to the whole image (docs/product.md, Datasets §8).
  const crop = variant === 'image-object' && isUsableBox(item.crop) ? (item.crop as Box) : null;
  const region = crop ? cropRegion(crop, cropOffset, zoomLevel) : FULL_IMAGE;

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    // A native listener: React's wheel listener is passive and cannot keep the page still.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const bounds = stage.getBoundingClientRect();
      if (event.deltaY === 0) return;
      // One notch is 1.04; a fast wheel or a trackpad sends several notches' worth at once.
      const notches = Math.min(10, Math.max(1, Math.round(Math.abs(event.deltaY) / 100)));
      const factor = WHEEL_ZOOM_STEP ** (event.deltaY < 0 ? notches : -notches);
      setView((current) =>
        zoomAround(
          current,
          factor,
          event.clientX - bounds.left - bounds.width / 2,
          event.clientY - bounds.top - bounds.height / 2,
        ),
      );
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, []);

  const ready = width > 0 && height > 0 && size.width > 0 && size.height > 0;
  const layout = ready
    ? layoutImage({
        imageWidth: width,
        imageHeight: height,
        viewWidth: size.width,
        viewHeight: size.height,
        region,
        turns,
        view,
      })
    : null;
  const shownWidth = layout ? layout.image.width : 0;
  const shownHeight = layout ? layout.image.height : 0;
  const showLabels = layout
    ? labelsVisible(turns % 2 ? shownHeight : shownWidth, turns % 2 ? shownWidth : shownHeight)
    : false;
  const visibleObjects = item.objects.filter((object) => !hidden.has(object.id));
  const drawOverlays = overlaysVisible && !failed && layout !== null;

  const onPointerDown = (event: ReactPointerEvent) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, panX: view.panX, panY: view.panY };
    (event.target as Element).setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    const start = drag.current;
    if (!start) return;
    setView((current) => ({
      ...current,
      panX: start.panX + event.clientX - start.x,
      panY: start.panY + event.clientY - start.y,
    }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const src = item.src ?? item.thumbnail_src;
  // The ground-truth label map, else the predicted one (both at once would hide each other).
  const labelMapSrc = item.mask_src ?? item.prediction?.mask_src ?? null;

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }}>
      <Flex gap={4} align="center" wrap="wrap" style={{ paddingBottom: 8 }}>
        <Tooltip title={strings.rotateLeft}>
          <Button
            aria-label={strings.rotateLeft}
            icon={<RotateLeftOutlined />}
            onClick={() => props.onRotate(-1)}
          />
        </Tooltip>
        <Tooltip title={strings.rotateRight}>
          <Button
            aria-label={strings.rotateRight}
            icon={<RotateRightOutlined />}
            onClick={() => props.onRotate(1)}
          />
        </Tooltip>
        <Tooltip title={strings.zoomOut}>
          <Button
            aria-label={strings.zoomOut}
            icon={<ZoomOutOutlined />}
            onClick={() => setView((current) => zoomAround(current, 1 / ZOOM_STEP))}
          />
        </Tooltip>
        <Tooltip title={strings.zoomIn}>
          <Button
            aria-label={strings.zoomIn}
            icon={<ZoomInOutlined />}
            onClick={() => setView((current) => zoomAround(current, ZOOM_STEP))}
          />
        </Tooltip>
        <Tooltip title={strings.resetView}>
          <Button
            aria-label={strings.resetView}
            icon={<CompressOutlined />}
            onClick={() => setView(INITIAL_VIEW)}
          />
        </Tooltip>
        <Tooltip title={overlaysVisible ? strings.hideOverlays : strings.showOverlays}>
          <Button
            aria-label={overlaysVisible ? strings.hideOverlays : strings.showOverlays}
            aria-pressed={!overlaysVisible}
            icon={overlaysVisible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
            onClick={props.onToggleOverlays}
          />
        </Tooltip>
        <Typography.Text type="secondary" style={{ marginLeft: 8 }} data-testid="zoom-percent">
          {Math.round(view.zoom * 100)}%
        </Typography.Text>
        {variant === 'image-object' && crop && (
          <Flex gap={16} align="center" style={{ marginLeft: 'auto' }}>
            <Flex gap={8} align="center">
              <Typography.Text type="secondary">{strings.cropOffset}</Typography.Text>
              <Slider
                ariaLabelForHandle={strings.cropOffset}
                min={0}
                max={CROP_OFFSET_MAX}
                value={cropOffset}
                onChange={setCropOffset}
                style={{ width: 120 }}
                tooltip={{ formatter: (value) => `${value}%` }}
              />
            </Flex>
            <Flex gap={8} align="center">
              <Typography.Text type="secondary">{strings.zoomLevel}</Typography.Text>
              <Slider
                ariaLabelForHandle={strings.zoomLevel}
                min={0}
                max={100}
                value={zoomLevel}
                onChange={setZoomLevel}
                style={{ width: 120 }}
              />
            </Flex>
          </Flex>
        )}
      </Flex>
      <div
        ref={stageRef}
        data-testid="image-stage"
        data-rotation={(((turns % 4) + 4) % 4) * 90}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => setView(INITIAL_VIEW)}
        style={{
          position: 'relative',
          flex: 1,
          minHeight: 0,
          overflow: 'hidden',
          background: token.colorFillQuaternary,
          borderRadius: token.borderRadius,
          cursor: 'grab',
          touchAction: 'none',
          userSelect: 'none',
        }}
      >
        {failed || !src ? (
          <Flex align="center" justify="center" style={{ position: 'absolute', inset: 0 }}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.unableToLoadImage} />
          </Flex>
        ) : (
          <div
            style={
              layout
                ? {
                    position: 'absolute',
                    left: layout.image.left,
                    top: layout.image.top,
                    width: layout.image.width,
                    height: layout.image.height,
                    transform: `rotate(${layout.rotationDeg}deg)`,
                  }
                : { position: 'absolute', inset: 0, visibility: 'hidden' }
            }
          >
            <img
              src={src}
              alt={item.id}
              draggable={false}
              data-testid="viewer-image"
              onLoad={(event) =>
                setNatural([event.currentTarget.naturalWidth, event.currentTarget.naturalHeight])
              }
              onError={() => setFailed(true)}
              style={{ width: '100%', height: '100%', display: 'block' }}
            />
            {drawOverlays && labelMapSrc && props.labelMap && (
              <svg
                viewBox={`0 0 ${width} ${height}`}
                preserveAspectRatio="none"
                style={{
                  position: 'absolute',
                  inset: 0,
                  width: '100%',
                  height: '100%',
                  pointerEvents: 'none',
                }}
              >
                <LabelMapMask
                  src={labelMapSrc}
                  labelMap={props.labelMap}
                  colorOf={colorOf}
                  width={width}
                  height={height}
                />
              </svg>
            )}
            {drawOverlays && (
              <MaskLayer
                objects={visibleObjects}
                colorOf={colorOf}
                width={width}
                height={height}
                selected={selected}
              />
            )}
          </div>
        )}
        {drawOverlays &&
          visibleObjects.map((object) =>
            object.coords ? (
              <ObjectBox
                key={object.id}
                object={object}
                rect={layout.toScreen(object.coords)}
                color={colorOf(object.label)}
                showLabel={showLabels}
                selected={selected.has(object.id)}
                dimmed={variant === 'image-object' && object.id !== item.id}
                onClick={(toggle) => props.onObjectClick(object.id, toggle)}
              />
            ) : null,
          )}
      </div>
    </Flex>
  );
}
