// Label-map PNGs read in the browser: fetched as images, read back through a canvas at most
// `maxSide` pixels on a side (nearest neighbour, so class values never blend), and kept in a
// byte-bounded cache shared by the grid's cards and the item viewer, so scrolling back or
// stepping to a neighbour costs nothing.
import { useEffect, useState } from 'react';
import {
  paintLabelMap,
  parseRgb,
  type LabelMapPixels,
  type PaintOptions,
  type Rgb,
} from './labelMap';

/** Decoded label maps kept, in bytes of class values (one per pixel). */
const CACHE_BYTES = 48 * 1024 * 1024;

const cache = new Map<string, { promise: Promise<LabelMapPixels | null>; bytes: number }>();
let cachedBytes = 0;

function evict(): void {
  for (const [key, entry] of cache) {
    if (cachedBytes <= CACHE_BYTES || cache.size <= 1) break;
    cache.delete(key);
    cachedBytes -= entry.bytes;
  }
}

function decode(src: string, maxSide: number): Promise<LabelMapPixels | null> {
  return new Promise((resolve) => {
    const image = new Image();
    image.decoding = 'async';
    image.onerror = () => resolve(null);
    image.onload = () => {
      const scale = Math.min(1, maxSide / Math.max(image.naturalWidth, image.naturalHeight, 1));
      const width = Math.max(1, Math.round(image.naturalWidth * scale));
      const height = Math.max(1, Math.round(image.naturalHeight * scale));
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return resolve(null);
      context.imageSmoothingEnabled = false;
      context.drawImage(image, 0, 0, width, height);
      const rgba = context.getImageData(0, 0, width, height).data;
      const values = new Uint8Array(width * height);
      for (let i = 0; i < values.length; i++) values[i] = rgba[i * 4]!;
      resolve({ width, height, values });
    };
    image.src = src;
  });
}

/** The label map at `src`, at most `maxSide` pixels on a side; null when it cannot be read. */
export function loadLabelMap(src: string, maxSide: number): Promise<LabelMapPixels | null> {
  const key = `${maxSide}|${src}`;
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last, so eviction takes the oldest first.
    cache.delete(key);
    cache.set(key, hit);
    return hit.promise;
  }
  const entry = { promise: decode(src, maxSide), bytes: 0 };
  cache.set(key, entry);
  void entry.promise.then((pixels) => {
    if (!pixels) {
      if (cache.get(key) === entry) cache.delete(key); // a failure may be retried later
      return;
    }
    if (cache.get(key) !== entry) return;
    entry.bytes = pixels.values.length;
    cachedBytes += entry.bytes;
    evict();
  });
  return entry.promise;
}

/** The decoded label map, or null while loading, without one, or when it cannot be read. */
export function useLabelMap(src: string | null, maxSide: number): LabelMapPixels | null {
  const [state, setState] = useState<{ key: string; pixels: LabelMapPixels | null } | null>(null);
  const key = src ? `${maxSide}|${src}` : null;
  useEffect(() => {
    if (!src) return;
    let cancelled = false;
    void loadLabelMap(src, maxSide).then((pixels) => {
      if (!cancelled) setState({ key: `${maxSide}|${src}`, pixels });
    });
    return () => {
      cancelled = true;
    };
  }, [src, maxSide]);
  return state && state.key === key ? state.pixels : null;
}

let probe: CanvasRenderingContext2D | null | undefined;

/** Any CSS colour as RGB: parsed when it is hex or rgb(), else resolved through a canvas. */
export function cssColorToRgb(color: string): Rgb {
  const parsed = parseRgb(color);
  if (parsed) return parsed;
  if (probe === undefined) {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    probe = canvas.getContext('2d', { willReadFrequently: true });
  }
  if (!probe) return [128, 128, 128];
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = color;
  probe.fillRect(0, 0, 1, 1);
  const [r = 128, g = 128, b = 128] = probe.getImageData(0, 0, 1, 1).data;
  return [r, g, b];
}

/**
 * Paints the label map onto the canvas (sized to the map) in the palette's colours; answers the
 * pixels painted, or null without a 2-D context.
 */
export function drawLabelMap(
  canvas: HTMLCanvasElement,
  pixels: LabelMapPixels,
  palette: ReadonlyMap<number, Rgb>,
  options: PaintOptions = {},
): number | null {
  const context = canvas.getContext('2d');
  if (!context) return null;
  if (canvas.width !== pixels.width) canvas.width = pixels.width;
  if (canvas.height !== pixels.height) canvas.height = pixels.height;
  const { data, painted } = paintLabelMap(pixels, palette, options);
  context.putImageData(new ImageData(data, pixels.width, pixels.height), 0, 0);
  return painted;
}
