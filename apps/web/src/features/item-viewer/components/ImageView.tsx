// The image and image-object variants: the image (or the object's crop region) fitted to the
// view, rotated in quarter turns, zoomed with buttons and the wheel, panned by dragging; boxes
// (solid ground truth, dashed predictions) with label chips that never overlap when the view is
// large enough, masks and label maps, a class legend that shows or hides each class, and the
// chosen attribution's heatmap over the image with its opacity slider. In a comparison of two
// models, model A's and model B's predictions are dashed in the models' colours, chips 'A: …';
// for label maps, a 'Model A' / 'Model B' switch picks whose predicted label map is drawn.
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
import { Button, Empty, Flex, Segmented, Slider, Tooltip, Typography, theme } from 'antd';
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { ComparedSwatch } from '../../../components/ComparedPredictions';
import {
  AttributionOpacitySlider,
  AttributionOverlay,
  type AttributionDisplay,
} from '../../../components/AttributionOverlay';
import {
  comparedSides,
  type ComparedModel,
  type ComparedModelKey,
  type ComparedModels,
} from '../../../lib/comparedModels';
import { labelMapClasses, labelMapPalette } from '../../../lib/labelMap';
import { cssColorToRgb, useLabelMap } from '../../../lib/labelMapImage';
import { readStorage, writeStorage } from '../../../lib/storage';
import { useElementSize } from '../hooks/useElementSize';
import {
  cropRegion,
  CROP_OFFSET_MAX,
  FULL_IMAGE,
  INITIAL_VIEW,
  isUsableBox,
  LABEL_CHIP_HEIGHT,
  labelsVisible,
  layoutImage,
  placeLabelChips,
  WHEEL_ZOOM_STEP,
  ZOOM_STEP,
  zoomAround,
  type Box,
  type Rect,
  type ViewState,
} from '../lib/geometry';
import { viewerStrings as strings } from '../strings';
import { ClassLegend, type LegendClass, type MaskLayerName } from './ClassLegend';
import { LabelMapMask } from './LabelMapMask';
import { MaskLayer } from './MaskLayer';

export const DEFAULT_CROP_OFFSET = 10;
export const DEFAULT_OBJECT_ZOOM_LEVEL = 80;
/** Label maps are read at most this many pixels on a side: sharp on screen, bounded in memory. */
export const VIEWER_LABEL_MAP_SIDE = 4096;
const MASK_LAYERS_KEY = 'loupe.itemViewer.maskLayers';
const CHIP_FONT_SIZE = 11;
const CHIP_PADDING = 4;

/** Which label-map layers are shown: a preference kept across items and visits. */
function useMaskLayers(): [Record<MaskLayerName, boolean>, (layer: MaskLayerName) => void] {
  const [layers, setLayers] = useState<Record<MaskLayerName, boolean>>(() => {
    try {
      const stored = JSON.parse(readStorage(MASK_LAYERS_KEY) ?? '{}') as Record<string, unknown>;
      return { gt: stored.gt !== false, pred: stored.pred !== false };
    } catch {
      return { gt: true, pred: true };
    }
  });
  const toggle = (layer: MaskLayerName) =>
    setLayers((current) => {
      const next = { ...current, [layer]: !current[layer] };
      writeStorage(MASK_LAYERS_KEY, JSON.stringify(next));
      return next;
    });
  return [layers, toggle];
}

const chipWidths = new Map<string, number>();
let measure: CanvasRenderingContext2D | null | undefined;

/** The on-screen width of a label chip: its text measured in the chip's font, plus padding. */
function chipWidth(text: string, fontFamily: string): number {
  const key = `${fontFamily}|${text}`;
  const known = chipWidths.get(key);
  if (known !== undefined) return known;
  if (measure === undefined) measure = document.createElement('canvas').getContext('2d');
  let width = text.length * CHIP_FONT_SIZE * 0.62; // without a canvas: a generous average
  if (measure) {
    measure.font = `${CHIP_FONT_SIZE}px ${fontFamily}`;
    width = measure.measureText(text).width;
  }
  // Room for rounding and a font that finishes loading later.
  const total = Math.ceil(width) + 2 * CHIP_PADDING + 2;
  if (chipWidths.size > 5000) chipWidths.clear();
  chipWidths.set(key, total);
  return total;
}

function objectLabel(object: ExploreObject): string {
  return object.type === 'pred' && object.score !== undefined
    ? `${object.label} ${object.score.toFixed(2)}`
    : object.label;
}

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
  /** The explorer's chosen attribution, drawn over the image when the item has its heatmap. */
  attribution?: ViewerAttribution | null;
  /** The comparison of two models the explorer is in: both models' predictions are drawn. */
  compared?: ComparedModels | null;
  /**
   * In a comparison, whose predicted label map is drawn (null: the route model's). The viewer
   * holds it, so the choice stays while it moves from item to item; without these props the
   * view holds it.
   */
  maskModel?: ComparedModelKey | null;
  onMaskModelChange?: (key: ComparedModelKey) => void;
}

/** The attribution the viewer draws, and where its opacity slider's changes go. */
export interface ViewerAttribution extends AttributionDisplay {
  onOpacityChange(opacity: number): void;
}

function ObjectBox({
  object,
  rect,
  color,
  model,
  selected,
  dimmed,
  onClick,
}: {
  object: ExploreObject;
  rect: Rect;
  color: string;
  /** In a comparison, the model whose prediction this is. */
  model?: ComparedModel;
  selected: boolean;
  /** Another object than the one an object item is about. */
  dimmed: boolean;
  onClick: (toggle: boolean) => void;
}) {
  return (
    <div
      data-testid="object-box"
      data-object-id={object.id}
      data-object-type={object.type}
      data-model={model?.key}
      data-color={color}
      data-selected={selected || undefined}
      title={model ? `${model.name}: ${objectLabel(object)}` : objectLabel(object)}
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
    />
  );
}

/** A box's label, placed by `placeLabelChips` so that no two chips overlap. */
function LabelChip({
  object,
  label,
  rect,
  color,
  dimmed,
  onClick,
}: {
  object: ExploreObject;
  label: string;
  rect: Rect;
  color: string;
  dimmed: boolean;
  onClick: (toggle: boolean) => void;
}) {
  return (
    <span
      data-testid="object-label"
      data-object-id={object.id}
      data-object-type={object.type}
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
        boxSizing: 'border-box',
        background: color,
        color: '#fff',
        fontSize: CHIP_FONT_SIZE,
        lineHeight: `${LABEL_CHIP_HEIGHT}px`,
        padding: `0 ${CHIP_PADDING}px`,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        borderRadius: 2,
        textShadow: '0 0 2px rgba(0,0,0,0.6)',
        cursor: 'pointer',
        opacity: dimmed ? 0.6 : 1,
        // Predictions' chips are outlined like their dashed boxes.
        outline: object.type === 'pred' ? '1px dashed rgba(255,255,255,0.85)' : undefined,
        outlineOffset: -2,
      }}
    >
      {label}
    </span>
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
  const [hiddenClasses, setHiddenClasses] = useState<ReadonlySet<string>>(new Set());
  // In a comparison: the ground truth, then model A's and model B's predictions, each model's in
  // its colour; otherwise the item's objects in their classes' colours.
  const compared = props.compared ?? null;
  const { objects, modelOf } = useMemo(() => {
    const models = new Map<string, ComparedModel>();
    if (!compared) return { objects: item.objects, modelOf: models };
    const sides = comparedSides(item, compared);
    for (const side of sides) for (const object of side.objects) models.set(object.id, side.model);
    return {
      objects: [
        ...item.objects.filter((object) => object.type !== 'pred'),
        ...sides.flatMap((side) => side.objects),
      ],
      modelOf: models,
    };
  }, [item, compared]);
  const objectColor = (object: ExploreObject) =>
    modelOf.get(object.id)?.color ?? colorOf(object.label);
  const chipLabel = (object: ExploreObject) => {
    const model = modelOf.get(object.id);
    return model ? `${model.key}: ${objectLabel(object)}` : objectLabel(object);
  };
  const visibleObjects = objects.filter(
    (object) => !hidden.has(object.id) && !hiddenClasses.has(object.label),
  );
  const drawOverlays = overlaysVisible && !failed && layout !== null;

  // Label maps: the ground truth filled, the prediction as outlines over it (or filled alone).
  const labelMap = props.labelMap;
  const [layers, toggleLayer] = useMaskLayers();
  // In a comparison, the prediction layer draws one model's label map at a time (two sets of
  // outlines in class colours would not read apart): the route model's until the other is picked.
  const [ownMaskModel, setOwnMaskModel] = useState<ComparedModelKey | null>(null);
  const maskModelKey =
    (props.maskModel !== undefined ? props.maskModel : ownMaskModel) ?? compared?.own ?? null;
  const chooseMaskModel = props.onMaskModelChange ?? setOwnMaskModel;
  const maskSides = useMemo(
    () => (compared && labelMap ? comparedSides(item, compared) : null),
    [item, compared, labelMap],
  );
  const maskSide = maskSides?.find((side) => side.model.key === maskModelKey) ?? null;
  const hasComparedMasks = maskSides?.some((side) => Boolean(side.prediction?.mask_src)) ?? false;
  const predSrc = !labelMap
    ? null
    : maskSides
      ? (maskSide?.prediction?.mask_src ?? null)
      : (item.prediction?.mask_src ?? null);
  const gtPixels = useLabelMap(labelMap ? item.mask_src : null, VIEWER_LABEL_MAP_SIDE);
  const predPixels = useLabelMap(predSrc, VIEWER_LABEL_MAP_SIDE);
  const gtClasses = useMemo(
    () => (gtPixels && labelMap ? labelMapClasses(gtPixels, labelMap) : new Map<string, number>()),
    [gtPixels, labelMap],
  );
  const predClasses = useMemo(
    () =>
      predPixels && labelMap ? labelMapClasses(predPixels, labelMap) : new Map<string, number>(),
    [predPixels, labelMap],
  );
  const palette = useMemo(
    () => (labelMap ? labelMapPalette(labelMap, colorOf, hiddenClasses, cssColorToRgb) : null),
    [labelMap, colorOf, hiddenClasses],
  );
  const showGt = layers.gt && gtPixels !== null;
  const showPred = layers.pred && predPixels !== null;
  const legendClasses: LegendClass[] = [];
  for (const name of new Set([
    ...gtClasses.keys(),
    ...predClasses.keys(),
    ...objects.map((object) => object.label),
  ])) {
    const share = gtPixels ? gtClasses.get(name) : predClasses.get(name);
    legendClasses.push({
      name,
      color: colorOf(name),
      ...(gtPixels || predPixels ? { share: share ?? 0 } : {}),
    });
  }
  const toggleClass = (name: string) =>
    setHiddenClasses((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const shownClasses = (classes: Map<string, number>) =>
    [...classes.keys()].filter((name) => !hiddenClasses.has(name));

  // Label chips: where each visible box's label goes, none overlapping another.
  const boxRects = layout
    ? visibleObjects.map((object) => (object.coords ? layout.toScreen(object.coords) : null))
    : [];
  const chipRects =
    drawOverlays && showLabels
      ? placeChips(visibleObjects, boxRects, size, token.fontFamily, chipLabel)
      : visibleObjects.map(() => null);

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
  const attribution = props.attribution ?? null;
  const heatmap = attribution ? (item.attributions?.[attribution.id]?.src ?? null) : null;

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
        {heatmap && attribution && (
          <div style={{ marginLeft: 16 }}>
            <AttributionOpacitySlider
              label={strings.attributionOpacity}
              value={attribution.opacity}
              onChange={attribution.onOpacityChange}
              width={120}
            />
          </div>
        )}
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
            {heatmap && attribution && !failed && (
              <AttributionOverlay
                src={heatmap}
                opacity={attribution.opacity}
                style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
              />
            )}
            {drawOverlays && showGt && palette && (
              <LabelMapMask
                pixels={gtPixels}
                palette={palette}
                layer="gt"
                outline={false}
                classes={shownClasses(gtClasses)}
              />
            )}
            {drawOverlays && showPred && palette && (
              <LabelMapMask
                pixels={predPixels}
                palette={palette}
                layer="pred"
                outline={showGt}
                classes={shownClasses(predClasses)}
                model={maskSides ? maskModelKey : null}
              />
            )}
            {drawOverlays && (
              <MaskLayer
                objects={visibleObjects}
                colorOf={(label, object) => (object ? objectColor(object) : colorOf(label))}
                width={width}
                height={height}
                selected={selected}
              />
            )}
          </div>
        )}
        {drawOverlays &&
          visibleObjects.map((object, i) => {
            const rect = boxRects[i];
            return rect ? (
              <ObjectBox
                key={object.id}
                object={object}
                rect={rect}
                color={objectColor(object)}
                model={modelOf.get(object.id)}
                selected={selected.has(object.id)}
                dimmed={variant === 'image-object' && object.id !== item.id}
                onClick={(toggle) => props.onObjectClick(object.id, toggle)}
              />
            ) : null;
          })}
        {drawOverlays &&
          visibleObjects.map((object, i) => {
            const rect = chipRects[i];
            return rect ? (
              <LabelChip
                key={object.id}
                object={object}
                label={chipLabel(object)}
                rect={rect}
                color={objectColor(object)}
                dimmed={variant === 'image-object' && object.id !== item.id}
                onClick={(toggle) => props.onObjectClick(object.id, toggle)}
              />
            ) : null;
          })}
      </div>
      {maskSides && hasComparedMasks && (
        <Flex gap={8} align="center" wrap="wrap" style={{ paddingTop: 8 }}>
          <Typography.Text type="secondary">{strings.predictionLayer}</Typography.Text>
          <Segmented<ComparedModelKey>
            size="small"
            aria-label={strings.predictionMaskModel}
            data-testid="mask-model"
            value={maskModelKey ?? 'A'}
            onChange={chooseMaskModel}
            options={maskSides.map((side) => ({
              value: side.model.key,
              title: side.model.name,
              disabled: !side.prediction?.mask_src,
              label: (
                <Flex gap={6} align="center" data-testid={`mask-model-${side.model.key}`}>
                  <ComparedSwatch color={side.model.color} />
                  {strings.modelPrediction(side.model.key)}
                </Flex>
              ),
            }))}
          />
        </Flex>
      )}
      <ClassLegend
        classes={legendClasses}
        hidden={hiddenClasses}
        onToggleClass={toggleClass}
        layers={{
          ...(gtPixels ? { gt: layers.gt } : {}),
          ...(predPixels ? { pred: layers.pred } : {}),
        }}
        onToggleLayer={toggleLayer}
        predictionModel={maskSide ? maskSide.model : null}
      />
    </Flex>
  );
}

function placeChips(
  objects: ExploreObject[],
  boxes: (Rect | null)[],
  view: { width: number; height: number },
  fontFamily: string,
  labelOf: (object: ExploreObject) => string,
): (Rect | null)[] {
  const requests = objects.flatMap((object, i) => {
    const box = boxes[i];
    return box ? [{ index: i, box, width: chipWidth(labelOf(object), fontFamily) }] : [];
  });
  const placed = placeLabelChips(requests, view);
  const out: (Rect | null)[] = objects.map(() => null);
  requests.forEach((request, k) => {
    out[request.index] = placed[k] ?? null;
  });
  return out;
}
