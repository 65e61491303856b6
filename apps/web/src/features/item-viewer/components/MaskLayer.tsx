// Object masks in image pixels, drawn inside the (rotated) image element: polygons as SVG,
// COCO RLE decoded with @loupe/metrics onto a canvas and shown as an image.
import type { ExploreObject } from '@loupe/contracts';
import { decodeMask, rleFromJson } from '@loupe/metrics';
import { useMemo } from 'react';

const MASK_OPACITY = 0.35;

function rleDataUrl(mask: { size: [number, number]; counts: string | number[] }, color: string) {
  const rle = rleFromJson(mask);
  const canvas = document.createElement('canvas');
  canvas.width = rle.w;
  canvas.height = rle.h;
  const context = canvas.getContext('2d');
  if (!context) return null;
  // Resolve any CSS colour to RGB through the canvas itself.
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
  const pixels = context.createImageData(rle.w, rle.h);
  const bits = decodeMask(rle); // column-major: (y, x) at x*h + y
  for (let x = 0; x < rle.w; x++) {
    for (let y = 0; y < rle.h; y++) {
      if (!bits[x * rle.h + y]) continue;
      const o = (y * rle.w + x) * 4;
      pixels.data[o] = r!;
      pixels.data[o + 1] = g!;
      pixels.data[o + 2] = b!;
      pixels.data[o + 3] = 255;
    }
  }
  context.putImageData(pixels, 0, 0);
  return canvas.toDataURL();
}

function RleMask({ object, color, width, height }: MaskProps) {
  const mask = object.mask;
  const href = useMemo(() => {
    if (!mask || Array.isArray(mask)) return null;
    try {
      return rleDataUrl(mask, color);
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
  colorOf: (label: string) => string;
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
        const color = colorOf(object.label);
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
