// Unpacks a zip file into a folder, entry by entry from the central directory (stored and
// deflated entries, Zip64), checking each entry's CRC and refusing names that would land
// outside the folder. Reads the archive from disk: nothing is held whole in memory.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

export class ZipError extends Error {
  override name = 'ZipError';
}

const MAX32 = 0xffffffff;

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipError('The archive is cut short.');
  return buffer;
}

/** The entries of a zip file, from its central directory. */
export async function zipEntries(path: string): Promise<ZipEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tail = Math.min(size, 22 + 0xffff);
    const end = await readAt(file, size - tail, tail);
    let at = -1;
    for (let i = end.length - 22; i >= 0; i--)
      if (end.readUInt32LE(i) === 0x06054b50) {
        at = i;
        break;
      }
    if (at < 0)
      throw new ZipError('Not a zip archive (no end record): the download may be cut short.');
    let count = end.readUInt16LE(at + 10);
    let directorySize = end.readUInt32LE(at + 12);
    let directoryOffset = end.readUInt32LE(at + 16);
    const locator = size - tail + at - 20;
    if (locator >= 0) {
      const record = await readAt(file, locator, 20);
      if (record.readUInt32LE(0) === 0x07064b50) {
        const zip64 = await readAt(file, Number(record.readBigUInt64LE(8)), 56);
        if (zip64.readUInt32LE(0) !== 0x06064b50) throw new ZipError('A broken Zip64 end record.');
        count = Number(zip64.readBigUInt64LE(32));
        directorySize = Number(zip64.readBigUInt64LE(40));
        directoryOffset = Number(zip64.readBigUInt64LE(48));
      }
    }
    const directory = await readAt(file, directoryOffset, directorySize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (directory.readUInt32LE(p) !== 0x02014b50)
        throw new ZipError('A broken central directory.');
      const nameLength = directory.readUInt16LE(p + 28);
      const extraLength = directory.readUInt16LE(p + 30);
      const commentLength = directory.readUInt16LE(p + 32);
      const entry: ZipEntry = {
        name: directory.toString('utf8', p + 46, p + 46 + nameLength),
        method: directory.readUInt16LE(p + 10),
        crc: directory.readUInt32LE(p + 16),
        compressedSize: directory.readUInt32LE(p + 20),
        size: directory.readUInt32LE(p + 24),
        offset: directory.readUInt32LE(p + 42),
      };
      // Zip64: the fields at 0xFFFFFFFF are in the extra field 0x0001, in this order.
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = directory.readUInt16LE(e);
        const length = directory.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          for (const field of ['size', 'compressedSize', 'offset'] as const) {
            if (entry[field] === MAX32) {
              entry[field] = Number(directory.readBigUInt64LE(q));
              q += 8;
            }
          }
        }
        e += 4 + length;
      }
      entries.push(entry);
      p = extraEnd + commentLength;
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** Where an entry lands under `folder`, or an error for a name that would leave it. */
function target(folder: string, name: string): string {
  if (!name || isAbsolute(name) || name.includes('\\') || /^[A-Za-z]:/.test(name))
    throw new ZipError(`Refusing the archive entry '${name}': not a relative path.`);
  const parts = name.split('/');
  if (parts.some((part) => part === '..'))
    throw new ZipError(`Refusing the archive entry '${name}'.`);
  const root = resolve(folder);
  const path = resolve(join(root, name));
  if (path !== root && !path.startsWith(root + sep))
    throw new ZipError(`Refusing the archive entry '${name}': it leaves the folder.`);
  return path;
}

/** Unpacks every entry of the zip at `path` into `folder`; answers the files written. */
export async function unzipFile(
  path: string,
  folder: string,
): Promise<{ files: number; bytes: number }> {
  const entries = await zipEntries(path);
  let files = 0;
  let bytes = 0;
  const archive = await open(path, 'r');
  try {
    for (const entry of entries) {
      const out = target(folder, entry.name);
      if (entry.name.endsWith('/')) {
        await mkdir(out, { recursive: true });
        continue;
      }
      if (entry.method !== 0 && entry.method !== 8)
        throw new ZipError(
          `The archive entry '${entry.name}' uses compression method ${entry.method}.`,
        );
      const local = await readAt(archive, entry.offset, 30);
      if (local.readUInt32LE(0) !== 0x04034b50)
        throw new ZipError(`A broken entry '${entry.name}'.`);
      const start = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      await mkdir(dirname(out), { recursive: true });
      let crc = 0;
      let written = 0;
      const check = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          crc = crc32(chunk, crc);
          written += chunk.length;
          done(null, chunk);
        },
      });
      const source =
        entry.compressedSize === 0
          ? Readable.from([])
          : createReadStream(path, { start, end: start + entry.compressedSize - 1 });
      if (entry.method === 8)
        await pipeline(source, createInflateRaw(), check, createWriteStream(out));
      else await pipeline(source, check, createWriteStream(out));
      if (written !== entry.size || crc >>> 0 !== entry.crc >>> 0)
        throw new ZipError(`The archive entry '${entry.name}' is damaged (size or CRC differ).`);
      files++;
      bytes += written;
    }
  } finally {
    await archive.close();
  }
  return { files, bytes };
}
