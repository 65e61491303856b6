// Whole-buffer reads and writes at a position of an open file, synchronous (for worker threads and
// the checks process). One call of readSync or writeSync may move fewer bytes than asked, and
// none moves more than 2 GB, so both loop in chunks of at most 1 GB.
import { readSync, writeSync } from 'node:fs';

const CHUNK = 1 << 30;

/** Writes all of `bytes` at `position` of the file. */
export function writeFully(fd: number, bytes: Uint8Array, position = 0): void {
  let done = 0;
  while (done < bytes.byteLength)
    done += writeSync(fd, bytes, done, Math.min(bytes.byteLength - done, CHUNK), position + done);
}

/** Fills `into` from `position` of the file; throws when the file ends first. */
export function readFully(fd: number, into: Uint8Array, position = 0): void {
  let done = 0;
  while (done < into.byteLength) {
    const read = readSync(fd, into, done, Math.min(into.byteLength - done, CHUNK), position + done);
    if (read === 0) throw new Error('the file ended early');
    done += read;
  }
}
