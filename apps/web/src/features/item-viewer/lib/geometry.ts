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
