// Large typed arrays between the server and a child process (child-process.ts) by file: the IPC
// pipe would serialize a copy on each side, a file is written once and read once into the
// child's own memory. Files live in a private temporary folder per task. An array the server
// never holds in memory (a FileArray: a feature matrix written as it is read from the database)
// goes as a link to its file.
import {
  closeSync,
  copyFileSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  openSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { readFully, writeFully } from './file-io.js';

const SPILLED = '__loupeSpilled';

interface Spilled {
  [SPILLED]: true;
  file: string;
  type: string;
  length: number;
}

const TYPED_ARRAYS = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type TypedArrayName = keyof typeof TYPED_ARRAYS;
type AnyTypedArray = InstanceType<(typeof TYPED_ARRAYS)[TypedArrayName]>;

/**
 * A typed array kept in a file instead of memory, filled in place (zeros until written): a child
 * is sent a link to the file (each task's link is the child's to remove), and the maker reads it
 * back in parts and removes it.
 */
export class FileArray {
  readonly byteLength: number;
  private fd: number | null;

  constructor(
    readonly file: string,
    readonly type: TypedArrayName,
    readonly length: number,
  ) {
    this.byteLength = length * TYPED_ARRAYS[type].BYTES_PER_ELEMENT;
    this.fd = openSync(file, 'wx+', 0o600);
    ftruncateSync(this.fd, this.byteLength);
  }

  /** Writes `bytes` at a byte offset of the array. */
  write(byteOffset: number, bytes: Uint8Array): void {
    if (byteOffset < 0 || byteOffset + bytes.byteLength > this.byteLength)
      throw new RangeError('A write past the end of a file array.');
    writeFully(this.descriptor(), bytes, byteOffset);
  }

  /** The array's bytes in order, a part of at most `size` bytes at a time (one buffer, reused). */
  *parts(size = 16 << 20): Generator<Uint8Array> {
    const buffer = new Uint8Array(Math.min(size, Math.max(1, this.byteLength)));
    for (let at = 0; at < this.byteLength; at += buffer.byteLength) {
      const part = buffer.subarray(0, Math.min(buffer.byteLength, this.byteLength - at));
      readFully(this.descriptor(), part, at);
      yield part;
    }
  }

  /** The file, linked (or copied) into `folder` for one task. */
  sendTo(target: string): void {
    try {
      linkSync(this.file, target);
    } catch {
      copyFileSync(this.file, target);
    }
  }

  /** Closes and removes the file (links sent stay until their tasks read them). */
  remove(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    try {
      unlinkSync(this.file);
    } catch {
      // Already gone.
    }
  }

  private descriptor(): number {
    if (this.fd === null) throw new Error('The file array was removed.');
    return this.fd;
  }
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * `value` with each typed array of at least `minBytes` (shared or not) written to a file in
 * `folder` and replaced by a reference to it; plain objects and arrays are walked, the rest kept.
 */
export function spill(value: unknown, folder: string, minBytes: number, prefix = ''): unknown {
  let count = 0;
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (node instanceof FileArray) {
      const file = join(folder, `${prefix}${count++}.bin`);
      node.sendTo(file);
      return { [SPILLED]: true, file, type: node.type, length: node.length } satisfies Spilled;
    }
    if (ArrayBuffer.isView(node)) {
      const type = node.constructor.name;
      if (node.byteLength < minBytes || !(type in TYPED_ARRAYS)) return node;
      const file = join(folder, `${prefix}${count++}.bin`);
      writeAll(file, new Uint8Array(node.buffer, node.byteOffset, node.byteLength));
      return {
        [SPILLED]: true,
        file,
        type,
        length: (node as AnyTypedArray).length,
      } satisfies Spilled;
    }
    if (Array.isArray(node)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (item === null || typeof item !== 'object') continue;
        const walked = walk(item);
        if (walked !== item) (copy ??= node.slice())[i] = walked;
      }
      return copy ?? node;
    }
    if (!isPlain(node)) return node;
    let copy: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(node)) {
      const walked = walk(item);
      if (walked !== item) (copy ??= { ...node })[key] = walked;
    }
    return copy ?? node;
  };
  return walk(value);
}

/** The inverse of `spill`: each reference read back (into a plain ArrayBuffer) and its file removed. */
export function revive(value: unknown): unknown {
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return node;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (item !== null && typeof item === 'object') node[i] = walk(item);
      }
      return node;
    }
    if (!isPlain(node)) return node;
    if ((node as Partial<Spilled>)[SPILLED] === true) return readSpilled(node as Spilled);
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = walk(record[key]);
    return record;
  };
  return walk(value);
}

function readSpilled(spilled: Spilled): AnyTypedArray {
  const View = TYPED_ARRAYS[spilled.type as TypedArrayName];
  const array = new View(spilled.length);
  const bytes = new Uint8Array(array.buffer);
  const fd = openSync(spilled.file, 'r');
  try {
    if (fstatSync(fd).size !== bytes.length) throw new Error('A task file has the wrong size.');
    readFully(fd, bytes);
  } finally {
    closeSync(fd);
  }
  unlinkSync(spilled.file);
  return array;
}

function writeAll(file: string, bytes: Uint8Array): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeFully(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
