// A semantic-segmentation label map (pixel values are class indices) painted in class colours on
// a canvas over the image, inside the rotated image element; classes left out of the palette
// (background, hidden ones) stay clear. The ground truth is filled; a prediction shown over it
// is drawn as outlines, so both stay readable.
import { useEffect, useRef, useState } from 'react';
import type { LabelMapPixels, Rgb } from '../../../lib/labelMap';
import { drawLabelMap } from '../../../lib/labelMapImage';

const FILL_OPACITY = 0.45;
const OUTLINE_OPACITY = 0.9;

/** Outline width in label-map pixels: about 1/160 of the longer side, at least 1. */
export function outlineWidth(pixels: LabelMapPixels): number {
  return Math.max(1, Math.round(Math.max(pixels.width, pixels.height) / 160));
}

export function LabelMapMask({
  pixels,
  palette,
  layer,
  outline,
  classes,
  model = null,
}: {
  pixels: LabelMapPixels;
  /** Value → colour of the classes to draw. */
  palette: ReadonlyMap<number, Rgb>;
  layer: 'gt' | 'pred';
  outline: boolean;
  /** Names of the drawn classes present in this map, for tests and tools. */
  classes: string[];
  /** In a comparison: the model whose predicted label map this is, for tests and tools. */
  model?: 'A' | 'B' | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [painted, setPainted] = useState<number | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    setPainted(
      drawLabelMap(
        canvas.current,
        pixels,
        palette,
        outline ? { outline: outlineWidth(pixels), fillAlpha: 0 } : {},
      ),
    );
  }, [pixels, palette, outline]);
  return (
    <canvas
      ref={canvas}
      data-testid="label-map-mask"
      data-layer={layer}
      data-classes={classes.join(',')}
      data-model={model ?? undefined}
      data-painted={painted ?? undefined}
      style={{
        position: 'absolute',
        inset: 0,
        width: '100%',
        height: '100%',
        pointerEvents: 'none',
        imageRendering: 'pixelated',
        opacity: outline ? OUTLINE_OPACITY : FILL_OPACITY,
      }}
    />
  );
}
