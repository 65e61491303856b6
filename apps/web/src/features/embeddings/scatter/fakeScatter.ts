// A fake of the WebGL scatter for component tests (happy-dom has no WebGL): it records what the
// map asks of it and lets a test fire the user's gestures. Imports nothing that imports the real
// module, so `vi.mock('./scatter/createScatter', () => import('./scatter/fakeScatter'))` works.
import type {
  MouseMode,
  ScatterColors,
  ScatterEvents,
  ScatterHandle,
  ScatterPoints,
} from './createScatter';

export class FakeScatter implements ScatterHandle {
  draws: ScatterPoints[] = [];
  selected: number[] = [];
  zooms: number[] = [];
  pointSize: number;
  mouseMode: MouseMode;
  colors: ScatterColors;
  currentDistance = 1;
  destroyed = false;
  constructor(
    readonly canvas: HTMLCanvasElement,
    options: { pointSize: number; colors: ScatterColors; mouseMode: MouseMode },
    readonly events: ScatterEvents,
  ) {
    this.pointSize = options.pointSize;
    this.mouseMode = options.mouseMode;
    this.colors = options.colors;
  }
  draw(points: ScatterPoints) {
    this.draws.push(points);
    return Promise.resolve();
  }
  setColors(colors: ScatterColors) {
    this.colors = colors;
  }
  setPointSize(size: number) {
    this.pointSize = size;
  }
  setMouseMode(mode: MouseMode) {
    this.mouseMode = mode;
  }
  select(indices: number[]) {
    this.selected = indices;
  }
  distance() {
    return this.currentDistance;
  }
  zoomTo(distance: number) {
    this.zooms.push(distance);
    this.currentDistance = distance;
    this.events.onView(distance);
  }
  resetView() {
    this.zoomTo(1);
  }
  destroy() {
    this.destroyed = true;
  }
}

export const scatters: FakeScatter[] = [];

export function createScatter(
  canvas: HTMLCanvasElement,
  options: { pointSize: number; colors: ScatterColors; mouseMode: MouseMode },
  events: ScatterEvents,
): FakeScatter {
  const fake = new FakeScatter(canvas, options, events);
  scatters.push(fake);
  return fake;
}

export function lastScatter(): FakeScatter {
  const fake = scatters.at(-1);
  if (!fake) throw new Error('No scatter was created');
  return fake;
}
