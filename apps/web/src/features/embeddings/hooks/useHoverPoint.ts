// The hovered point: the preview follows the pointer and appears once it rests on a point for
// 200 ms (HOVER_DEBOUNCE_MS), placed inside the map's box.
import { useCallback, useEffect, useRef, useState } from 'react';
import { HOVER_DEBOUNCE_MS } from '../HoverPreview';
import type { DecodedPoints } from '../points';

export interface HoveredPoint {
  row: number;
  version: number;
  /** Pointer position inside the map, and the map's size. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export function useHoverPoint(parsed: DecodedPoints | null) {
  const containerRef = useRef<HTMLDivElement>(null);
  const pointer = useRef({ x: 0, y: 0 });
  const [hovered, setHovered] = useState<HoveredPoint | null>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(hoverTimer.current), []);
  const onHover = useCallback(
    (index: number | null) => {
      clearTimeout(hoverTimer.current);
      const row = index === null ? undefined : parsed?.rows[index];
      if (!parsed || row === undefined) {
        setHovered(null);
        return;
      }
      const { version } = parsed;
      hoverTimer.current = setTimeout(() => {
        const rect = containerRef.current?.getBoundingClientRect();
        setHovered({
          row,
          version,
          ...pointer.current,
          width: rect?.width ?? 0,
          height: rect?.height ?? 0,
        });
      }, HOVER_DEBOUNCE_MS);
    },
    [parsed],
  );
  /** For the map's box: where the pointer is inside it. */
  const onPointerMove = useCallback((event: React.MouseEvent<HTMLElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    pointer.current = { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }, []);
  const onPointerLeave = useCallback(() => onHover(null), [onHover]);
  return { containerRef, hovered, onHover, onPointerMove, onPointerLeave };
}
