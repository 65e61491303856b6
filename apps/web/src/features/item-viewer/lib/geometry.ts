// Where the viewer draws an image and its boxes: rotation in quarter turns, the region shown
// (the whole image, or an object's crop with its offset), zoom and pan. Boxes are
// [y1, x1, y2, x2] fractions of the image, as on the wire.

export type Box = [number, number, number, number];

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const FULL_IMAGE: Box = [0, 0, 1, 1];
export const ZOOM_STEP = 1.2;
export const WHEEL_ZOOM_STEP = 1.04;
export const MIN_ZOOM = 0.2;
export const MAX_ZOOM = 50;
/** Labels are drawn on boxes only when the image is shown wider and taller than this. */
export const LABEL_MIN_VIEW_PX = 80;
export const CROP_OFFSET_MAX = 50;

/** Quarter turns clockwise, normalised to 0..3. */
export function normalizeTurns(turns: number): number {
  return ((turns % 4) + 4) % 4;
}

/** A point (x, y) in image fractions after `turns` quarter turns clockwise. */
export function rotatePoint(x: number, y: number, turns: number): [number, number] {
  switch (normalizeTurns(turns)) {
    case 1:
      return [1 - y, x];
    case 2:
      return [1 - x, 1 - y];
    case 3:
      return [y, 1 - x];
    default:
      return [x, y];
  }
}

/** A box after `turns` quarter turns clockwise of the image, still [y1, x1, y2, x2] fractions. */
export function rotateBox(box: Box, turns: number): Box {
  const [y1, x1, y2, x2] = box;
  const [ax, ay] = rotatePoint(x1, y1, turns);
  const [bx, by] = rotatePoint(x2, y2, turns);
  return [Math.min(ay, by), Math.min(ax, bx), Math.max(ay, by), Math.max(ax, bx)];
}

/** Width and height of the image after `turns` quarter turns. */
export function rotatedSize(width: number, height: number, turns: number): [number, number] {
  return normalizeTurns(turns) % 2 === 1 ? [height, width] : [width, height];
}

/** A box grown by `percent` of its width and height on every side, kept inside the image. */
export function expandBox(box: Box, percent: number): Box {
  const p = Math.min(Math.max(percent, 0), CROP_OFFSET_MAX) / 100;
  const [y1, x1, y2, x2] = box;
  const dy = (y2 - y1) * p;
  const dx = (x2 - x1) * p;
  return [Math.max(0, y1 - dy), Math.max(0, x1 - dx), Math.min(1, y2 + dy), Math.min(1, x2 + dx)];
}

/** Whether a crop can be shown: finite, inside the image and not empty. */
export function isUsableBox(box: readonly number[] | null | undefined): box is Box {
  if (!box || box.length !== 4 || !box.every(Number.isFinite)) return false;
  const [y1, x1, y2, x2] = box as Box;
  return y1 >= 0 && x1 >= 0 && y2 <= 1 && x2 <= 1 && y2 > y1 && x2 > x1;
}

/**
 * The image-object region: zoom level 0 shows the whole image, 100 exactly the crop with its
 * offset, values between interpolate, so the object keeps some of its surroundings at 80.
 */
export function cropRegion(crop: Box, offsetPercent: number, zoomLevel: number): Box {
  const target = expandBox(crop, offsetPercent);
  const t = Math.min(Math.max(zoomLevel, 0), 100) / 100;
  return FULL_IMAGE.map((full, i) => full + (target[i]! - full) * t) as Box;
}

export interface ViewState {
  zoom: number;
  panX: number;
  panY: number;
}

export const INITIAL_VIEW: ViewState = { zoom: 1, panX: 0, panY: 0 };

export interface LayoutInput {
  imageWidth: number;
  imageHeight: number;
  viewWidth: number;
  viewHeight: number;
  /** The part of the image (unrotated fractions) fitted into the view at zoom 1. */
  region: Box;
  turns: number;
  view: ViewState;
}

export interface Layout {
  /** Screen pixels per image pixel. */
  scale: number;
  /** The unrotated image element: its box before the CSS rotation about its centre. */
  image: Rect;
  rotationDeg: number;
  /** Screen rectangle of a box given in unrotated image fractions. */
  toScreen(box: Box): Rect;
}

export function layoutImage(input: LayoutInput): Layout {
  const { imageWidth: w, imageHeight: h, viewWidth, viewHeight, turns, view } = input;
  const [rw, rh] = rotatedSize(w, h, turns);
  const region = rotateBox(input.region, turns);
  const regionW = Math.max((region[3] - region[1]) * rw, 1e-6);
  const regionH = Math.max((region[2] - region[0]) * rh, 1e-6);
  const scale = Math.min(viewWidth / regionW, viewHeight / regionH) * view.zoom;
  // The region's centre (rotated image pixels) sits at the view's centre, moved by the pan.
  const cx = ((region[1] + region[3]) / 2) * rw;
  const cy = ((region[0] + region[2]) / 2) * rh;
  const originX = viewWidth / 2 + view.panX - cx * scale;
  const originY = viewHeight / 2 + view.panY - cy * scale;
  const centreX = originX + (rw / 2) * scale;
  const centreY = originY + (rh / 2) * scale;
  return {
    scale,
    rotationDeg: normalizeTurns(turns) * 90,
    image: {
      left: centreX - (w * scale) / 2,
      top: centreY - (h * scale) / 2,
      width: w * scale,
      height: h * scale,
    },
    toScreen(box) {
      const [y1, x1, y2, x2] = rotateBox(box, turns);
      return {
        left: originX + x1 * rw * scale,
        top: originY + y1 * rh * scale,
        width: (x2 - x1) * rw * scale,
        height: (y2 - y1) * rh * scale,
      };
    },
  };
}

/**
 * Zooms by `factor` keeping the screen point `anchor` (relative to the view's centre) still, so
 * the wheel zooms towards the pointer.
 */
export function zoomAround(view: ViewState, factor: number, anchorX = 0, anchorY = 0): ViewState {
  const zoom = Math.min(Math.max(view.zoom * factor, MIN_ZOOM), MAX_ZOOM);
  const k = zoom / view.zoom;
  return {
    zoom,
    panX: anchorX - (anchorX - view.panX) * k,
    panY: anchorY - (anchorY - view.panY) * k,
  };
}

export function labelsVisible(viewWidth: number, viewHeight: number): boolean {
  return viewWidth > LABEL_MIN_VIEW_PX && viewHeight > LABEL_MIN_VIEW_PX;
}

/** Height of a box's label chip in screen pixels (11 px text on a 16 px line). */
export const LABEL_CHIP_HEIGHT = 16;
/** How many chip heights a chip may move further up or down to find room. */
export const LABEL_CHIP_MAX_SHIFT = 6;

export interface LabelChipRequest {
  /** The box on screen. */
  box: Rect;
  /** The chip's width on screen. */
  width: number;
}

function overlaps(a: Rect, b: Rect): boolean {
  return (
    a.left < b.left + b.width &&
    b.left < a.left + a.width &&
    a.top < b.top + b.height &&
    b.top < a.top + a.height
  );
}

/** Placed chips bucketed by screen area, so each try checks only its neighbours. */
class ChipIndex {
  private readonly cells = new Map<string, Rect[]>();
  private static readonly CELL = 64;

  private *keys(rect: Rect): Generator<string> {
    const c = ChipIndex.CELL;
    for (let x = Math.floor(rect.left / c); x <= Math.floor((rect.left + rect.width) / c); x++)
      for (let y = Math.floor(rect.top / c); y <= Math.floor((rect.top + rect.height) / c); y++)
        yield `${x},${y}`;
  }

  free(rect: Rect): boolean {
    for (const key of this.keys(rect))
      for (const other of this.cells.get(key) ?? []) if (overlaps(rect, other)) return false;
    return true;
  }

  add(rect: Rect): void {
    for (const key of this.keys(rect)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(rect);
      else this.cells.set(key, [rect]);
    }
  }
}

/**
 * Where each box's label chip goes so that no two chips overlap and every chip stays inside the
 * view: the first free spot among above the box, inside its top, below it, inside its bottom
 * (left-aligned, then right-aligned), then further above or below one chip height at a time.
 * Boxes are served from the top of the view down (then left to right, then in input order), so
 * the same boxes always give the same layout. A chip with no free spot is left out (null); its
 * box keeps its label as a tooltip.
 */
export function placeLabelChips(
  requests: readonly LabelChipRequest[],
  view: { width: number; height: number },
  chipHeight = LABEL_CHIP_HEIGHT,
): (Rect | null)[] {
  const order = requests
    .map((request, index) => ({ request, index }))
    .sort(
      (a, b) =>
        a.request.box.top - b.request.box.top ||
        a.request.box.left - b.request.box.left ||
        a.index - b.index,
    );
  const placed = new ChipIndex();
  const out: (Rect | null)[] = requests.map(() => null);
  for (const { request, index } of order) {
    const { box, width } = request;
    if (!(width > 0) || width > view.width || chipHeight > view.height) continue;
    const outside =
      box.left >= view.width ||
      box.top >= view.height ||
      box.left + box.width <= 0 ||
      box.top + box.height <= 0;
    if (outside) continue; // no chip for a box out of view
    // Left-aligned with the box, or right-aligned; slid into the view when the box is cut off.
    const clamp = (left: number) => Math.min(Math.max(left, 0), view.width - width);
    const lefts = [clamp(box.left), clamp(box.left + box.width - width)];
    const above = box.top - chipHeight;
    const below = box.top + box.height;
    const tops = [above, box.top, below, box.top + box.height - chipHeight];
    const candidates: Rect[] = [];
    for (const left of lefts)
      for (const top of tops) candidates.push({ left, top, width, height: chipHeight });
    for (let step = 1; step <= LABEL_CHIP_MAX_SHIFT; step++) {
      candidates.push({
        left: lefts[0]!,
        top: above - step * chipHeight,
        width,
        height: chipHeight,
      });
      candidates.push({
        left: lefts[0]!,
        top: below + step * chipHeight,
        width,
        height: chipHeight,
      });
    }
    const spot = candidates.find(
      (rect) =>
        rect.left >= 0 &&
        rect.top >= 0 &&
        rect.left + rect.width <= view.width &&
        rect.top + rect.height <= view.height &&
        placed.free(rect),
    );
    if (!spot) continue;
    placed.add(spot);
    out[index] = spot;
  }
  return out;
}
