// The media pool with a stand-in worker: a thread out of heap or hung costs only its culprit
// file, bytes move to a thread a file has alone, and a thread that cannot start fails its files.
import { afterEach, describe, expect, it } from 'vitest';
import { workerSource } from '../platform/worker-source.js';
import { MediaPool, type MediaKind, type MediaPoolOptions } from './media-pool.js';

// The pool around a stand-in worker (media-pool.fixture.worker.ts) that misbehaves on request.
const fixture = workerSource(import.meta.url, 'media-pool.fixture.worker');
const options: MediaPoolOptions = { threads: 1, timeoutMs: 20_000, maxPixels: 1e8, heapMb: 32 };

let pool: MediaPool | undefined;
afterEach(() => pool?.close());

const task = (ref: string, media: MediaKind = 'image', bytes = new Uint8Array(8)) => ({
  kind: 'thumbnail' as const,
  media,
  ref,
  bytes,
});

/** Each task's answer (the fixture echoes the value after the colon) or its error message. */
const answers = (refs: string[]) =>
  Promise.all(
    refs.map((ref) =>
      pool!.run(task(ref)).then(
        (result) => result.values?.value,
        (error: Error) => error.message,
      ),
    ),
  );

describe('MediaPool', { timeout: 60_000 }, () => {
  it('fails only the file that exhausts its heap; the files beside it run again', async () => {
    pool = new MediaPool(options, fixture);
    expect(await answers(['ok:a', 'ok:b', 'heap', 'ok:c'])).toEqual([
      'a',
      'b',
      'decoding and measuring ran out of memory',
      'c',
    ]);
    expect(await answers(['ok:after'])).toEqual(['after']);
  });

  it('ends a thread held past the deadline, failing only the file that held it', async () => {
    pool = new MediaPool({ ...options, timeoutMs: 500 }, fixture);
    expect(await answers(['ok:a', 'loop', 'ok:b'])).toEqual([
      'a',
      'decoding and measuring took longer than 0.5 s',
      'b',
    ]);
  });

  it("answers a file's own error to that file alone", async () => {
    pool = new MediaPool(options, fixture);
    expect(await answers(['error:x', 'ok:y'])).toEqual(['refused x', 'y']);
  });

  it('moves the bytes of a file that runs alone, and copies those that share a thread', async () => {
    pool = new MediaPool(options, fixture);
    const clip = new Uint8Array(16);
    const image = new Uint8Array(16);
    expect((await pool.run(task('ok:clip', 'audio', clip))).values?.bytes).toBe(16);
    expect((await pool.run(task('ok:image', 'image', image))).values?.bytes).toBe(16);
    expect([clip.byteLength, image.byteLength]).toEqual([0, 16]);
  });

  it('fails waiting files when its thread cannot start, instead of starting it forever', async () => {
    pool = new MediaPool(options, workerSource(import.meta.url, 'no-such.worker'));
    const [answer] = await answers(['ok:a']);
    expect(answer).toMatch(/^the media thread could not start: /);
  });

  it('refuses work once closed', async () => {
    pool = new MediaPool(options, fixture);
    await pool.close();
    expect(await answers(['ok:a'])).toEqual(['the media pool is closed']);
  });
});
