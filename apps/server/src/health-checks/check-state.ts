// Search state the health checks keep between runs (docs/health-checks.md, "Reruns after items
// are added"): one file per dataset and key under <data dir>/check-state/<dataset id>/, written by
// the checks process (checks.worker.ts) after a check's search and read back by the next run, so
// that after items are added only they are searched. A per-worker cache: a file that is missing,
// of another format or damaged is ignored (and removed), and the check then runs in full.
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeptValue } from '@loupe/analysis';
import { readFully, writeFully } from '../platform/file-io.js';
import type { CheckState, KeptRecord } from './catalogue/types.js';

const MAGIC = 'LOUPECS1';
/** Bumped whenever the layout below changes: older files are ignored. */
const FILE_FORMAT = 1;
const MAX_HEADER = 16 * 1024 * 1024;
const SAFE_NAME = /^[A-Za-z0-9_-]{1,128}$/;
/**
 * A partly written file older than this was left by a process that died while writing it (a
 * write takes seconds; a check's deadline is 30 minutes): the next write of its key removes it.
 */
const STALE_PARTIAL_MS = 60 * 60 * 1000;

type ArrayKind = 'f32' | 'f64' | 'i32' | 'u32' | 'u8';
type Section =
  | { kind: ArrayKind; offset: number; count: number }
  | { kind: 'strings'; offset: number; bytes: number }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string };

const ARRAYS = {
  f32: Float32Array,
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  u8: Uint8Array,
} as const;

function kindOf(value: KeptValue): ArrayKind | 'strings' | 'number' | 'string' {
  if (value instanceof Float32Array) return 'f32';
  if (value instanceof Float64Array) return 'f64';
  if (value instanceof Int32Array) return 'i32';
  if (value instanceof Uint32Array) return 'u32';
  if (value instanceof Uint8Array) return 'u8';
  if (Array.isArray(value)) return 'strings';
  return typeof value === 'number' ? 'number' : 'string';
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** The folder of a dataset's state under `root`; throws on an id that is not a plain name. */
export function datasetStateDir(root: string, datasetId: string): string {
  if (!SAFE_NAME.test(datasetId)) throw new Error('Unexpected dataset id for check state');
  return join(root, datasetId);
}

/** Removes a dataset's kept state (the dataset was deleted). */
export async function forgetCheckState(root: string, datasetId: string): Promise<void> {
  if (!SAFE_NAME.test(datasetId)) return;
  await rm(datasetStateDir(root, datasetId), { recursive: true, force: true }).catch(
    () => undefined,
  );
}

/** A dataset's kept state as files, read and written synchronously (in the checks process). */
export class CheckStateFiles implements CheckState {
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private file(key: string): string {
    if (!SAFE_NAME.test(key)) throw new Error(`Unexpected check state key '${key}'`);
    return join(this.dir, `${key}.state`);
  }

  read(key: string): KeptRecord | null {
    const path = this.file(key);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    try {
      return readRecord(fd);
    } catch (error) {
      this.warn(
        `Ignoring the check state ${path}: ${error instanceof Error ? error.message : error}`,
      );
      rmSync(path, { force: true });
      return null;
    } finally {
      closeSync(fd);
    }
  }

  write(key: string, record: KeptRecord | null): void {
    const path = this.file(key);
    if (!record) {
      rmSync(path, { force: true });
      return;
    }
    mkdirSync(this.dir, { recursive: true });
    this.removeStalePartials(key);
    const partial = `${path}.${randomUUID()}.partial`;
    try {
      writeRecord(partial, record);
      renameSync(partial, path);
    } catch (error) {
      rmSync(partial, { force: true });
      this.warn(
        `Could not write the check state ${path}: ${error instanceof Error ? error.message : error}`,
      );
    }
  }

  /** Removes the key's partly written files that a dead process left (other writers' stay). */
  private removeStalePartials(key: string): void {
    const prefix = `${key}.state.`;
    const before = Date.now() - STALE_PARTIAL_MS;
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
      const path = join(this.dir, name);
      try {
        if (statSync(path).mtimeMs < before) rmSync(path, { force: true });
      } catch {
        // Renamed or removed meanwhile by its writer.
      }
    }
  }
}

function writeRecord(path: string, record: KeptRecord): void {
  const sections: Record<string, Section> = {};
  const bodies: Uint8Array[] = [];
  let offset = 0;
  for (const [name, value] of Object.entries(record)) {
    const kind = kindOf(value);
    if (kind === 'number') sections[name] = { kind, value: value as number };
    else if (kind === 'string') sections[name] = { kind, value: value as string };
    else {
      const bytes =
        kind === 'strings'
          ? Buffer.from(JSON.stringify(value), 'utf8')
          : new Uint8Array(
              (value as Uint8Array).buffer,
              (value as Uint8Array).byteOffset,
              (value as Uint8Array).byteLength,
            );
      sections[name] =
        kind === 'strings'
          ? { kind, offset, bytes: bytes.byteLength }
          : { kind, offset, count: (value as Uint8Array).length };
      bodies.push(bytes);
      offset = align8(offset + bytes.byteLength);
    }
  }
  const header = Buffer.from(JSON.stringify({ format: FILE_FORMAT, sections }), 'utf8');
  const start = align8(MAGIC.length + 4 + header.byteLength);
  const lead = Buffer.alloc(start);
  lead.write(MAGIC, 0, 'latin1');
  lead.writeUInt32LE(header.byteLength, MAGIC.length);
  header.copy(lead, MAGIC.length + 4);
  const fd = openSync(path, 'w');
  try {
    writeFully(fd, lead, 0);
    let at = start;
    for (const bytes of bodies) {
      writeFully(fd, bytes, at);
      at = start + align8(at - start + bytes.byteLength);
    }
  } finally {
    closeSync(fd);
  }
}

function readRecord(fd: number): KeptRecord {
  const size = fstatSync(fd).size;
  const lead = Buffer.alloc(MAGIC.length + 4);
  readFully(fd, lead, 0);
  if (lead.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('not a state file');
  const headerBytes = lead.readUInt32LE(MAGIC.length);
  if (headerBytes > MAX_HEADER || headerBytes > size) throw new Error('header too large');
  const header = Buffer.alloc(headerBytes);
  readFully(fd, header, lead.byteLength);
  const { format, sections } = JSON.parse(header.toString('utf8')) as {
    format: number;
    sections: Record<string, Section>;
  };
  if (format !== FILE_FORMAT) throw new Error(`format ${format}`);
  const start = align8(lead.byteLength + headerBytes);
  const record: KeptRecord = {};
  for (const [name, section] of Object.entries(sections)) {
    if (section.kind === 'number' || section.kind === 'string') {
      record[name] = section.value;
      continue;
    }
    if (section.kind === 'strings') {
      if (start + section.offset + section.bytes > size) throw new Error('truncated');
      const bytes = Buffer.alloc(section.bytes);
      readFully(fd, bytes, start + section.offset);
      const strings: unknown = JSON.parse(bytes.toString('utf8'));
      if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string'))
        throw new Error(`section ${name} is not a list of strings`);
      record[name] = strings as string[];
      continue;
    }
    const Kind = ARRAYS[section.kind];
    if (!Kind) throw new Error(`unknown section kind of ${name}`);
    const array = new Kind(section.count);
    if (array.byteLength > 0 && start + section.offset + array.byteLength > size)
      throw new Error('truncated');
    readFully(fd, new Uint8Array(array.buffer), start + section.offset);
    record[name] = array;
  }
  return record;
}
