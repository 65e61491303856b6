// The streaming zip writer: what it writes opens as a zip (stored and deflated entries, UTF-8
// names, Zip64 end records past 65,535 entries), and an abandoned archive stops its maker.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpoolFolder } from './text-spool.js';
import { ZipAborted, ZipWriter, zipStream } from './zip-stream.js';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('ZipWriter', () => {
  it('writes stored and deflated entries that unzip to what was written', async () => {
    const media = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const rows = Array.from({ length: 20_000 }, (_, i) => `row ${i},é,${i % 7}\n`);
    const stream = zipStream(async (zip) => {
      await zip.addFile('images/train/ça.png', media);
      await zip.addStream('train.csv', rows);
      await zip.addStream('empty.txt', []);
    });
    const bytes = await collect(stream);
    const files = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(files)).toEqual(['images/train/ça.png', 'train.csv', 'empty.txt']);
    expect(Buffer.from(files['images/train/ça.png']!)).toEqual(media);
    expect(strFromU8(files['train.csv']!)).toBe(rows.join(''));
    expect(files['empty.txt']!.length).toBe(0);
    // Text is deflated: the archive is smaller than the rows.
    expect(bytes.length).toBeLessThan(media.length + rows.join('').length / 2);
  });

  it('copies text deflated beforehand by a spool, which leaves no file behind', async () => {
    const root = mkdtempSync(join(tmpdir(), 'loupe-spool-'));
    const spools = new SpoolFolder(root);
    const big = spools.deflateSpool();
    const rows = Array.from({ length: 60_000 }, (_, i) => `sample-${i}.jpg,cat,${i * 7}\n`);
    for (const row of rows) if (big.append(row)) await big.flush();
    const empty = spools.deflateSpool();
    const bytes = await collect(
      zipStream(async (zip) => {
        await zip.addDeflated('train.csv', await big.finish());
        await zip.addDeflated('empty.csv', await empty.finish());
      }),
    );
    const files = unzipSync(new Uint8Array(bytes));
    expect(strFromU8(files['train.csv']!)).toBe(rows.join(''));
    expect(files['empty.csv']!.length).toBe(0);
    expect(readdirSync(root).length).toBe(1);
    await spools.remove();
    expect(readdirSync(root)).toEqual([]);
  });

  it('adds the Zip64 end records past 65,535 entries', async () => {
    const count = 65_600;
    const bytes = await collect(
      zipStream(async (zip) => {
        for (let i = 0; i < count; i++) await zip.addFile(`f/${i}`, Buffer.from([i % 256]));
      }),
    );
    // The classic end record says 0xFFFF; the Zip64 record before it holds the real count.
    const end = bytes.length - 22;
    expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
    expect(bytes.readUInt16LE(end + 10)).toBe(0xffff);
    const locator = end - 20;
    expect(bytes.readUInt32LE(locator)).toBe(0x07064b50);
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    expect(bytes.readUInt32LE(record)).toBe(0x06064b50);
    expect(Number(bytes.readBigUInt64LE(record + 32))).toBe(count);
    const files = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(files).length).toBe(count);
    expect(files['f/65599']).toEqual(new Uint8Array([65599 % 256]));
  });

  it('stops its maker when the reader goes away', async () => {
    const zip = new ZipWriter();
    let written = 0;
    const making = (async () => {
      for (;;) {
        await zip.addFile(`f/${written++}`, Buffer.alloc(64 * 1024, 1));
      }
    })();
    // A reader that takes a little, then hangs up.
    let received = 0;
    await pipeline(
      zip.output,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          done(received > 1 << 20 ? new Error('hung up') : null);
        },
      }),
    ).catch(() => {});
    await expect(making).rejects.toBeInstanceOf(ZipAborted);
    expect(written).toBeLessThan(100);
  });
});
