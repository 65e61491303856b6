// Object statistics for the dataset metadata: box area, relative area and aspect ratio from a
// COCO box, and per-sample object counts by label.

export interface BoxStatistics {
  /** Pixels of the box inside the image (the box clipped to [0, width] × [0, height]). */
  area: number;
  /** area / (image width · image height), 0–1. */
  relative_area: number;
  /** Box width / box height as given (unclipped); null when the height is 0. */
  aspect_ratio: number | null;
}

/** Statistics of a COCO box [x, y, width, height] in an image of the given size. */
export function boxStatistics(
  bbox: readonly [number, number, number, number] | readonly number[],
  imageWidth: number,
  imageHeight: number,
): BoxStatistics {
  if (bbox.length !== 4 || !bbox.every(Number.isFinite)) {
    throw new Error(
      `A box must be four finite numbers [x, y, width, height], got [${bbox.join(', ')}]`,
    );
  }
  const [x, y, w, h] = bbox as [number, number, number, number];
  if (w < 0 || h < 0) throw new Error(`A box cannot have a negative size, got ${w}×${h}`);
  if (!(imageWidth > 0) || !(imageHeight > 0)) {
    throw new Error(`Image size must be positive, got ${imageWidth}×${imageHeight}`);
  }
  const clippedW = Math.max(0, Math.min(x + w, imageWidth) - Math.max(x, 0));
  const clippedH = Math.max(0, Math.min(y + h, imageHeight) - Math.max(y, 0));
  const area = clippedW * clippedH;
  return {
    area,
    relative_area: area / (imageWidth * imageHeight),
    aspect_ratio: h > 0 ? w / h : null,
  };
}

export interface ObjectCounts {
  total: number;
  /** Number of objects per label, keys in sorted order. */
  by_label: Record<string, number>;
}

/** Counts a sample's objects by label (each entry of `labels` is one object's label). */
export function countObjectsByLabel(labels: Iterable<string>): ObjectCounts {
  const counts = new Map<string, number>();
  let total = 0;
  for (const label of labels) {
    counts.set(label, (counts.get(label) ?? 0) + 1);
    total++;
  }
  // Object.fromEntries defines own properties, so a label such as "__proto__" stays a count.
  const byLabel = Object.fromEntries(
    [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ) as Record<string, number>;
  return { total, by_label: byLabel };
}
