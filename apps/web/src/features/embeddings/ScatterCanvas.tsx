// The WebGL canvas of the map: creates the scatter once, redraws when the points change, keeps
// colours, size, mode and the selection in step with props, and reports WebGL context loss.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  createScatter,
  type MouseMode,
  type ScatterColors,
  type ScatterEvents,
  type ScatterHandle,
  type ScatterPoints,
} from './scatter/createScatter';

export interface ScatterCanvasProps extends ScatterEvents {
  points: ScatterPoints;
  colors: ScatterColors;
  pointSize: number;
  mouseMode: MouseMode;
  /** Shift held: the next drag draws a lasso. */
  lassoKey: boolean;
  selectedIndices: number[];
  /** The handle for the toolbar's zoom buttons. */
  onReady(handle: ScatterHandle | null): void;
  onContextLost(): void;
}

export const SCATTER_DRAWN_EVENT = 'loupe:scatter-drawn';

export function ScatterCanvas(props: ScatterCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const handleRef = useRef<ScatterHandle | null>(null);
  const [drawn, setDrawn] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  // Events reach the latest props without recreating the scatter.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const lost = (event: Event) => {
      event.preventDefault();
      latest.current.onContextLost();
    };
    canvas.addEventListener('webglcontextlost', lost);
    let handle: ScatterHandle;
    try {
      handle = createScatter(
        canvas,
        {
          pointSize: latest.current.pointSize,
          colors: latest.current.colors,
          mouseMode: latest.current.mouseMode,
        },
        {
          onHover: (index) => latest.current.onHover(index),
          onLasso: (indices) => latest.current.onLasso(indices),
          onPointClick: (index) => latest.current.onPointClick(index),
          onDeselect: () => latest.current.onDeselect(),
          onView: (distance) => latest.current.onView(distance),
        },
      );
    } catch (error) {
      // No WebGL at all: the same message as a crash; the cause goes to the console.
      console.error('The embeddings map could not start WebGL', error);
      latest.current.onContextLost();
      return () => canvas.removeEventListener('webglcontextlost', lost);
    }
    handleRef.current = handle;
    latest.current.onReady(handle);
    return () => {
      canvas.removeEventListener('webglcontextlost', lost);
      latest.current.onReady(null);
      handleRef.current = null;
      handle.destroy();
    };
  }, []);

  const { points, colors, pointSize, mouseMode, selectedIndices } = props;
  useEffect(() => {
    handleRef.current?.setColors(colors);
  }, [colors]);
  useEffect(() => {
    handleRef.current?.setPointSize(pointSize);
  }, [pointSize]);
  useEffect(() => {
    handleRef.current?.setMouseMode(mouseMode);
  }, [mouseMode]);
  useEffect(() => {
    handleRef.current?.select(selectedIndices);
  }, [selectedIndices]);
  useEffect(() => {
    const handle = handleRef.current;
    if (!handle) return;
    let current = true;
    void handle.draw(points).then(() => {
      if (!current) return;
      const count = points.x.length;
      setDrawn(count);
      latest.current.onView(handle.distance());
      window.dispatchEvent(new CustomEvent(SCATTER_DRAWN_EVENT, { detail: { points: count } }));
    });
    return () => {
      current = false;
    };
  }, [points]);

  const lasso = mouseMode === 'lasso' || props.lassoKey;
  return (
    <div
      data-testid="embeddings-canvas"
      data-drawn-points={drawn ?? undefined}
      onMouseDown={() => setDragging(true)}
      onMouseUp={() => setDragging(false)}
      onMouseLeave={() => setDragging(false)}
      style={{
        position: 'absolute',
        inset: 0,
        cursor: lasso ? 'crosshair' : dragging ? 'grabbing' : 'grab',
      }}
    >
      <canvas ref={canvasRef} style={{ width: '100%', height: '100%', display: 'block' }} />
    </div>
  );
}
