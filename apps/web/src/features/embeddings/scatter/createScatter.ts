// The one place that talks to regl-scatterplot (WebGL): a small handle the map drives, so the
// rest of the feature is plain React and tests replace this module with a fake.
import createScatterplot from 'regl-scatterplot';
import { DISTANCE_MAX, DISTANCE_MIN, SCALE_MAX, SCALE_MIN } from '../camera';
import { toRgba } from '../colors';

export type MouseMode = 'panZoom' | 'lasso';

export interface ScatterPoints {
  x: Float32Array;
  y: Float32Array;
  /** Palette index per point. */
  colorIndex: Float32Array;
}

export interface ScatterColors {
  background: string;
  palette: string[];
  active: string;
  hover: string;
  lasso: string;
}

export interface ScatterEvents {
  /** A point under the pointer (index), or null when it left. */
  onHover(index: number | null): void;
  /** Points chosen with the lasso. */
  onLasso(indices: number[]): void;
  /** A click on one point. */
  onPointClick(index: number): void;
  /** Double click or Escape cleared the selection. */
  onDeselect(): void;
  /** The camera moved; its distance (1 / scale). */
  onView(distance: number): void;
}

export interface ScatterHandle {
  draw(points: ScatterPoints): Promise<void>;
  setColors(colors: ScatterColors): void;
  setPointSize(size: number): void;
  setMouseMode(mode: MouseMode): void;
  /** Marks points selected without reporting it back as a user selection. */
  select(indices: number[]): void;
  distance(): number;
  zoomTo(distance: number): void;
  resetView(): void;
  destroy(): void;
}

/** regl-scatterplot reads hex and RGBA arrays only; antd tokens may be rgba() strings. */
function glColors(colors: ScatterColors) {
  return {
    backgroundColor: toRgba(colors.background),
    pointColor: colors.palette.map(toRgba),
    pointColorActive: toRgba(colors.active),
    pointColorHover: toRgba(colors.hover),
    lassoColor: toRgba(colors.lasso),
  };
}

export function createScatter(
  canvas: HTMLCanvasElement,
  options: { pointSize: number; colors: ScatterColors; mouseMode: MouseMode },
  events: ScatterEvents,
): ScatterHandle {
  const plot = createScatterplot({
    canvas,
    width: 'auto',
    height: 'auto',
    pointSize: options.pointSize,
    pointSizeSelected: 2,
    pointOutlineWidth: 2,
    mouseMode: options.mouseMode,
    ...glColors(options.colors),
    colorBy: 'valueA',
    // Double click and Escape deselect; Shift drags a lasso even in pan/zoom mode (the default key map).
    deselectOnDblClick: true,
    deselectOnEscape: true,
  });
  const camera = () =>
    plot.get('camera') as {
      distance: [number, number];
      target: [number, number];
      setScaleBounds(bounds: [number, number]): void;
    };
  const bound = () => camera().setScaleBounds([SCALE_MIN, SCALE_MAX]);
  bound();

  // A lasso ends in a 'select' (or, when it caught nothing, a 'deselect') and then 'lassoEnd'; a
  // click on a point also selects it. The lasso start tells the two apart, and a click opens the
  // item instead of changing the selection.
  let lassoing = false;
  let lassoed: number[] = [];
  let selectedByUs: number[] = [];
  plot.subscribe('lassoStart', () => {
    lassoing = true;
    lassoed = [];
  });
  plot.subscribe('select', ({ points }) => {
    if (lassoing) lassoed = [...points];
    else if (points.length === 1) {
      plot.select(selectedByUs, { preventEvent: true });
      events.onPointClick(points[0]!);
    }
  });
  plot.subscribe('deselect', () => {
    if (lassoing) lassoed = [];
    else events.onDeselect();
  });
  plot.subscribe('lassoEnd', () => {
    if (!lassoing) return;
    lassoing = false;
    events.onLasso(lassoed);
  });
  plot.subscribe('pointOver', (index) => events.onHover(index));
  plot.subscribe('pointOut', () => events.onHover(null));
  plot.subscribe('view', () => events.onView(camera().distance[0]));

  return {
    async draw(points) {
      await plot.draw(
        { x: points.x, y: points.y, valueA: points.colorIndex },
        { zDataType: 'categorical' },
      );
      bound();
      plot.select(selectedByUs, { preventEvent: true });
    },
    setColors(colors) {
      void plot.set(glColors(colors));
    },
    setPointSize(size) {
      void plot.set({ pointSize: size });
    },
    setMouseMode(mode) {
      void plot.set({ mouseMode: mode });
    },
    select(indices) {
      selectedByUs = indices;
      if (indices.length === 0) plot.deselect({ preventEvent: true });
      else plot.select(indices, { preventEvent: true });
    },
    distance: () => camera().distance[0],
    zoomTo(distance) {
      const clamped = Math.min(DISTANCE_MAX, Math.max(DISTANCE_MIN, distance));
      void plot.zoomToLocation(camera().target, clamped, {
        transition: true,
        transitionDuration: 250,
      });
    },
    resetView() {
      void plot.zoomToOrigin({ transition: true, transitionDuration: 250 });
    },
    destroy() {
      plot.destroy();
    },
  };
}
