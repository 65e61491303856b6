// A semantic-segmentation label map (a grey image whose pixel values are class indices) drawn
// in class colours over the image; value 0, or a class named 'background', stays clear.
import { useEffect, useState } from 'react';

export function LabelMapMask({
  src,
  labelMap,
  colorOf,
  width,
  height,
  dashed,
}: {
  src: string;
  labelMap: Record<string, string>;
  colorOf: (label: string) => string;
  width: number;
  height: number;
  dashed?: boolean;
}) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context || cancelled) return;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      // Resolve each class's CSS colour to RGB once, through the canvas.
      const rgb = new Map<number, [number, number, number] | null>();
      const colourOf = (value: number) => {
        if (!rgb.has(value)) {
          const name = labelMap[String(value)];
          if (value === 0 || !name || name === 'background') rgb.set(value, null);
          else {
            context.fillStyle = colorOf(name);
            context.fillRect(0, 0, 1, 1);
            const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
            rgb.set(value, [r!, g!, b!]);
          }
        }
        return rgb.get(value)!;
      };
      const data = pixels.data;
      for (let o = 0; o < data.length; o += 4) {
        const colour = colourOf(data[o]!);
        if (!colour) {
          data[o + 3] = 0;
          continue;
        }
        data[o] = colour[0];
        data[o + 1] = colour[1];
        data[o + 2] = colour[2];
        data[o + 3] = 255;
      }
      context.putImageData(pixels, 0, 0);
      if (!cancelled) setHref(canvas.toDataURL());
    };
    image.src = src;
    return () => {
      cancelled = true;
    };
  }, [src, labelMap, colorOf]);
  if (!href) return null;
  return (
    <image
      href={href}
      x={0}
      y={0}
      width={width}
      height={height}
      preserveAspectRatio="none"
      opacity={dashed ? 0.3 : 0.45}
      style={{ imageRendering: 'pixelated' }}
      data-testid="label-map-mask"
    />
  );
}
