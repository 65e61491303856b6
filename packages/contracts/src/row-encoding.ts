// Compact binary encoding of a query's result (row indices in result order) so a million items
// can travel in one response; the client then fetches the id strings of a page by row index.
//
// Layout, all little-endian:
//   byte 0      format: 1 = u32, 2 = bit-packed, 3 = delta-varint
//   byte 1      bit width (bit-packed only, 1..32; else 0)
//   bytes 2–3   reserved, 0
//   bytes 4–7   u32 count of indices
//   bytes 8–11  u32 table version the indices refer to (ItemTable.version)
//   bytes 12–   payload
// Payloads:
//   u32           count × u32 row index.
//   bit-packed    count × width bits, least significant bit first, each index starting right
//                 after the previous one (bit k of the stream is bit k & 7 of byte k >> 3);
//                 width = bits needed for the largest index, so 1M rows cost 20 bits per item
//                 (2.5 MB instead of 4 MB for a sorted result).
//   delta-varint  only for strictly ascending indices (a filter without sort): gap_0 = x_0,
//                 gap_i = x_i − x_{i−1} − 1, each as an unsigned LEB128 varint (7 bits a byte,
//                 high bit = more bytes follow). A dense selection costs ~1 byte per item.
// `encodeIndices` picks the smallest of bit-packed and (when ascending) delta-varint unless a
// format is forced. A client must reject indices whose table version is not the one it pages
// ids from. For JSON transport, base64 the bytes (Buffer.from(bytes).toString('base64')).

export type IndexEncoding = 'u32' | 'bitpacked' | 'delta-varint';

const FORMAT_CODES: Record<IndexEncoding, number> = { u32: 1, bitpacked: 2, 'delta-varint': 3 };
const HEADER = 12;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export interface EncodeOptions {
  /** The ItemTable.version the indices refer to. */
  version: number;
  /** Force a format; default: the smallest applicable one. */
  format?: IndexEncoding;
}

export interface DecodedIndices {
  indices: Uint32Array;
  version: number;
  format: IndexEncoding;
}

function isAscending(indices: Uint32Array): boolean {
  for (let i = 1; i < indices.length; i++) if (indices[i]! <= indices[i - 1]!) return false;
  return true;
}

function varintSize(indices: Uint32Array): number {
  let size = 0;
  let prev = -1;
  for (let i = 0; i < indices.length; i++) {
    const gap = indices[i]! - prev - 1;
    prev = indices[i]!;
    size += gap < 0x80 ? 1 : gap < 0x4000 ? 2 : gap < 0x200000 ? 3 : gap < 0x10000000 ? 4 : 5;
  }
  return size;
}

function bitWidth(indices: Uint32Array): number {
  let max = 0;
  for (let i = 0; i < indices.length; i++) if (indices[i]! > max) max = indices[i]!;
  return Math.max(1, 32 - Math.clz32(max));
}

export function encodeIndices(indices: Uint32Array, options: EncodeOptions): Uint8Array {
  const { version } = options;
  if (!Number.isInteger(version) || version < 0 || version > 0xffffffff) {
    throw new Error(`Table version must be a uint32, got ${version}`);
  }
  const n = indices.length;
  const ascending = isAscending(indices);
  const width = bitWidth(indices);
  const packedSize = Math.ceil((n * width) / 8);
  let format = options.format;
  if (format === undefined) {
    format = ascending && varintSize(indices) < packedSize ? 'delta-varint' : 'bitpacked';
  }
  if (format === 'delta-varint' && !ascending) {
    throw new Error('delta-varint encoding needs strictly ascending indices');
  }
  const payload =
    format === 'u32' ? n * 4 : format === 'bitpacked' ? packedSize : varintSize(indices);
  // Bit-packed on a little-endian machine: the words are packed in place, right after the
  // header (the buffer may end up to 7 bytes past the payload; `bytes` is exactly the encoding).
  const words = Math.ceil((n * width) / 32) + 1;
  const inPlace = format === 'bitpacked' && LITTLE_ENDIAN;
  const bytes = inPlace
    ? new Uint8Array(new ArrayBuffer(HEADER + 4 * words), 0, HEADER + payload)
    : new Uint8Array(HEADER + payload);
  const view = new DataView(bytes.buffer);
  bytes[0] = FORMAT_CODES[format];
  bytes[1] = format === 'bitpacked' ? width : 0;
  view.setUint32(4, n, true);
  view.setUint32(8, version, true);
  if (format === 'u32') {
    for (let i = 0; i < n; i++) view.setUint32(HEADER + 4 * i, indices[i]!, true);
  } else if (format === 'bitpacked') {
    // Pack into 32-bit words, whose bytes are the payload on a little-endian machine; else
    // copy their bytes out little-endian.
    const packed = inPlace ? new Uint32Array(bytes.buffer, HEADER, words) : new Uint32Array(words);
    for (let i = 0, pos = 0; i < n; i++, pos += width) {
      const v = indices[i]!;
      const w = pos >>> 5;
      const off = pos & 31;
      packed[w]! |= v << off;
      if (off + width > 32) packed[w + 1]! |= v >>> (32 - off);
    }
    if (!inPlace)
      for (let b = 0; b < payload; b++)
        bytes[HEADER + b] = (packed[b >>> 2]! >>> ((b & 3) * 8)) & 0xff;
  } else {
    let k = HEADER;
    let prev = -1;
    for (let i = 0; i < n; i++) {
      let gap = indices[i]! - prev - 1;
      prev = indices[i]!;
      while (gap >= 0x80) {
        bytes[k++] = (gap & 0x7f) | 0x80;
        gap >>>= 7;
      }
      bytes[k++] = gap;
    }
  }
  return bytes;
}

/** Decode bytes from `encodeIndices`; throws on a malformed or truncated buffer. */
export function decodeIndices(bytes: Uint8Array): DecodedIndices {
  if (bytes.length < HEADER) throw new Error('Encoded indices: truncated header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const code = bytes[0]!;
  const format = (Object.keys(FORMAT_CODES) as IndexEncoding[]).find(
    (f) => FORMAT_CODES[f] === code,
  );
  if (!format) throw new Error(`Encoded indices: unknown format ${code}`);
  const n = view.getUint32(4, true);
  const version = view.getUint32(8, true);
  const indices = new Uint32Array(n);
  const payload = bytes.length - HEADER;
  if (format === 'u32') {
    if (payload !== n * 4) throw new Error('Encoded indices: wrong payload size');
    for (let i = 0; i < n; i++) indices[i] = view.getUint32(HEADER + 4 * i, true);
  } else if (format === 'bitpacked') {
    const width = bytes[1]!;
    if (width < 1 || width > 32) throw new Error(`Encoded indices: bad bit width ${width}`);
    if (payload !== Math.ceil((n * width) / 8))
      throw new Error('Encoded indices: wrong payload size');
    // The payload as 32-bit words. Aligned on a little-endian machine (an answer's own bytes),
    // its whole words are read where they are, and the few indices that reach into its last
    // partial word bit by bit; else the bytes are copied into words first.
    const start = bytes.byteOffset + HEADER;
    let words: Uint32Array;
    let fast: number;
    if (LITTLE_ENDIAN && start % 4 === 0) {
      const full = payload >>> 2;
      words = new Uint32Array(bytes.buffer, start, full);
      fast = full * 32 >= width ? Math.min(n, Math.floor((full * 32 - width) / width) + 1) : 0;
    } else {
      words = new Uint32Array(Math.ceil(payload / 4) + 1);
      for (let b = 0; b < payload; b++) words[b >>> 2]! |= bytes[HEADER + b]! << ((b & 3) * 8);
      fast = n;
    }
    const mask = width === 32 ? 0xffffffff : (1 << width) - 1;
    let pos = 0;
    for (let i = 0; i < fast; i++, pos += width) {
      const w = pos >>> 5;
      const off = pos & 31;
      let v = words[w]! >>> off;
      if (off + width > 32) v |= words[w + 1]! << (32 - off);
      indices[i] = (v & mask) >>> 0;
    }
    for (let i = fast; i < n; i++, pos += width) {
      let v = 0;
      for (let b = 0; b < width; b++) {
        const bit = pos + b;
        v |= ((bytes[HEADER + (bit >>> 3)]! >>> (bit & 7)) & 1) << b;
      }
      indices[i] = v >>> 0;
    }
  } else {
    let k = HEADER;
    let prev = -1;
    for (let i = 0; i < n; i++) {
      let gap = 0;
      let shift = 0;
      for (;;) {
        if (k >= bytes.length) throw new Error('Encoded indices: truncated varint');
        const byte = bytes[k++]!;
        gap += (byte & 0x7f) * 2 ** shift;
        shift += 7;
        if ((byte & 0x80) === 0) break;
        if (shift > 35) throw new Error('Encoded indices: varint too long');
      }
      const value = prev + 1 + gap;
      if (value > 0xffffffff) throw new Error('Encoded indices: index overflows uint32');
      indices[i] = value;
      prev = value;
    }
    if (k !== bytes.length) throw new Error('Encoded indices: trailing bytes');
  }
  return { indices, version, format };
}
