// COCO run-length encoded masks, bit-compatible with pycocotools' mask API (maskApi.c):
// encode, decode, polygons and boxes to RLE, area, bounding box, IoU, merge, compressed strings.

/**
 * A binary mask of height `h` and width `w` as run lengths over the pixels in column-major
 * (Fortran) order, starting with a run of zeros (which may be empty), exactly as pycocotools.
 */
export interface Rle {
  readonly h: number;
  readonly w: number;
  readonly counts: Uint32Array;
}

/** The JSON form of an RLE in COCO files: `counts` compressed (string) or uncompressed (list). */
export interface CocoRle {
  size: [number, number];
  counts: string | number[];
}

/** A COCO `segmentation` value: polygons (flat x,y lists), or an RLE. */
export type CocoSegmentation = number[][] | CocoRle;

/** Encodes a binary mask given in column-major order (pixel (y, x) at x*h + y), as pycocotools. */
export function encodeMask(mask: ArrayLike<number>, h: number, w: number): Rle {
  const area = h * w;
  if (mask.length !== area) {
    throw new RangeError(`mask has ${mask.length} pixels, expected ${h}×${w} = ${area}`);
  }
  const counts: number[] = [];
  let previous = 0;
  let run = 0;
  for (let j = 0; j < area; j++) {
    const value = mask[j] ? 1 : 0;
    if (value !== previous) {
      counts.push(run);
      run = 0;
      previous = value;
    }
    run++;
  }
  counts.push(run);
  return { h, w, counts: Uint32Array.from(counts) };
}

/** Encodes a binary mask given in row-major order (pixel (y, x) at y*w + x), as images are stored. */
export function encodeRowMajorMask(mask: ArrayLike<number>, h: number, w: number): Rle {
  const columnMajor = new Uint8Array(h * w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) columnMajor[x * h + y] = mask[y * w + x] ? 1 : 0;
  }
  return encodeMask(columnMajor, h, w);
}

/** Decodes to a column-major 0/1 mask of h*w pixels. */
export function decodeMask(rle: Rle): Uint8Array {
  const out = new Uint8Array(rle.h * rle.w);
  let position = 0;
  let value = 0;
  for (const run of rle.counts) {
    if (value) out.fill(1, position, position + run);
    position += run;
    value ^= 1;
  }
  return out;
}

/** Number of foreground pixels. */
export function rleArea(rle: Rle): number {
  let area = 0;
  const counts = rle.counts;
  for (let j = 1; j < counts.length; j += 2) area += counts[j]!;
  return area;
}

/**
 * Tight bounding box [x, y, width, height] of the foreground, as pycocotools' toBbox: a mask whose
 * runs wrap from one column to the next spans the full height.
 */
export function rleToBbox(rle: Rle): [number, number, number, number] {
  const out = new Float64Array(4);
  writeBbox(rle, out, 0);
  return [out[0]!, out[1]!, out[2]!, out[3]!];
}

/** rleToBbox into out[offset … offset + 3], without allocating. */
function writeBbox(rle: Rle, out: Float64Array, offset: number): void {
  const { h, w, counts } = rle;
  const m = Math.floor(counts.length / 2) * 2;
  if (m === 0) {
    out.fill(0, offset, offset + 4);
    return;
  }
  let xs = w;
  let ys = h;
  let xe = 0;
  let ye = 0;
  let cc = 0;
  let xp = 0;
  for (let j = 0; j < m; j++) {
    cc += counts[j]!;
    const t = cc - (j % 2);
    const y = t % h;
    const x = (t - y) / h;
    if (j % 2 === 0) xp = x;
    else if (xp < x) {
      ys = 0;
      ye = h - 1;
    }
    if (x < xs) xs = x;
    if (x > xe) xe = x;
    if (y < ys) ys = y;
    if (y > ye) ye = y;
  }
  out[offset] = xs;
  out[offset + 1] = ys;
  out[offset + 2] = xe - xs + 1;
  out[offset + 3] = ye - ys + 1;
}

/** Reusable work buffers (the package is synchronous, so one set suffices): rasterising thousands
 * of polygons or parsing thousands of strings would otherwise allocate and collect megabytes. */
let scratchF64 = new Float64Array(4096);
let scratchU32 = new Uint32Array(4096);
function f64Scratch(n: number): Float64Array {
  if (scratchF64.length < n) scratchF64 = new Float64Array(Math.max(n, scratchF64.length * 2));
  return scratchF64;
}
function u32Scratch(n: number): Uint32Array {
  if (scratchU32.length < n) scratchU32 = new Uint32Array(Math.max(n, scratchU32.length * 2));
  return scratchU32;
}

/**
 * Rasterises one polygon (flat [x0, y0, x1, y1, …] in pixel coordinates) the way pycocotools'
 * frPoly does: boundary points upsampled ×5, then a pixel belongs to the mask when its centre lies
 * inside. Reproducing the exact integer steps is what makes areas and IoUs agree to the pixel.
 */
export function polygonToRle(xy: ArrayLike<number>, h: number, w: number): Rle {
  const k = Math.floor(xy.length / 2);
  const scale = 5;
  const x = new Int32Array(k + 1);
  const y = new Int32Array(k + 1);
  // C's (int) cast truncates toward zero.
  for (let j = 0; j < k; j++) x[j] = Math.trunc(scale * xy[j * 2]! + 0.5);
  for (let j = 0; j < k; j++) y[j] = Math.trunc(scale * xy[j * 2 + 1]! + 0.5);
  x[k] = x[0]!;
  y[k] = y[0]!;
  let m = 0;
  for (let j = 0; j < k; j++) {
    m += Math.max(Math.abs(x[j]! - x[j + 1]!), Math.abs(y[j]! - y[j + 1]!)) + 1;
  }
  // maskApi.c walks the boundary point by point (upsampled ×5) and keeps, for each pair of
  // consecutive points whose x differs, the crossing of a pixel column centre. The same walk is
  // done here without storing the points: `prevU`/`prevV` is the previous point.
  const a = f64Scratch(m + 1);
  let kept = 0;
  let prevU = 0;
  let prevV = 0;
  let first = true;
  const wMax = w - 1;
  for (let j = 0; j < k; j++) {
    let xs = x[j]!;
    let xe = x[j + 1]!;
    let ys = y[j]!;
    let ye = y[j + 1]!;
    const dx = Math.abs(xe - xs);
    const dy = Math.abs(ys - ye);
    const flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
    if (flip) {
      let t = xs;
      xs = xe;
      xe = t;
      t = ys;
      ys = ye;
      ye = t;
    }
    const s = dx >= dy ? (ye - ys) / dx : (xe - xs) / dy;
    if (dx >= dy) {
      // x advances by one at every step, so inside the edge the pairs that cross a column centre
      // are known in advance: xsel = xs + t for t ≡ 2 − xs (mod 5), between the points at t and
      // t + 1. Only the edge's end points are handled point by point.
      const t0 = flip ? dx : 0;
      const u0 = t0 + xs;
      const v0 = Math.trunc(ys + s * t0 + 0.5);
      if (!first && u0 !== prevU) {
        const xsel = u0 < prevU ? u0 : u0 - 1;
        if ((xsel - 2) % 5 === 0) {
          const xd = (xsel - 2) / 5;
          if (xd >= 0 && xd <= wMax) {
            let yd = ((v0 < prevV ? v0 : prevV) + 0.5) / scale - 0.5;
            if (yd < 0) yd = 0;
            else if (yd > h) yd = h;
            a[kept++] = xd * h + Math.ceil(yd);
          }
        }
      }
      let xsel = xs + ((((2 - xs) % 5) + 5) % 5);
      for (; xsel <= xs + dx - 1; xsel += 5) {
        const xd = (xsel - 2) / 5;
        if (xd < 0 || xd > wMax) continue;
        const ta = xsel - xs;
        const va = Math.trunc(ys + s * ta + 0.5);
        const vb = Math.trunc(ys + s * (ta + 1) + 0.5);
        let yd = ((va < vb ? va : vb) + 0.5) / scale - 0.5;
        if (yd < 0) yd = 0;
        else if (yd > h) yd = h;
        a[kept++] = xd * h + Math.ceil(yd);
      }
      const tl = flip ? 0 : dx;
      prevU = tl + xs;
      prevV = dx === 0 ? v0 : Math.trunc(ys + s * tl + 0.5);
      first = false;
      continue;
    }
    for (let d = 0; d <= dy; d++) {
      const t = flip ? dy - d : d;
      const vj = t + ys;
      const uj = Math.trunc(xs + s * t + 0.5);
      if (!first && uj !== prevU) {
        const xsel = uj < prevU ? uj : uj - 1;
        // xd = (xsel + .5) / 5 − .5 is a whole number exactly when xsel ≡ 2 (mod 5).
        if ((xsel - 2) % 5 === 0) {
          const xd = (xsel - 2) / 5;
          if (xd >= 0 && xd <= wMax) {
            let yd = ((vj < prevV ? vj : prevV) + 0.5) / scale - 0.5;
            if (yd < 0) yd = 0;
            else if (yd > h) yd = h;
            // Run boundaries in column-major pixel order.
            a[kept++] = xd * h + Math.ceil(yd);
          }
        }
      }
      first = false;
      prevU = uj;
      prevV = vj;
    }
  }
  a[kept++] = h * w;
  const sorted = a.subarray(0, kept).sort();
  let previous = 0;
  for (let j = 0; j < kept; j++) {
    const t = sorted[j]!;
    sorted[j] = t - previous;
    previous = t;
  }
  // Zero-length runs are merged into their neighbours, as maskApi.c does.
  const b = u32Scratch(kept);
  let n = 0;
  let j = 0;
  b[n++] = sorted[j++]!;
  while (j < kept) {
    if (sorted[j]! > 0) b[n++] = sorted[j++]!;
    else {
      j++;
      if (j < kept) b[n - 1]! += sorted[j++]!;
    }
  }
  return { h, w, counts: b.slice(0, n) };
}

/** A box [x, y, width, height] as an RLE, through its polygon as pycocotools' frBbox. */
export function bboxToRle(bbox: ArrayLike<number>, h: number, w: number): Rle {
  const xs = bbox[0]!;
  const ys = bbox[1]!;
  const xe = xs + bbox[2]!;
  const ye = ys + bbox[3]!;
  return polygonToRle([xs, ys, xs, ye, xe, ye, xe, ys], h, w);
}

/** Union (default) or intersection of masks of the same size, as pycocotools' merge. */
export function mergeRles(rles: readonly Rle[], intersect = false): Rle {
  if (rles.length === 0) return { h: 0, w: 0, counts: new Uint32Array(0) };
  const first = rles[0]!;
  if (rles.length === 1) return { h: first.h, w: first.w, counts: first.counts.slice() };
  const { h, w } = first;
  let current: Uint32Array = first.counts;
  for (let i = 1; i < rles.length; i++) {
    const other = rles[i]!;
    if (other.h !== h || other.w !== w) {
      // pycocotools returns an empty 0×0 mask when sizes disagree; a caller error is clearer.
      throw new RangeError(`cannot merge masks of sizes ${h}×${w} and ${other.h}×${other.w}`);
    }
    const out: number[] = [];
    const A = current;
    const B = other.counts;
    let ca = A[0] ?? 0;
    let cb = B[0] ?? 0;
    let v = false;
    let va = false;
    let vb = false;
    let a = 1;
    let b = 1;
    let cc = 0;
    let ct = 1;
    while (ct > 0) {
      const c = Math.min(ca, cb);
      cc += c;
      ct = 0;
      ca -= c;
      if (!ca && a < A.length) {
        ca = A[a++]!;
        va = !va;
      }
      ct += ca;
      cb -= c;
      if (!cb && b < B.length) {
        cb = B[b++]!;
        vb = !vb;
      }
      ct += cb;
      const vp: boolean = v;
      v = intersect ? va && vb : va || vb;
      if (v !== vp || ct === 0) {
        out.push(cc);
        cc = 0;
      }
    }
    current = Uint32Array.from(out);
  }
  return { h, w, counts: current };
}

/** Union pixel count of the last intersectionOf() call (a second result without allocating). */
let lastUnion = 0;

/** Pixel count of the intersection of two RLEs of the same size; the union goes to lastUnion. */
function intersectionOf(dt: Uint32Array, gt: Uint32Array): number {
  let ca = dt[0] ?? 0;
  let cb = gt[0] ?? 0;
  let va = false;
  let vb = false;
  let a = 1;
  let b = 1;
  let i = 0;
  let u = 0;
  let ct = 1;
  const ka = dt.length;
  const kb = gt.length;
  while (ct > 0) {
    const c = ca < cb ? ca : cb;
    if (va || vb) {
      u += c;
      if (va && vb) i += c;
    }
    ct = 0;
    ca -= c;
    if (!ca && a < ka) {
      ca = dt[a++]!;
      va = !va;
    }
    ct += ca;
    cb -= c;
    if (!cb && b < kb) {
      cb = gt[b++]!;
      vb = !vb;
    }
    ct += cb;
  }
  lastUnion = u;
  return i;
}

/**
 * IoU of boxes [x, y, w, h] (flat arrays of 4 per box) as pycocotools' bbIou. The result is a
 * dt-major matrix: `out[d * numGt + g]`. For a crowd ground truth the union is the detection's
 * own area, so a detection inside a crowd region scores 1.
 */
export function bboxIou(
  dt: ArrayLike<number>,
  gt: ArrayLike<number>,
  iscrowd?: ArrayLike<number | boolean>,
): Float64Array {
  const m = Math.floor(dt.length / 4);
  const n = Math.floor(gt.length / 4);
  const out = new Float64Array(m * n);
  for (let g = 0; g < n; g++) {
    const gx = gt[g * 4]!;
    const gy = gt[g * 4 + 1]!;
    const gw = gt[g * 4 + 2]!;
    const gh = gt[g * 4 + 3]!;
    const ga = gw * gh;
    const crowd = iscrowd ? Boolean(iscrowd[g]) : false;
    for (let d = 0; d < m; d++) {
      const dx = dt[d * 4]!;
      const dy = dt[d * 4 + 1]!;
      const dw = dt[d * 4 + 2]!;
      const dh = dt[d * 4 + 3]!;
      const iw = Math.min(dw + dx, gw + gx) - Math.max(dx, gx);
      if (iw <= 0) continue;
      const ih = Math.min(dh + dy, gh + gy) - Math.max(dy, gy);
      if (ih <= 0) continue;
      const da = dw * dh;
      const inter = iw * ih;
      out[d * n + g] = inter / (crowd ? da : da + ga - inter);
    }
  }
  return out;
}

/**
 * IoU of masks as pycocotools' rleIou (dt-major matrix `out[d * numGt + g]`); crowd ground truths
 * use the detection's area as the union; masks of different sizes give -1 as in pycocotools.
 * Boxes are compared first so that most non-overlapping pairs cost nothing.
 */
export function rleIou(
  dt: readonly Rle[],
  gt: readonly Rle[],
  iscrowd?: ArrayLike<number | boolean>,
  dtBoxes?: Float64Array,
  gtBoxes?: Float64Array,
): Float64Array {
  const db = dtBoxes ?? rleBoxes(dt);
  const gb = gtBoxes ?? rleBoxes(gt);
  const out = bboxIou(db, gb, iscrowd);
  const n = gt.length;
  for (let g = 0; g < n; g++) {
    const G = gt[g]!;
    const crowd = iscrowd ? Boolean(iscrowd[g]) : false;
    for (let d = 0; d < dt.length; d++) {
      if (!(out[d * n + g]! > 0)) continue;
      const D = dt[d]!;
      if (D.h !== G.h || D.w !== G.w) {
        out[d * n + g] = -1;
        continue;
      }
      const inter = intersectionOf(D.counts, G.counts);
      let u = lastUnion;
      if (inter === 0) u = 1;
      else if (crowd) u = rleArea(D);
      out[d * n + g] = inter / u;
    }
  }
  return out;
}

/** Bounding boxes of several RLEs as a flat [x, y, w, h, …] array. */
export function rleBoxes(rles: readonly Rle[]): Float64Array {
  const out = new Float64Array(rles.length * 4);
  for (let i = 0; i < rles.length; i++) writeBbox(rles[i]!, out, i * 4);
  return out;
}

/** pycocotools' compressed string form of the counts (LEB128-like, 6 bits per char from '0'). */
export function rleToString(rle: Rle): string {
  const counts = rle.counts;
  let s = '';
  for (let i = 0; i < counts.length; i++) {
    let x = counts[i]!;
    if (i > 2) x -= counts[i - 2]!;
    let more = true;
    while (more) {
      // Arithmetic, not bit operators: counts may exceed 2^31 on huge images.
      let c = x - Math.floor(x / 32) * 32;
      x = Math.floor(x / 32);
      more = c & 0x10 ? x !== -1 : x !== 0;
      if (more) c |= 0x20;
      s += String.fromCharCode(c + 48);
    }
  }
  return s;
}

/** 32^k: the weight of the k-th 5-bit group of a compressed count. */
const POW32 = Float64Array.from({ length: 9 }, (_, k) => 2 ** (5 * k));

/** Parses pycocotools' compressed counts string. */
export function rleFromString(s: string, h: number, w: number): Rle {
  // Every count takes at least one character.
  const counts = u32Scratch(s.length);
  let m = 0;
  let p = 0;
  while (p < s.length) {
    let x = 0;
    let k = 0;
    let more = true;
    while (more) {
      if (p >= s.length) throw new SyntaxError('truncated RLE counts string');
      const c = s.charCodeAt(p) - 48;
      if (c < 0 || c > 63) throw new SyntaxError(`invalid character in RLE counts at ${p}`);
      x += (c & 0x1f) * (POW32[k] ?? 2 ** (5 * k));
      more = (c & 0x20) !== 0;
      p++;
      k++;
      if (!more && c & 0x10) x -= POW32[k] ?? 2 ** (5 * k);
    }
    if (m > 2) x += counts[m - 2]!;
    if (x < 0) throw new SyntaxError('negative run in RLE counts string');
    counts[m++] = x;
  }
  return { h, w, counts: counts.slice(0, m) };
}

/** The COCO JSON form with compressed counts. */
export function rleToJson(rle: Rle): CocoRle {
  return { size: [rle.h, rle.w], counts: rleToString(rle) };
}

/** Parses a COCO RLE object, compressed or uncompressed (uncompressed counts are exact). */
export function rleFromJson(json: CocoRle): Rle {
  const size = (json as { size?: unknown }).size;
  if (
    !Array.isArray(size) ||
    size.length !== 2 ||
    !size.every((v) => Number.isInteger(v) && v >= 0)
  ) {
    throw new RangeError('RLE "size" must be [height, width]');
  }
  const [h, w] = size as [number, number];
  if (Array.isArray(json.counts)) {
    if (json.counts.some((c) => !Number.isInteger(c) || c < 0)) {
      throw new RangeError('RLE "counts" must be non-negative integers');
    }
  } else if (typeof json.counts !== 'string') {
    throw new RangeError('RLE "counts" must be a string or a list of integers');
  }
  if (typeof json.counts === 'string') return rleFromString(json.counts, h, w);
  return { h, w, counts: Uint32Array.from(json.counts) };
}

/**
 * Any COCO segmentation as one RLE for an image of h×w, as pycocotools' COCO.annToRLE: polygons
 * are rasterised and merged. Like frPyObjects, a polygon list whose first entry has exactly four
 * numbers is read as a list of boxes.
 */
export function segmentationToRle(segmentation: CocoSegmentation, h: number, w: number): Rle {
  if (Array.isArray(segmentation)) {
    for (const [p, polygon] of segmentation.entries()) {
      if (!Array.isArray(polygon) || polygon.some((v) => typeof v !== 'number' || !isFinite(v))) {
        throw new RangeError(`polygon ${p} must be a list of numbers`);
      }
    }
    const asBoxes = segmentation.length > 0 && segmentation[0]!.length === 4;
    const parts = segmentation.map((p) => (asBoxes ? bboxToRle(p, h, w) : polygonToRle(p, h, w)));
    // No polygon at all is an empty mask of the image's size (pycocotools would fail).
    if (parts.length === 0) return { h, w, counts: Uint32Array.of(h * w) };
    return mergeRles(parts);
  }
  return rleFromJson(segmentation);
}
