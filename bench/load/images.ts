// Distinct JPEGs for the load benchmark, made the way bench/upload/run.ts makes them: a handful
// of rendered scenes, each image made unique (content addressing stores it once otherwise) by
// a stamped 16-bit code block.
import { syntheticImage } from '@loupe/analysis';
import sharp from 'sharp';

/** `count` JPEGs of `width`×`height` at quality 85; `offset` keeps two sets from sharing files. */
export async function makeJpegs(
  count: number,
  width: number,
  height: number,
  offset = 0,
): Promise<Uint8Array[]> {
  const bases = Array.from(
    { length: 16 },
    (_, seed) => syntheticImage(seed + 1, width, height, { minObjects: 2, maxObjects: 5 }).data,
  );
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const code = i + offset;
    const data = Buffer.from(bases[i % bases.length]!);
    for (let bit = 0; bit < 16; bit++) {
      const value = (code >> bit) & 1 ? 255 : 0;
      for (let y = 0; y < 8; y++) {
        const start = ((y + (bit >> 2) * 8) * width + (bit & 3) * 8) * 3;
        data.fill(value, start, start + 8 * 3);
      }
    }
    out.push(
      await sharp(data, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return out;
}
