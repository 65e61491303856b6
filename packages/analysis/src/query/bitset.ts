// Row sets as bitsets: bit (row & 31) of word (row >>> 5). Bits past the table's length are
// always zero, so complement and popcount need no special case.

export type Bitset = Uint32Array;

export function emptyBitset(length: number): Bitset {
  return new Uint32Array((length + 31) >>> 5);
}

export function fullBitset(length: number): Bitset {
  const bits = emptyBitset(length).fill(0xffffffff);
  clearTail(bits, length);
  return bits;
}

/** Zero the bits past `length` in the last word. */
export function clearTail(bits: Bitset, length: number): void {
  const rest = length & 31;
  if (rest !== 0) bits[bits.length - 1]! &= (1 << rest) - 1;
}

export function hasRow(bits: Bitset, row: number): boolean {
  return ((bits[row >>> 5]! >>> (row & 31)) & 1) === 1;
}

export function bitsetFromRows(length: number, rows: ArrayLike<number>): Bitset {
  const bits = emptyBitset(length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!(row >= 0 && row < length))
      throw new Error(`Row ${row} is outside the table (${length} rows)`);
    bits[row >>> 5]! |= 1 << (row & 31);
  }
  return bits;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export function countRows(bits: Bitset): number {
  let n = 0;
  for (let w = 0; w < bits.length; w++) n += popcount(bits[w]!);
  return n;
}

/** The rows of a bitset in ascending order. */
export function bitsetToRows(bits: Bitset): Uint32Array {
  const rows = new Uint32Array(countRows(bits));
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    const base = w << 5;
    while (word !== 0) {
      const low = word & -word;
      rows[k++] = base + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return rows;
}
