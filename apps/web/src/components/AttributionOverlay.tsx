// An attribution heatmap drawn over a picture (the explorer's cards, the item viewer's image):
// the heatmap's PNG painted on a canvas at the given opacity, stretched by the browser over the
// box `style` places it in (smoothly: a heatmap is usually far coarser than its image). It
// never takes pointer events, so boxes and panning under it work as before. And the opacity
// slider both places share (docs/product.md, Datasets §9: 0 to 100, step 1; it answers at once
// and the change is kept after 200 ms of quiet).
import { ATTRIBUTION_OPACITY } from '@loupe/contracts';
import { Flex, Slider, Typography } from 'antd';
import { useEffect, useRef, useState, type CSSProperties } from 'react';

/** How long the opacity slider waits before keeping a change. */
export const OPACITY_COMMIT_MS = 200;

/** The attribution an item's picture shows, and the heatmap's opacity in percent. */
export interface AttributionDisplay {
  id: string;
  opacity: number;
}

export function AttributionOverlay({
  src,
  opacity,
  style,
}: {
  src: string;
  /** 0 to 100. */
  opacity: number;
  style: CSSProperties;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);

  useEffect(() => {
    let live = true;
    const next = new Image();
    next.decoding = 'async';
    next.onload = () => {
      if (live) setImage(next);
    };
    next.src = src;
    return () => {
      live = false;
    };
  }, [src]);

  useEffect(() => {
    const target = canvas.current;
    if (!target || !image) return;
    target.width = image.naturalWidth || 1;
    target.height = image.naturalHeight || 1;
    const context = target.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, target.width, target.height);
    context.globalAlpha = Math.min(1, Math.max(0, opacity / 100));
    context.drawImage(image, 0, 0);
  }, [image, opacity]);

  return (
    <canvas
      ref={canvas}
      aria-hidden
      data-testid="attribution-overlay"
      data-src={src}
      data-opacity={opacity}
      style={{ ...style, pointerEvents: 'none', imageRendering: 'auto' }}
    />
  );
}

/** A slider value shown at once and handed on once it rests for `delay` ms. */
function useDebouncedValue(value: number, onCommit: (value: number) => void, delay: number) {
  const [draft, setDraft] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  }, [onCommit]);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (next: number) => {
    setDraft(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit.current(next), delay);
  };
  return [draft, change] as const;
}

export function AttributionOpacitySlider({
  value,
  onChange,
  label,
  width = 160,
}: {
  value: number;
  onChange: (opacity: number) => void;
  label: string;
  width?: number;
}) {
  const [draft, change] = useDebouncedValue(value, onChange, OPACITY_COMMIT_MS);
  return (
    <Flex gap={8} align="center">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Slider
        ariaLabelForHandle={label}
        min={ATTRIBUTION_OPACITY.min}
        max={ATTRIBUTION_OPACITY.max}
        step={ATTRIBUTION_OPACITY.step}
        value={draft}
        onChange={change}
        tooltip={{ formatter: (v) => `${v}%` }}
        style={{ width }}
      />
    </Flex>
  );
}
