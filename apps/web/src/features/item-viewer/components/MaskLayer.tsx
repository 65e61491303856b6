// Object masks in image pixels, drawn inside the (rotated) image element: polygons as SVG,
// COCO RLE decoded with @loupe/metrics onto a canvas and shown as an image.
import type { ExploreObject } from '@loupe/contracts';
import { useMemo } from 'react';
import { rleMaskDataUrl } from '../../../lib/rleMask';

const MASK_OPACITY = 0.35;

function RleMask({ object, color, width, height }: MaskProps) {
  const mask = object.mask;
  const href = useMemo(() => {
    if (!mask || Array.isArray(mask)) return null;
    try {
      return rleMaskDataUrl(mask, color);
    } catch {
      return null;
    }
  }, [mask, color]);
  if (!href) return null;
  return (
    <image
      href={href}
      x={0}
      y={0}
      width={width}
      height={height}
      preserveAspectRatio="none"
      opacity={MASK_OPACITY}
      data-testid="object-mask"
    />
  );
}

interface MaskProps {
  object: ExploreObject;
  color: string;
  width: number;
  height: number;
}

export function MaskLayer({
  objects,
  colorOf,
  width,
  height,
  selected,
}: {
  objects: ExploreObject[];
  /** An object's colour: its class's, or (in a comparison) its model's. */
  colorOf: (label: string, object?: ExploreObject) => string;
  width: number;
  height: number;
  selected: ReadonlySet<string>;
}) {
  return (
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
      {objects.map((object) => {
        const color = colorOf(object.label, object);
        if (!object.mask) return null;
        if (!Array.isArray(object.mask)) {
          return (
            <RleMask key={object.id} object={object} color={color} width={width} height={height} />
          );
        }
        return (
          <g key={object.id} data-testid="object-mask">
            {object.mask.map((polygon, i) => (
              <polygon
                key={i}
                points={polygon.join(' ')}
                fill={color}
                fillOpacity={MASK_OPACITY}
                stroke={color}
                strokeWidth={selected.has(object.id) ? 3 : 1.5}
                strokeDasharray={object.type === 'pred' ? '6 4' : undefined}
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </g>
        );
      })}
    </svg>
  );
}
