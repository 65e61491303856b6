import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeIndices, encodeIndices, type IndexEncoding } from './row-encoding.js';

const header = (format: number, width: number, count: number, version: number) => [
  format,
  width,
  0,
  0,
  count & 0xff,
  (count >>> 8) & 0xff,
  0,
  0,
  version,
  0,
  0,
  0,
];

describe('encodeIndices / decodeIndices', () => {
  it('bit-packs with the width of the largest index, least significant bit first', () => {
    // 0, 1, 2, 5 at 3 bits: 000 100 010 101 (LSB first) → bytes 0b10001000, 0b00001010
    const bytes = encodeIndices(Uint32Array.of(0, 1, 2, 5), { version: 7 });
    expect(Array.from(bytes)).toEqual([...header(2, 3, 4, 7), 0b10001000, 0b00001010]);
  });

  it('delta-varint stores gaps minus one as LEB128', () => {
    // 300 = 0b10_0101100 → 0xAC 0x02; then 301 → gap 0 → 0x00
    const bytes = encodeIndices(Uint32Array.of(300, 301), { version: 1, format: 'delta-varint' });
    expect(Array.from(bytes)).toEqual([...header(3, 0, 2, 1), 0xac, 0x02, 0x00]);
  });

  it('u32 is plain little-endian', () => {
    const bytes = encodeIndices(Uint32Array.of(1, 256), { version: 0, format: 'u32' });
    expect(Array.from(bytes)).toEqual([...header(1, 0, 2, 0), 1, 0, 0, 0, 0, 1, 0, 0]);
  });

  it('picks delta-varint for a dense ascending selection: one byte an item', () => {
    const indices = Uint32Array.from({ length: 10_000 }, (_, i) => 1_000_000 + i);
    const bytes = encodeIndices(indices, { version: 3 });
    expect(bytes[0]).toBe(3);
    expect(bytes.length).toBe(12 + 3 + 9_999); // first gap 1,000,000 takes 3 bytes
    expect(decodeIndices(bytes)).toEqual({ indices, version: 3, format: 'delta-varint' });
  });

  it('round-trips any indices in every applicable format', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 200 }),
        fc.boolean(),
        fc.nat({ max: 0xffffffff }),
        (values, ascending, version) => {
          const indices = Uint32Array.from(
            ascending ? [...new Set(values)].sort((a, b) => a - b) : values,
          );
          const formats: (IndexEncoding | undefined)[] = [undefined, 'u32', 'bitpacked'];
          if (ascending) formats.push('delta-varint');
          for (const format of formats) {
            const bytes = encodeIndices(indices, format ? { version, format } : { version });
            const decoded = decodeIndices(bytes);
            expect(decoded.indices).toEqual(indices);
            expect(decoded.version).toBe(version);
            // The same bytes off a word boundary, as a slice of a larger buffer may be.
            const shifted = new Uint8Array(bytes.length + 1).subarray(1);
            shifted.set(bytes);
            expect(decodeIndices(shifted).indices).toEqual(indices);
          }
        },
      ),
    );
  });

  it('rejects bad input', () => {
    expect(() =>
      encodeIndices(Uint32Array.of(2, 1), { version: 0, format: 'delta-varint' }),
    ).toThrow(/ascending/);
    expect(() => encodeIndices(Uint32Array.of(1), { version: -1 })).toThrow(/version/);
    const bytes = encodeIndices(Uint32Array.of(5, 9, 12), { version: 0, format: 'u32' });
    expect(() => decodeIndices(bytes.subarray(0, 14))).toThrow(/payload size/);
    expect(() => decodeIndices(Uint8Array.of(9, ...new Array<number>(11).fill(0)))).toThrow(
      /unknown format 9/,
    );
    const varint = encodeIndices(Uint32Array.of(1000), { version: 0, format: 'delta-varint' });
    expect(() => decodeIndices(varint.subarray(0, varint.length - 1))).toThrow(/truncated/);
  });
});
