// The detection dataset's media: a few tiny JPEGs rendered once with sharp, stored in the local
// blob store under the media keys of the dataset (content addressed, so 5,000 images share them).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { syntheticImage } from '@loupe/analysis';
import sharp from 'sharp';

export interface Blob {
  sha256: string;
  bytes: Buffer;
}

/**
 * `count` distinct JPEGs of `width`×`height`, rendered once and kept in `cache` (the generated
 * datasets name them by hash, so the next run must find the same bytes).
 */
export async function tinyJpegs(
  cache: string,
  count: number,
  width: number,
  height: number,
): Promise<Blob[]> {
  mkdirSync(cache, { recursive: true });
  const out: Blob[] = [];
  for (let seed = 1; seed <= count; seed++) {
    const path = join(cache, `${seed}-${width}x${height}.jpg`);
    let bytes: Buffer;
    if (existsSync(path)) bytes = readFileSync(path);
    else {
      const { data } = syntheticImage(seed, width, height, { minObjects: 2, maxObjects: 5 });
      bytes = await sharp(data, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer();
      writeFileSync(path, bytes);
    }
    out.push({ sha256: createHash('sha256').update(bytes).digest('hex'), bytes });
  }
  return out;
}

/** Writes the blobs where the local blob store of `dataDir` keeps a dataset's uploaded media. */
export function storeBlobs(dataDir: string, datasetId: string, blobs: Blob[]): void {
  for (const blob of blobs) {
    const path = join(dataDir, 'blobs', 'datasets', datasetId, 'media', blob.sha256);
    if (existsSync(path)) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, blob.bytes);
  }
}
