// The same behaviour from both blob stores: a local folder and a real S3-protocol server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
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

  it('streams a put in parts, moves it, and leaves nothing of a failed stream', async () => {
    const store = stores[kind]!();
    // Over one S3 part (8 MB), so the multipart path is taken there.
    const chunks = Array.from({ length: 9 }, (_, i) => Buffer.alloc(1024 * 1024 + i, i));
    const whole = Buffer.concat(chunks);
    await store.putStream('datasets/d1/uploads/u1', Readable.from(chunks), 'audio/wav');
    expect(await store.head('datasets/d1/uploads/u1')).toEqual({
      size: whole.length,
      contentType: 'audio/wav',
    });
    await store.move('datasets/d1/uploads/u1', 'datasets/d1/media/m1');
    expect(await store.head('datasets/d1/uploads/u1')).toBeUndefined();
    expect(await store.head('datasets/d1/media/m1')).toEqual({
      size: whole.length,
      contentType: 'audio/wav',
    });
    expect((await store.get('datasets/d1/media/m1'))!.equals(whole)).toBe(true);
    // A small stream is one plain put.
    await store.putStream('datasets/d1/media/m2', Readable.from([Buffer.from('ab')]), 'image/png');
    expect(await store.get('datasets/d1/media/m2')).toEqual(Buffer.from('ab'));

    async function* cutOff() {
      for (const chunk of chunks) yield chunk; // one S3 part is sent before the cut
      throw new Error('connection reset');
    }
    await expect(
      store.putStream('datasets/d1/uploads/u2', Readable.from(cutOff()), 'image/png'),
    ).rejects.toThrow('connection reset');
    expect(await store.head('datasets/d1/uploads/u2')).toBeUndefined();
    await store.delete('datasets/d1/media/m2');
    await store.delete('datasets/d1/media/never');
    expect(await store.head('datasets/d1/media/m2')).toBeUndefined();
    // Nothing else is left: no temporary files, no unfinished multipart uploads.
    expect(await store.deletePrefix('datasets/d1')).toBe(1);
    if (kind === 's3') {
      const s3 = store as S3BlobStore;
      const client = (s3 as unknown as { client: S3Client }).client;
      const pending = await client.send(new ListMultipartUploadsCommand({ Bucket: 'loupe-test' }));
      expect(pending.Uploads ?? []).toEqual([]);
    }
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
