// A card's picture: the thumbnail (or the spectrogram of audio), an object item cropped to its
// object with some context, and boxes (solid for ground truth, dashed for predictions) and
// masks (polygons, or COCO RLE as a picture) drawn over it in one SVG in image pixels; a
// semantic-segmentation label map is painted, small, on a canvas under the SVG; a chosen
// attribution's heatmap over the whole picture, under the shapes. In a comparison of two models,
// model A's and model B's predicted shapes are dashed in the models' colours (lib/comparedModels);
// a predicted label map is the route model's, named in a corner (the viewer shows either).
import type { ExploreItem, ExploreObject } from '@loupe/contracts';
import { Typography, theme } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { labelMapPalette } from '../lib/labelMap';
import { cssColorToRgb, drawLabelMap, useLabelMap } from '../lib/labelMapImage';
import { rleMaskPath } from '../lib/rleMask';
import { labelColor } from '../lib/classColors';
import { comparedSides, type ComparedModels } from '../lib/comparedModels';
import { AttributionOverlay, type AttributionDisplay } from './AttributionOverlay';
import { ComparedSwatch, comparedStrings } from './ComparedPredictions';
import { cardPreviewStrings as strings } from './strings';

/** Context around an object's box when an object item is cropped to it, as a share of the box. */
const CROP_CONTEXT = 0.15;

type Region = [number, number, number, number]; // [y1, x1, y2, x2] fractions

function cropRegion(crop: Region): Region {
  const [y1, x1, y2, x2] = crop;
  const dy = (y2 - y1) * CROP_CONTEXT;
  const dx = (x2 - x1) * CROP_CONTEXT;
  return [Math.max(0, y1 - dy), Math.max(0, x1 - dx), Math.min(1, y2 + dy), Math.min(1, x2 + dx)];
}

/** Label maps on cards are read at most this many pixels on a side: enough for a card, cheap to keep. */
export const CARD_LABEL_MAP_SIDE = 128;
const LABEL_MAP_FILL = 0.4;
const NO_CLASSES_HIDDEN: ReadonlySet<string> = new Set();

/** Pixel value → class name: the dataset's label map, else the class list by index. */
export function cardLabelMap(
  labelMap: Record<string, string> | undefined,
  classes: string[],
): Record<string, string> {
  return labelMap ?? Object.fromEntries(classes.map((name, value) => [String(value), name]));
}

function CardLabelMap({
  src,
  labelMap,
  colorOf,
  style,
}: {
  src: string;
  labelMap: Record<string, string>;
  colorOf: (name: string) => string;
  style: React.CSSProperties;
}) {
  const pixels = useLabelMap(src, CARD_LABEL_MAP_SIDE);
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!pixels || !canvas.current) return;
    // Filled lightly with an opaque edge, so a region reads as a mask over a same-coloured shape.
    drawLabelMap(
      canvas.current,
      pixels,
      labelMapPalette(labelMap, colorOf, NO_CLASSES_HIDDEN, cssColorToRgb),
      { outline: 1, fillAlpha: LABEL_MAP_FILL },
    );
  }, [pixels, labelMap, colorOf]);
  if (!pixels) return null;
  return (
    <canvas
      ref={canvas}
      aria-hidden
      data-testid="card-label-map"
      style={{ ...style, imageRendering: 'pixelated' }}
    />
  );
}

function ObjectShape({
  object,
  width,
  height,
  color,
  strokeWidth,
  model,
}: {
  object: ExploreObject;
  width: number;
  height: number;
  color: string;
  strokeWidth: number;
  /** In a comparison, the model whose prediction this is: B's dashes are shorter than A's. */
  model?: 'A' | 'B';
}) {
  let dash = object.type === 'pred' ? `${strokeWidth * 3} ${strokeWidth * 2}` : undefined;
  if (model === 'B') dash = `${strokeWidth * 1.5} ${strokeWidth * 1.5}`;
  const mask = object.mask;
  const polygons = Array.isArray(mask) ? mask : [];
  const rlePath = useMemo(() => {
    if (!mask || Array.isArray(mask)) return null;
    try {
      return rleMaskPath(mask);
    } catch {
      return null; // a malformed mask is left out, the box still shows
    }
  }, [mask]);
  return (
    <g data-object-type={object.type} data-model={model} data-color={color}>
      {rlePath && (
        <path
          data-testid="card-mask"
          d={rlePath}
          fill={color}
          fillOpacity={0.3}
          shapeRendering="crispEdges"
        />
      )}
      {polygons.map((polygon, index) => (
        <polygon
          key={index}
          points={polygon.join(' ')}
          fill={color}
          fillOpacity={0.3}
          stroke={color}
          strokeWidth={strokeWidth}
          strokeDasharray={dash}
        />
      ))}
      {object.coords && (
        <rect
          data-testid="card-box"
          x={object.coords[1] * width}
          y={object.coords[0] * height}
          width={(object.coords[3] - object.coords[1]) * width}
          height={(object.coords[2] - object.coords[0]) * height}
          fill="none"
          stroke={color}
          strokeWidth={strokeWidth}
          strokeDasharray={dash}
        />
      )}
    </g>
  );
}

export interface CardPreviewProps {
  item: ExploreItem;
  size: number;
  classColors: Record<string, string>;
  classes: string[];
  /** Semantic segmentation: label-map pixel value → class name (else the class list by index). */
  labelMap?: Record<string, string>;
  /** The attribution whose heatmap is drawn over the picture, when the item has one. */
  attribution?: AttributionDisplay | null;
  /** The comparison of two models the explorer is in: both models' predictions are drawn. */
  compared?: ComparedModels | null;
}

interface Shape {
  key: string;
  object: ExploreObject;
  color: string;
  model?: 'A' | 'B';
}

export function CardPreview({
  item,
  size,
  classColors,
  classes,
  labelMap,
  attribution = null,
  compared = null,
}: CardPreviewProps) {
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  // Shapes wait for the picture, so boxes never float over an empty tile.
  const [loaded, setLoaded] = useState(false);
  const audio = item.media_type === 'audio';
  const src = audio
    ? (item.spectrogram_src ?? item.thumbnail_src)
    : (item.thumbnail_src ?? item.src);
  const width = item.width ?? 1;
  const height = item.height ?? 1;
  const region: Region = item.crop ? cropRegion(item.crop) : [0, 0, 1, 1];
  const [ry1, rx1, ry2, rx2] = region;
  const regionWidth = (rx2 - rx1) * width;
  const regionHeight = (ry2 - ry1) * height;
  const aspect = audio ? 2 : regionWidth > 0 && regionHeight > 0 ? regionWidth / regionHeight : 1;
  // Strokes about 2 screen pixels whatever the image resolution.
  const strokeWidth = (2 * Math.max(regionWidth, regionHeight)) / size;
  // The ground-truth label map, else the predicted one, as the item viewer shows by default.
  const labelMapSrc = audio ? null : (item.mask_src ?? item.prediction?.mask_src ?? null);
  // In a comparison, a predicted label map on the card is the route model's: say which model.
  const maskModel =
    compared && labelMapSrc !== null && labelMapSrc !== item.mask_src
      ? compared.own === 'A'
        ? compared.a
        : compared.b
      : null;
  const colorOf = useMemo(
    () => (label: string) => labelColor(label, classColors, classes),
    [classColors, classes],
  );
  const valueNames = useMemo(() => cardLabelMap(labelMap, classes), [labelMap, classes]);
  const heatmap = attribution ? (item.attributions?.[attribution.id]?.src ?? null) : null;
  // Ground truth in its classes' colours; predictions in their classes' colours, or, in a
  // comparison, model A's then model B's in the models' colours.
  const shapes = useMemo((): Shape[] => {
    const own = (object: ExploreObject) => ({
      key: object.id,
      object,
      color: colorOf(object.label),
    });
    if (!compared) return item.objects.map(own);
    return [
      ...item.objects.filter((object) => object.type !== 'pred').map(own),
      ...comparedSides(item, compared).flatMap((side) =>
        side.objects.map((object) => ({
          key: `${side.model.key}:${object.id}`,
          object,
          color: side.model.color,
          model: side.model.key,
        })),
      ),
    ];
  }, [item, compared, colorOf]);

  const box: React.CSSProperties = {
    width: '100%',
    height: '100%',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: token.colorFillQuaternary,
    overflow: 'hidden',
  };
  if (!src || failed) {
    return (
      <div style={box}>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {failed ? strings.unableToLoadImage : strings.noPreview}
        </Typography.Text>
      </div>
    );
  }
  const fitWide = aspect >= 1;
  // The whole picture placed so that the region shown fills the card.
  const wholeImage: React.CSSProperties = {
    position: 'absolute',
    left: `${(-rx1 / (rx2 - rx1)) * 100}%`,
    top: `${(-ry1 / (ry2 - ry1)) * 100}%`,
    width: `${100 / (rx2 - rx1)}%`,
    height: `${100 / (ry2 - ry1)}%`,
  };
  return (
    <div style={box}>
      <div
        style={{
          position: 'relative',
          aspectRatio: String(aspect),
          width: fitWide ? '100%' : 'auto',
          height: fitWide ? 'auto' : '100%',
          maxWidth: '100%',
          maxHeight: '100%',
          overflow: 'hidden',
        }}
      >
        <img
          src={src}
          alt={item.id}
          // The grid only mounts visible and overscan rows: load them now, not lazily.
          decoding="async"
          draggable={false}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
          style={{ ...wholeImage, objectFit: audio ? 'fill' : undefined }}
        />
        {loaded && labelMapSrc && (
          <CardLabelMap
            src={labelMapSrc}
            labelMap={valueNames}
            colorOf={colorOf}
            style={wholeImage}
          />
        )}
        {loaded && heatmap && attribution && (
          <AttributionOverlay src={heatmap} opacity={attribution.opacity} style={wholeImage} />
        )}
        {loaded && maskModel && (
          <span
            data-testid="card-mask-model"
            data-model={maskModel.key}
            style={{
              position: 'absolute',
              left: 4,
              bottom: 4,
              // Above the shapes' SVG, drawn after it.
              zIndex: 1,
              display: 'inline-flex',
              alignItems: 'center',
              gap: 4,
              padding: '0 4px',
              borderRadius: token.borderRadiusSM,
              background: token.colorBgElevated,
              color: token.colorText,
              fontSize: token.fontSizeSM,
              lineHeight: '18px',
              pointerEvents: 'none',
            }}
          >
            <ComparedSwatch color={maskModel.color} />
            {maskModel.key === 'A' ? comparedStrings.modelA : comparedStrings.modelB}
          </span>
        )}
        {loaded && !audio && shapes.length > 0 && (
          <svg
            aria-hidden
            viewBox={`${rx1 * width} ${ry1 * height} ${regionWidth} ${regionHeight}`}
            preserveAspectRatio="none"
            style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
          >
            {shapes.map((shape) => (
              <ObjectShape
                key={shape.key}
                object={shape.object}
                width={width}
                height={height}
                color={shape.color}
                strokeWidth={strokeWidth}
                model={shape.model}
              />
            ))}
          </svg>
        )}
      </div>
    </div>
  );
}
