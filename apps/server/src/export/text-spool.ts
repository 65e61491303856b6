// Text an export writes in one pass but must put in the archive later, in order: a split's CSV
// or COCO file grows page by page while the media of every split go into the archive as they
// are read. A TextSpool keeps small text in memory and moves it to a temporary file past 1 MB;
// a DeflateSpool compresses as it goes (on zlib's threads, beside the reading of the next page)
// into a temporary file the archive then copies as it is. Memory stays flat either way.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';

const FLUSH_AT = 1 << 20;
/** Text a DeflateSpool lets zlib have queued before its writer waits (memory stays bounded). */
const IN_FLIGHT = 8 << 20;

/** Text collected in memory until it is worth a write (FLUSH_AT characters). */
abstract class HeldText {
  protected parts: string[] = [];
  private pending = 0;

  /** Adds text without waiting; true when the caller should `await flush()` now. */
  append(text: string): boolean {
    this.parts.push(text);
    this.pending += text.length;
    return this.pending >= FLUSH_AT;
  }

  /** The text held, as UTF-8, and nothing held any more; null when nothing was. */
  protected take(): Buffer | null {
    if (this.parts.length === 0) return null;
    const bytes = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.pending = 0;
    return bytes;
  }
}

export class TextSpool extends HeldText {
  private handle: FileHandle | undefined;
  private onDisk = false;

  constructor(private readonly path: () => Promise<string>) {
    super();
  }

  async write(text: string): Promise<void> {
    if (this.append(text)) await this.flush();
  }

  /** Moves what is held in memory to the spool's file. */
  async flush(): Promise<void> {
    const bytes = this.take();
    if (!bytes) return;
    if (!this.handle) {
      this.handle = await open(await this.path(), 'w');
      this.onDisk = true;
    }
    await this.handle.write(bytes);
  }

  /** The text written, once: in memory, or read back from the file. */
  async *read(): AsyncGenerator<Buffer | string> {
    if (!this.onDisk) {
      yield* this.parts;
      this.parts = [];
      return;
    }
    await this.flush();
    const path = await this.path();
    await this.handle!.close();
    this.handle = undefined;
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
      yield chunk as Buffer;
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => {});
    this.handle = undefined;
  }
}

/** What a DeflateSpool holds: raw deflate data, with the CRC and sizes of the text. */
export interface Deflated {
  crc: number;
  size: number;
  compressedSize: number;
  data: AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** Text deflated as it is written, into a temporary file. */
export class DeflateSpool extends HeldText {
  private crc = 0;
  private size = 0;
  private compressedSize = 0;
  private deflate: DeflateRaw | undefined;
  private written: Promise<void> | undefined;
  private file = '';
  /** Bytes handed to zlib and not compressed yet; past IN_FLIGHT, `flush` waits. */
  private inFlight = 0;
  private caughtUp: (() => void) | undefined;

  constructor(private readonly path: () => Promise<string>) {
    super();
  }

  async flush(): Promise<void> {
    const bytes = this.take();
    if (bytes) await this.deflateBytes(bytes);
  }

  /** Adds text already in UTF-8 (after what is held). */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    await this.flush();
    if (bytes.length) await this.deflateBytes(bytes);
  }

  private async deflateBytes(bytes: Uint8Array): Promise<void> {
    if (!this.deflate) {
      this.file = await this.path();
      const deflate = createDeflateRaw({ level: constants.Z_BEST_SPEED, chunkSize: 1 << 16 });
      const counted = async function* (this: DeflateSpool) {
        for await (const chunk of deflate as AsyncIterable<Buffer>) {
          this.compressedSize += chunk.length;
          yield chunk;
        }
      }.call(this);
      this.written = pipeline(counted, createWriteStream(this.file));
      // A failed write fails the next flush or finish; no unhandled rejection meanwhile.
      this.written.catch(() => {});
      this.deflate = deflate;
    }
    this.crc = crc32(bytes, this.crc);
    this.size += bytes.length;
    // zlib works on its own thread while the next page is read and formatted: the caller waits
    // only when more than IN_FLIGHT bytes are still to compress (waiting for each write to
    // drain left one of the two sides idle at every flush).
    this.inFlight += bytes.length;
    this.deflate.write(bytes, () => {
      this.inFlight -= bytes.length;
      if (this.inFlight <= IN_FLIGHT / 2) this.caughtUp?.();
    });
    if (this.inFlight > IN_FLIGHT) {
      const caughtUp = new Promise<void>((resolve) => (this.caughtUp = resolve));
      await Promise.race([caughtUp, this.written!]);
      this.caughtUp = undefined;
    }
  }

  /** Ends the text; answers its deflate data to copy into the archive. */
  async finish(): Promise<Deflated> {
    await this.flush();
    // Nothing written: the deflate data of no text (one empty final block).
    if (!this.deflate) return { crc: 0, size: 0, compressedSize: 2, data: [Buffer.from([3, 0])] };
    this.deflate.end();
    await this.written;
    const file = this.file;
    return {
      crc: this.crc,
      size: this.size,
      compressedSize: this.compressedSize,
      data: createReadStream(file, { highWaterMark: 1 << 20 }),
    };
  }

  async close(): Promise<void> {
    this.deflate?.destroy();
    await this.written?.catch(() => {});
  }
}

/** The temporary folder of one export's spools, made when the first spool needs a file. */
export class SpoolFolder {
  private folder: string | undefined;
  private readonly spools: (TextSpool | DeflateSpool)[] = [];
  private count = 0;

  constructor(private readonly root: string) {}

  spool(): TextSpool {
    const index = this.count++;
    const spool = new TextSpool(async () => join(await this.ensure(), `${index}.txt`));
    this.spools.push(spool);
    return spool;
  }

  deflateSpool(): DeflateSpool {
    const index = this.count++;
    const spool = new DeflateSpool(async () => join(await this.ensure(), `${index}.deflate`));
    this.spools.push(spool);
    return spool;
  }

  private async ensure(): Promise<string> {
    if (!this.folder) {
      const folder = join(this.root, randomUUID());
      await mkdir(folder, { recursive: true });
      this.folder = folder;
    }
    return this.folder;
  }

  async remove(): Promise<void> {
    await Promise.all(this.spools.map((spool) => spool.close()));
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
  }
}
