// Fast ascending sort of float64 values (LSD radix sort on their bit patterns): ranking a million
// scores per class is the hot path of ROC AUC, and the built-in sort is several times slower.

/** Returns a sorted copy of `values` (ascending; NaN must not occur). */
export function sortFloat64(values: ArrayLike<number>): Float64Array {
  const copy = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) copy[i] = values[i]!;
  return sortFloat64InPlace(copy);
}

/** Sorts `out` ascending in place and returns it (NaN must not occur). */
export function sortFloat64InPlace(out: Float64Array): Float64Array {
  const n = out.length;
  if (n < 512) return out.sort();
  // Map each double to an unsigned 64-bit key that orders like the number: set the sign bit of
  // non-negative values, invert every bit of negative ones.
  const words = new Uint32Array(out.buffer, out.byteOffset, n * 2);
  let lo = new Uint32Array(n);
  let hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const l = words[2 * i]!;
    const h = words[2 * i + 1]!;
    if (h & 0x80000000) {
      lo[i] = ~l >>> 0;
      hi[i] = ~h >>> 0;
    } else {
      lo[i] = l;
      hi[i] = (h | 0x80000000) >>> 0;
    }
  }
  // Radix passes on the high word only (sign, exponent, 20 mantissa bits), which orders all but
  // values sharing a high word; those short runs are then ordered by their low word. Half the
  // passes of a full 64-bit radix sort.
  let lo2 = new Uint32Array(n);
  let hi2 = new Uint32Array(n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 2; pass++) {
    const shift = pass === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(hi[i]! >>> shift) & 0xffff]!++;
    // A digit shared by every key leaves the order unchanged: skip the pass.
    if (counts[(hi[0]! >>> shift) & 0xffff] === n) continue;
    let total = 0;
    for (let b = 0; b < 65536; b++) {
      const c = counts[b]!;
      counts[b] = total;
      total += c;
    }
    for (let i = 0; i < n; i++) {
      const position = counts[(hi[i]! >>> shift) & 0xffff]!++;
      lo2[position] = lo[i]!;
      hi2[position] = hi[i]!;
    }
    [lo, lo2] = [lo2, lo];
    [hi, hi2] = [hi2, hi];
  }
  for (let i = 0; i < n;) {
    const h = hi[i]!;
    let j = i + 1;
    while (j < n && hi[j] === h) j++;
    if (j - i > 16) lo.subarray(i, j).sort();
    else {
      // Insertion sort: runs are short.
      for (let a = i + 1; a < j; a++) {
        const v = lo[a]!;
        let b = a - 1;
        while (b >= i && lo[b]! > v) {
          lo[b + 1] = lo[b]!;
          b--;
        }
        lo[b + 1] = v;
      }
    }
    i = j;
  }
  for (let i = 0; i < n; i++) {
    const h = hi[i]!;
    if (h & 0x80000000) {
      words[2 * i] = lo[i]!;
      words[2 * i + 1] = h & 0x7fffffff;
    } else {
      words[2 * i] = ~lo[i]! >>> 0;
      words[2 * i + 1] = ~h >>> 0;
    }
  }
  return out;
}
