// The scatter camera's zoom rules (docs/product.md, Datasets §9): the view scale (1 / distance) stays in
// 0.5–160; the zoom buttons multiply the distance by 0.7 (in) or 1.3 (out) and disable at the
// bounds.
export const SCALE_MIN = 0.5;
export const SCALE_MAX = 160;
export const ZOOM_IN_FACTOR = 0.7;
export const ZOOM_OUT_FACTOR = 1.3;

/** Distances matching the scale bounds: a smaller distance is a larger scale. */
export const DISTANCE_MIN = 1 / SCALE_MAX;
export const DISTANCE_MAX = 1 / SCALE_MIN;

// Float noise from repeated multiplication must not leave a button enabled a hair off the bound.
const EPSILON = 1e-9;

export type ZoomDirection = 'in' | 'out';

export function clampDistance(distance: number): number {
  return Math.min(DISTANCE_MAX, Math.max(DISTANCE_MIN, distance));
}

/** The distance after one zoom-button press, held within the scale bounds. */
export function zoomedDistance(distance: number, direction: ZoomDirection): number {
  return clampDistance(distance * (direction === 'in' ? ZOOM_IN_FACTOR : ZOOM_OUT_FACTOR));
}

export function canZoomIn(distance: number): boolean {
  return distance > DISTANCE_MIN * (1 + EPSILON);
}

export function canZoomOut(distance: number): boolean {
  return distance < DISTANCE_MAX * (1 - EPSILON);
}
