// The same behaviour from both blob stores: a local folder and a real S3-protocol server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMoto, type Moto } from '../testing/moto.js';
import { LocalBlobStore, S3BlobStore, readAll, type BlobStore } from './blob-store.js';

let moto: Moto;
const stores: Record<string, () => BlobStore> = {};
beforeAll(async () => {
  moto = await startMoto();
  await moto.createBucket('loupe-test');
  stores.local = () => new LocalBlobStore(mkdtempSync(join(tmpdir(), 'loupe-blobs-')));
  stores.s3 = () =>
    new S3BlobStore({
      bucket: 'loupe-test',
      prefix: `run-${Date.now()}-${Math.random()}`,
      client: { endpoint: moto.endpoint, region: 'us-east-1', forcePathStyle: true },
    });
}, 60_000);
afterAll(() => moto?.stop());

describe.each(['local', 's3'])('%s blob store', (kind) => {
  it('puts, heads, gets, streams ranges and deletes by prefix', async () => {
    const store = stores[kind]!();
    const body = Buffer.from('0123456789abcdef');
    expect(await store.head('datasets/d1/media/x')).toBeUndefined();
    expect(await store.get('datasets/d1/media/x')).toBeUndefined();
    expect(await store.stream('datasets/d1/media/x')).toBeUndefined();
    await store.put('datasets/d1/media/x', body, 'image/png');
    await store.put('datasets/d1/thumbnails/y', Buffer.from('t'), 'image/webp');
    await store.put('datasets/d2/media/z', Buffer.from('z'), 'image/png');
    expect(await store.head('datasets/d1/media/x')).toEqual({ size: 16, contentType: 'image/png' });
    expect(await store.get('datasets/d1/media/x')).toEqual(body);
    expect(
      (
        await readAll((await store.stream('datasets/d1/media/x', { start: 2, end: 5 }))!)
      ).toString(),
    ).toBe('2345');
    expect(await store.deletePrefix('datasets/d1')).toBe(2);
    expect(await store.head('datasets/d1/media/x')).toBeUndefined();
    expect(await store.get('datasets/d2/media/z')).toEqual(Buffer.from('z'));
    // Putting into a deleted place makes it again.
    await store.put('datasets/d1/media/x', body, 'image/png');
    expect(await store.get('datasets/d1/media/x')).toEqual(body);
  });

  it('puts into a folder removed behind its back', async () => {
    if (kind !== 'local') return;
    const root = mkdtempSync(join(tmpdir(), 'loupe-blobs-'));
    const store = new LocalBlobStore(root);
    await store.put('datasets/d1/media/a', Buffer.from('a'), 'image/png');
    rmSync(join(root, 'datasets'), { recursive: true });
    await store.put('datasets/d1/media/b', Buffer.from('b'), 'image/png');
    expect(await store.head('datasets/d1/media/b')).toEqual({ size: 1, contentType: 'image/png' });
  });

  it('refuses keys that could escape their place', async () => {
    const store = stores[kind]!();
    for (const key of ['../x', '/abs', 'a//b', 'a/./b', '']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(
        /Unsafe blob key/,
      );
    }
  });
});
