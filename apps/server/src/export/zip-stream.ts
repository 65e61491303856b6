// A streaming zip writer: entries go out one after the other as they are made, so an export of
// any size holds only the entry being written (and one media file) in memory. Media are stored
// as they are (their CRC is known before their header is written, so streaming readers can
// read them); text is deflated on the fly with a data descriptor. Zip64 records are added when
// offsets, sizes or the number of entries need them, so archives over 4 GB open everywhere.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { constants, crc32, createDeflateRaw } from 'node:zlib';

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** General purpose flags: bit 11, names are UTF-8; bit 3, sizes follow the data. */
const UTF8 = 0x0800;
const DESCRIPTOR = 0x0008;
const STORED = 0;
const DEFLATED = 8;
/** "Made by" Unix (upper byte 3), spec version 4.5 (Zip64). */
const MADE_BY = (3 << 8) | 45;

/** The client went away, or the archive was abandoned: stop making it. */
export class ZipAborted extends Error {
  override name = 'ZipAborted';
  constructor() {
    super('The export was abandoned before it was finished.');
  }
}

/** The Zip64 extra field of a local header: the real sizes. */
function zip64Sizes(size: number, compressed: number): Buffer {
  const extra = Buffer.alloc(20);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(16, 2);
  extra.writeBigUInt64LE(BigInt(size), 4);
  extra.writeBigUInt64LE(BigInt(compressed), 12);
  return extra;
}

function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date:
      (Math.max(0, date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

interface CentralEntry {
  name: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

export class ZipWriter {
  /** The archive's bytes; pipe or send it. Destroying it abandons the archive. */
  readonly output: PassThrough;
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private readonly stamp: { time: number; date: number };
  private busy = false;

  constructor(now: Date = new Date()) {
    this.output = new PassThrough({ highWaterMark: 1 << 20 });
    this.stamp = dosDateTime(now);
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.offset;
  }

  private async write(chunk: Buffer): Promise<void> {
    const out = this.output;
    if (out.destroyed || out.writableEnded) throw new ZipAborted();
    this.offset += chunk.length;
    if (out.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        cleanup();
        resolve();
      };
      const fail = () => {
        cleanup();
        reject(new ZipAborted());
      };
      const cleanup = () => {
        out.off('drain', done);
        out.off('close', fail);
        out.off('error', fail);
      };
      out.once('drain', done);
      out.once('close', fail);
      out.once('error', fail);
    });
  }

  private localHeader(
    name: Buffer,
    flags: number,
    method: number,
    crc: number,
    size: number,
    compressed: number,
    extra?: Buffer,
  ): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt32LE(crc >>> 0, 14);
    header.writeUInt32LE(compressed, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(extra?.length ?? 0, 28);
    if (extra) header.writeUInt16LE(45, 4);
    return Buffer.concat(extra ? [header, name, extra] : [header, name]);
  }

  private begin(): void {
    if (this.busy) throw new Error('Zip entries are written one at a time.');
    this.busy = true;
  }

  /** Adds a file stored as it is (media: already compressed). */
  async addFile(path: string, data: Uint8Array): Promise<void> {
    this.begin();
    try {
      const name = Buffer.from(path, 'utf8');
      const crc = crc32(data);
      const offset = this.offset;
      // Media are at most a few hundred MB: their sizes always fit the local header.
      await this.write(this.localHeader(name, UTF8, STORED, crc, data.length, data.length));
      await this.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      this.entries.push({
        name,
        flags: UTF8,
        method: STORED,
        crc,
        compressed: data.length,
        size: data.length,
        offset,
      });
    } finally {
      this.busy = false;
    }
  }

  /**
   * Adds a file deflated as its chunks arrive (JSON, CSV, YAML). `level` trades size for speed;
   * the default suits text of any size.
   */
  async addStream(
    path: string,
    chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
    level: number = constants.Z_BEST_SPEED,
  ): Promise<void> {
    this.begin();
    try {
      const name = Buffer.from(path, 'utf8');
      const flags = UTF8 | DESCRIPTOR;
      const offset = this.offset;
      await this.write(this.localHeader(name, flags, DEFLATED, 0, 0, 0));
      const deflate = createDeflateRaw({ level, chunkSize: 1 << 16 });
      let compressed = 0;
      const pump = (async () => {
        for await (const out of deflate as AsyncIterable<Buffer>) {
          compressed += out.length;
          await this.write(out);
        }
      })();
      pump.catch((error: unknown) => deflate.destroy(error as Error));
      let crc = 0;
      let size = 0;
      // Small pieces are gathered first: each write to zlib is a trip to its thread pool.
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const send = async () => {
        const bytes = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        crc = crc32(bytes, crc);
        size += bytes.length;
        if (!deflate.write(bytes)) await once(deflate, 'drain');
      };
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
        if (bytes.length === 0) continue;
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= 1 << 18) await send();
      }
      if (pendingBytes > 0) await send();
      deflate.end();
      await pump;
      const zip64 = size >= MAX32 || compressed >= MAX32;
      const descriptor = Buffer.alloc(zip64 ? 24 : 16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      if (zip64) {
        descriptor.writeBigUInt64LE(BigInt(compressed), 8);
        descriptor.writeBigUInt64LE(BigInt(size), 16);
      } else {
        descriptor.writeUInt32LE(compressed, 8);
        descriptor.writeUInt32LE(size, 12);
      }
      await this.write(descriptor);
      this.entries.push({ name, flags, method: DEFLATED, crc, compressed, size, offset });
    } finally {
      this.busy = false;
    }
  }

  /**
   * Adds a file deflated beforehand (a DeflateSpool): its CRC and sizes are known, so they go in
   * the local header and the data is copied as it is.
   */
  async addDeflated(
    path: string,
    deflated: {
      crc: number;
      size: number;
      compressedSize: number;
      data: AsyncIterable<Buffer> | Iterable<Buffer>;
    },
  ): Promise<void> {
    this.begin();
    try {
      const name = Buffer.from(path, 'utf8');
      const { crc, size, compressedSize } = deflated;
      const offset = this.offset;
      const zip64 = size >= MAX32 || compressedSize >= MAX32;
      const header = this.localHeader(
        name,
        UTF8,
        DEFLATED,
        crc,
        zip64 ? MAX32 : size,
        zip64 ? MAX32 : compressedSize,
        zip64 ? zip64Sizes(size, compressedSize) : undefined,
      );
      await this.write(header);
      let copied = 0;
      for await (const chunk of deflated.data) {
        copied += chunk.length;
        await this.write(chunk);
      }
      if (copied !== compressedSize)
        throw new Error(`The deflated data of ${path} is ${copied} bytes, not ${compressedSize}.`);
      this.entries.push({
        name,
        flags: UTF8,
        method: DEFLATED,
        crc,
        compressed: compressedSize,
        size,
        offset,
      });
    } finally {
      this.busy = false;
    }
  }

  private centralRecord(entry: CentralEntry): Buffer {
    const extra: bigint[] = [];
    if (entry.size >= MAX32) extra.push(BigInt(entry.size));
    if (entry.compressed >= MAX32) extra.push(BigInt(entry.compressed));
    if (entry.offset >= MAX32) extra.push(BigInt(entry.offset));
    const extraBytes = extra.length ? 4 + 8 * extra.length : 0;
    const record = Buffer.alloc(46 + entry.name.length + extraBytes);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(MADE_BY, 4);
    record.writeUInt16LE(extra.length ? 45 : 20, 6);
    record.writeUInt16LE(entry.flags, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt16LE(this.stamp.time, 12);
    record.writeUInt16LE(this.stamp.date, 14);
    record.writeUInt32LE(entry.crc >>> 0, 16);
    record.writeUInt32LE(Math.min(entry.compressed, MAX32), 20);
    record.writeUInt32LE(Math.min(entry.size, MAX32), 24);
    record.writeUInt16LE(entry.name.length, 28);
    record.writeUInt16LE(extraBytes, 30);
    // comment length, disk number, internal attributes: 0
    record.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    record.writeUInt32LE(Math.min(entry.offset, MAX32), 42);
    entry.name.copy(record, 46);
    if (extra.length) {
      let at = 46 + entry.name.length;
      record.writeUInt16LE(0x0001, at);
      record.writeUInt16LE(8 * extra.length, at + 2);
      at += 4;
      for (const value of extra) {
        record.writeBigUInt64LE(value, at);
        at += 8;
      }
    }
    return record;
  }

  /** Writes the central directory and ends the archive. */
  async finish(): Promise<void> {
    this.begin();
    const start = this.offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for (const entry of this.entries) {
      const record = this.centralRecord(entry);
      pending.push(record);
      pendingBytes += record.length;
      if (pendingBytes >= 1 << 20) {
        await this.write(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      }
    }
    if (pending.length) await this.write(Buffer.concat(pending));
    const size = this.offset - start;
    const count = this.entries.length;
    if (count >= MAX16 || start >= MAX32 || size >= MAX32) {
      const zip64End = this.offset;
      const record = Buffer.alloc(56 + 20);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(MADE_BY, 12);
      record.writeUInt16LE(45, 14);
      // this disk, the disk with the directory: 0
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      record.writeUInt32LE(0x07064b50, 56);
      record.writeUInt32LE(0, 60);
      record.writeBigUInt64LE(BigInt(zip64End), 64);
      record.writeUInt32LE(1, 72);
      await this.write(record);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, MAX16), 8);
    end.writeUInt16LE(Math.min(count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    await this.write(end);
    this.output.end();
    this.busy = false;
  }

  /** Abandons the archive: the reader sees the stream fail, not a shorter valid zip. */
  abort(error: Error): void {
    if (!this.output.destroyed) this.output.destroy(error);
  }
}

/** The stream of an archive that `make` fills; a failure of `make` fails the stream. */
export function zipStream(make: (zip: ZipWriter) => Promise<void>, now?: Date): Readable {
  const zip = new ZipWriter(now);
  // Started on the next turn, after the caller has the stream (and has sent the headers).
  setImmediate(() => {
    make(zip)
      .then(() => zip.finish())
      .catch((error: unknown) =>
        zip.abort(error instanceof Error ? error : new Error(String(error))),
      );
  });
  return zip.output;
}
