// Explorer item tables kept on disk per data version (docs/explore-snapshots.md): after a table
// is built from the database (or patched in place by an edit) it is written to one file in the
// data directory, so that the next process to need it, a restarted server or another API
// process on the same machine, reads its columns back in a fraction of a second instead of
// building it again from millions of rows. A file that is missing, stale, written by another
// format or damaged is ignored (and removed): the table is then built as before.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import {
  adoptSortIndex,
  builtSortIndex,
  type CodedColumn,
  type Column,
  type ItemTable,
  type NumericColumn,
} from '@loupe/analysis';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { MetadataFieldRecord } from '../datasets/metadata-fields.repository.js';
import type { FieldDef } from './field-catalogue.js';
import type { ImageObjects } from './image-matching.js';
import type { ExploreTable } from './item-table-loader.js';

const MAGIC = 'LOUPETB1';
/** Bumped whenever the layout below or what a table holds changes: older files are ignored. */
export const SNAPSHOT_FORMAT = 3;
/** The longest header a reader accepts (the JSON describing the sections). */
const MAX_HEADER = 64 * 1024 * 1024;
/** A temporary file older than this is a write that never ended. */
const STALE_PARTIAL_MS = 60 * 60 * 1000;
/** Strings joined, encoded or decoded at a time. */
const STRING_BLOCK = 65_536;

type Typed = Float64Array | Int32Array | Uint32Array | Uint8Array;
type TypedKind = 'f64' | 'i32' | 'u32' | 'u8';

interface ArraySection {
  kind: TypedKind;
  offset: number;
  count: number;
}

/** A list of strings: their lengths (UTF-16 code units) and their text, one after the other. */
interface StringsSection {
  kind: 'strings';
  count: number;
  lengths: number;
  text: { offset: number; bytes: number; latin1: boolean };
}

type Section = ArraySection | StringsSection;

/** A numeric column's sort index: sections of its order, ranks and group starts. */
interface IndexHeader {
  order: number;
  ranks: number;
  groupStarts: number;
  present: number;
  distinct: number;
}

type ColumnHeader =
  | { id: string; type: 'numeric' | 'timestamp'; values: number; index?: IndexHeader }
  | { id: string; type: 'string' | 'boolean'; codes: number; categories: number };

interface CodedHeader {
  codes: number;
  categories: number;
}

interface ObjectsHeader {
  ids: number;
  starts: number;
  image: number;
  isPred: number;
  box: number;
  label: number;
  labels: number;
  score: number;
  iouThreshold: number;
}

interface Header {
  format: number;
  fingerprint: string;
  dataVersion: number;
  length: number;
  fields: FieldDef[];
  sections: Section[];
  ids: number;
  columns: ColumnHeader[];
  split: CodedHeader | null;
  createdRecord: CodedHeader | null;
  objects: ObjectsHeader | null;
}

/**
 * What a table's columns are made from besides its rows: the dataset's task and field setup and
 * the states of its stored fields. A table is read back only when this is unchanged (the data
 * version alone says the rows are the same).
 */
export function snapshotFingerprint(
  dataset: DatasetRecord,
  fields: readonly FieldDef[],
  stored: readonly MetadataFieldRecord[],
): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        format: SNAPSHOT_FORMAT,
        created: String(dataset.created_at),
        task: dataset.task_type,
        values: dataset.value_names,
        iou: dataset.iou_threshold,
        fields,
        stored: stored.map((f) => [f.id, f.type, f.state]),
      }),
    )
    .digest('hex');
}

/** Lays out a table's arrays and string lists, each written once however often it is used. */
class Layout {
  readonly sections: Section[] = [];
  readonly chunks: Uint8Array[] = [];
  private offset = 0;
  private readonly seen = new Map<object, number>();

  /** Appends `parts` one after the other, then pads to the next 8-byte boundary. */
  private place(...parts: Uint8Array[]): number {
    const at = this.offset;
    for (const part of parts) {
      this.chunks.push(part);
      this.offset += part.byteLength;
    }
    const pad = (8 - (this.offset % 8)) % 8;
    if (pad > 0) {
      this.chunks.push(new Uint8Array(pad));
      this.offset += pad;
    }
    return at;
  }

  array(values: Typed): number {
    const known = this.seen.get(values);
    if (known !== undefined) return known;
    const kind: TypedKind =
      values instanceof Float64Array
        ? 'f64'
        : values instanceof Int32Array
          ? 'i32'
          : values instanceof Uint32Array
            ? 'u32'
            : 'u8';
    const offset = this.place(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    return this.add(values, { kind, offset, count: values.length });
  }

  strings(list: readonly string[]): number {
    const known = this.seen.get(list);
    if (known !== undefined) return known;
    // In blocks, so that no joined text nears V8's longest string at tens of millions of ids.
    const blocks: string[] = [];
    for (let i = 0; i < list.length; i += STRING_BLOCK)
      blocks.push(list.slice(i, i + STRING_BLOCK).join(''));
    // eslint-disable-next-line no-control-regex
    const latin1 = blocks.every((block) => !/[^\u0000-\u00ff]/.test(block));
    // Each string's length in bytes of the text's encoding (latin1: one byte a code unit).
    const lengths = new Uint32Array(list.length);
    for (let i = 0; i < list.length; i++)
      lengths[i] = latin1 ? list[i]!.length : Buffer.byteLength(list[i]!, 'utf8');
    const text = blocks.map((block) => Buffer.from(block, latin1 ? 'latin1' : 'utf8'));
    const bytes = text.reduce((sum, part) => sum + part.byteLength, 0);
    const lengthsOffset = this.place(new Uint8Array(lengths.buffer));
    const textOffset = this.place(...text);
    return this.add(list, {
      kind: 'strings',
      count: list.length,
      lengths: lengthsOffset,
      text: { offset: textOffset, bytes, latin1 },
    });
  }

  private add(key: object, section: Section): number {
    this.sections.push(section);
    this.seen.set(key, this.sections.length - 1);
    return this.sections.length - 1;
  }
}

function codedHeader(layout: Layout, coded: CodedColumn | null): CodedHeader | null {
  return coded
    ? { codes: layout.array(coded.codes), categories: layout.strings(coded.categories) }
    : null;
}

/** The file's bytes: magic, header length, header, then the sections at 8-byte boundaries. */
export function encodeSnapshot(explore: ExploreTable, fingerprint: string): Uint8Array[] {
  const { table, objects } = explore;
  const layout = new Layout();
  const ids = layout.strings(table.ids);
  const columns: ColumnHeader[] = [];
  for (const [id, column] of table.columns) {
    const index = 'values' in column ? builtSortIndex(column) : undefined;
    columns.push(
      'values' in column
        ? {
            id,
            type: column.type,
            values: layout.array(column.values),
            // Built sort indexes go too: rebuilding them is most of what a table costs after
            // it is read.
            ...(index
              ? {
                  index: {
                    order: layout.array(index.order),
                    ranks: layout.array(index.ranks),
                    groupStarts: layout.array(index.groupStarts),
                    present: index.present,
                    distinct: index.distinct,
                  },
                }
              : {}),
          }
        : {
            id,
            type: column.type,
            codes: layout.array(column.codes),
            categories: layout.strings(column.categories),
          },
    );
  }
  const header: Header = {
    format: SNAPSHOT_FORMAT,
    fingerprint,
    dataVersion: explore.dataVersion,
    length: table.length,
    fields: explore.fields,
    sections: layout.sections,
    ids,
    columns,
    split: codedHeader(layout, table.split),
    createdRecord: codedHeader(layout, table.createdRecord),
    objects: objects
      ? {
          ids: layout.strings(objects.ids),
          starts: layout.array(objects.starts),
          image: layout.array(objects.image),
          isPred: layout.array(objects.isPred),
          box: layout.array(objects.box),
          label: layout.array(objects.label),
          labels: layout.strings(objects.labels),
          score: layout.array(objects.score),
          iouThreshold: objects.iouThreshold,
        }
      : null,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  // Magic (8), header length (4), header, padding: the sections start on an 8-byte boundary.
  const prefix = 12 + json.byteLength;
  const start = Buffer.alloc(prefix + ((8 - (prefix % 8)) % 8));
  start.write(MAGIC, 0, 'latin1');
  start.writeUInt32LE(json.byteLength, 8);
  json.copy(start, 12);
  return [start, ...layout.chunks];
}

class Damaged extends Error {}

/** Reads the sections a header names from an open file, each into its own memory. */
class SectionReader {
  private readonly cache = new Map<number, Typed | string[]>();
  private scratch = Buffer.alloc(0);

  constructor(
    private readonly file: FileHandle,
    private readonly base: number,
    private readonly sections: readonly Section[],
    private readonly size: number,
  ) {}

  /** Fills `target` from the section bytes at `offset`. */
  private async readInto(target: Uint8Array, offset: number): Promise<void> {
    const length = target.byteLength;
    if (!(offset >= 0 && this.base + offset + length <= this.size))
      throw new Damaged('a section lies outside the file');
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.file.read(
        target,
        done,
        length - done,
        this.base + offset + done,
      );
      if (bytesRead === 0) throw new Damaged('the file ends early');
      done += bytesRead;
    }
  }

  private section(index: number): Section {
    const section = this.sections[index];
    if (!section) throw new Damaged(`no section ${index}`);
    return section;
  }

  async array<T extends Typed>(index: number, kind: TypedKind, count?: number): Promise<T> {
    const section = this.section(index);
    if (section.kind !== kind) throw new Damaged(`section ${index} is not ${kind}`);
    if (count !== undefined && section.count !== count)
      throw new Damaged(`section ${index} has ${section.count} values, expected ${count}`);
    const cached = this.cache.get(index);
    if (cached) return cached as T;
    // Each array gets its own buffer: no view into a larger one crosses to a thread or a
    // native call (a transfer or copy of a view takes its whole buffer).
    const values =
      kind === 'f64'
        ? new Float64Array(section.count)
        : kind === 'i32'
          ? new Int32Array(section.count)
          : kind === 'u32'
            ? new Uint32Array(section.count)
            : new Uint8Array(section.count);
    await this.readInto(new Uint8Array(values.buffer), section.offset);
    this.cache.set(index, values);
    return values as T;
  }

  /**
   * Reads every array section before any string: each large allocation outside the heap can
   * start a full collection, which is cheap while the heap does not hold millions of id strings
   * yet (at three million objects, about 1 s of collections saved).
   */
  async arraysFirst(): Promise<void> {
    for (let index = 0; index < this.sections.length; index++) {
      const section = this.sections[index]!;
      if (section.kind !== 'strings') await this.array(index, section.kind);
    }
  }

  async strings(index: number, count?: number): Promise<string[]> {
    const cached = this.cache.get(index);
    if (cached) return cached as string[];
    const section = this.section(index);
    if (section.kind !== 'strings') throw new Damaged(`section ${index} is not strings`);
    if (count !== undefined && section.count !== count)
      throw new Damaged(`section ${index} has ${section.count} strings, expected ${count}`);
    const lengths = new Uint32Array(section.count);
    await this.readInto(new Uint8Array(lengths.buffer), section.lengths);
    const { latin1 } = section.text;
    const list = new Array<string>(section.count);
    // A block's bytes at a time, through one scratch buffer: no allocation the size of the text.
    let at = 0;
    for (let first = 0; first < section.count; first += STRING_BLOCK) {
      const last = Math.min(section.count, first + STRING_BLOCK);
      let bytes = 0;
      for (let i = first; i < last; i++) bytes += lengths[i]!;
      if (at + bytes > section.text.bytes) throw new Damaged('string lengths exceed the text');
      if (this.scratch.byteLength < bytes) this.scratch = Buffer.allocUnsafeSlow(bytes);
      const block = this.scratch.subarray(0, bytes);
      await this.readInto(block, section.text.offset + at);
      if (latin1) {
        // Decoded at once and cut into its strings (one byte a code unit).
        const text = block.toString('latin1');
        let cut = 0;
        for (let i = first; i < last; i++) {
          list[i] = text.slice(cut, cut + lengths[i]!);
          cut += lengths[i]!;
        }
      } else {
        let cut = 0;
        for (let i = first; i < last; i++) {
          list[i] = block.toString('utf8', cut, cut + lengths[i]!);
          cut += lengths[i]!;
        }
      }
      at += bytes;
    }
    if (at !== section.text.bytes) throw new Damaged('string lengths do not match the text');
    this.cache.set(index, list);
    return list;
  }

  async coded(header: CodedHeader, length: number): Promise<CodedColumn> {
    const codes = await this.array<Int32Array>(header.codes, 'i32', length);
    const categories = await this.strings(header.categories);
    checkCodes(codes, categories.length);
    return { codes, categories };
  }
}

function checkCodes(codes: Int32Array, size: number): void {
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c < -1 || c >= size) throw new Damaged(`code ${c} at row ${i} is out of range`);
  }
}

/** The file's header when it holds the table at `expect`; null for another one. */
async function readHeader(
  file: FileHandle,
  size: number,
  expect: { version: number; fingerprint: string },
): Promise<{ header: Header; headerBytes: number } | null> {
  const start = Buffer.alloc(12);
  await file.read(start, 0, 12, 0);
  if (start.toString('latin1', 0, 8) !== MAGIC) return null;
  const headerBytes = start.readUInt32LE(8);
  if (headerBytes > MAX_HEADER || 12 + headerBytes > size) throw new Damaged('header too long');
  const json = Buffer.alloc(headerBytes);
  await file.read(json, 0, headerBytes, 12);
  const header = JSON.parse(json.toString('utf8')) as Header;
  if (
    header.format !== SNAPSHOT_FORMAT ||
    header.fingerprint !== expect.fingerprint ||
    header.dataVersion !== expect.version
  )
    return null;
  return { header, headerBytes };
}

async function decodeSnapshot(
  file: FileHandle,
  size: number,
  expect: { version: number; fingerprint: string },
): Promise<Omit<ExploreTable, 'bytes'> | null> {
  const found = await readHeader(file, size, expect);
  if (!found) return null;
  const { header, headerBytes } = found;
  const prefix = 12 + headerBytes;
  const reader = new SectionReader(file, prefix + ((8 - (prefix % 8)) % 8), header.sections, size);
  const length = header.length;
  await reader.arraysFirst();
  const ids = await reader.strings(header.ids, length);
  const columns = new Map<string, Column>();
  for (const column of header.columns) {
    if ('values' in column) {
      const values = await reader.array<Float64Array>(column.values, 'f64', length);
      const numeric: NumericColumn = { type: column.type, values };
      if (column.index) {
        const { order, ranks, groupStarts, present, distinct } = column.index;
        // Checked in full afterwards, off the request path (item-table-loader.ts).
        adoptSortIndex(numeric, {
          order: await reader.array<Uint32Array>(order, 'u32', length),
          ranks: await reader.array<Uint32Array>(ranks, 'u32', length),
          groupStarts: await reader.array<Uint32Array>(groupStarts, 'u32'),
          present,
          distinct,
        });
      }
      columns.set(column.id, numeric);
    } else {
      columns.set(column.id, { type: column.type, ...(await reader.coded(column, length)) });
    }
  }
  const table: ItemTable = {
    version: header.dataVersion >>> 0,
    length,
    ids,
    columns,
    split: header.split ? await reader.coded(header.split, length) : null,
    createdRecord: header.createdRecord ? await reader.coded(header.createdRecord, length) : null,
  };
  let objects: ImageObjects | undefined;
  if (header.objects) {
    const o = header.objects;
    const objectIds = await reader.strings(o.ids);
    const n = objectIds.length;
    const labels = await reader.strings(o.labels);
    const label = await reader.array<Int32Array>(o.label, 'i32', n);
    checkCodes(label, labels.length);
    objects = {
      ids: objectIds,
      starts: await reader.array<Uint32Array>(o.starts, 'u32'),
      image: await reader.array<Int32Array>(o.image, 'i32', n),
      isPred: await reader.array<Uint8Array>(o.isPred, 'u8', n),
      box: await reader.array<Float64Array>(o.box, 'f64', n * 4),
      label,
      labels,
      score: await reader.array<Float64Array>(o.score, 'f64', n),
      iouThreshold: o.iouThreshold,
    };
  }
  return {
    table,
    fields: header.fields,
    dataVersion: header.dataVersion,
    stats: new Map(),
    ...(objects ? { objects } : {}),
  };
}

/** A table file found on disk. */
export interface SnapshotFile {
  datasetId: string;
  level: string;
  predictionsId: string | null;
  version: number;
  bytes: number;
  /** When it was last written or read (ms since the epoch). */
  usedAt: number;
}

/** Snapshot files under one directory, by dataset. */
export class TableSnapshots {
  /** Tables read back from files since start (for tests and the benchmarks). */
  reads = 0;
  /** Snapshots written since start. */
  writes = 0;

  constructor(
    private readonly dir: string,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  private datasetDir(datasetId: string): string {
    return join(this.dir, encodeURIComponent(datasetId));
  }

  private stem(level: string, predictionsId: string | null): string {
    return `${encodeURIComponent(level)}.${predictionsId === null ? '-' : encodeURIComponent(predictionsId)}.`;
  }

  private file(datasetId: string, level: string, predictionsId: string | null, version: number) {
    return join(this.datasetDir(datasetId), `${this.stem(level, predictionsId)}${version}.table`);
  }

  /**
   * The table of (dataset, level, prediction set) at data version `version` if a file holds it
   * with this fingerprint; null otherwise (and a damaged file is removed).
   */
  async read(
    datasetId: string,
    level: string,
    predictionsId: string | null,
    version: number,
    fingerprint: string,
  ): Promise<Omit<ExploreTable, 'bytes'> | null> {
    const path = this.file(datasetId, level, predictionsId, version);
    let file: FileHandle;
    try {
      file = await open(path, 'r');
    } catch {
      return null; // none written yet
    }
    try {
      const { size } = await file.stat();
      const table = await decodeSnapshot(file, size, { version, fingerprint });
      if (table) {
        this.reads++;
        // Marks the file used (recent() orders by it).
        const now = new Date();
        await file.utimes(now, now).catch(() => undefined);
      }
      return table;
    } catch (error) {
      this.log(`explorer table snapshot ${path} is unreadable; it is removed`, error);
      await rm(path, { force: true }).catch(() => undefined);
      return null;
    } finally {
      await file.close();
    }
  }

  /**
   * Writes the table as the file of its data version (a temporary file renamed into place, so
   * readers see a whole file or none) and removes the files of older versions of the same
   * table. Never throws: a table that cannot be written is built again next time (answers
   * false then).
   */
  write(
    datasetId: string,
    level: string,
    predictionsId: string | null,
    explore: ExploreTable,
    fingerprint: string,
  ): Promise<boolean> {
    return this.writeNow(datasetId, level, predictionsId, explore, fingerprint).then(
      () => true,
      (error: unknown) => {
        this.log('could not write an explorer table snapshot', error);
        return false;
      },
    );
  }

  private async writeNow(
    datasetId: string,
    level: string,
    predictionsId: string | null,
    explore: ExploreTable,
    fingerprint: string,
  ): Promise<void> {
    const dir = this.datasetDir(datasetId);
    await mkdir(dir, { recursive: true });
    const path = this.file(datasetId, level, predictionsId, explore.dataVersion);
    const temporary = `${path}.${randomUUID()}.partial`;
    const chunks = encodeSnapshot(explore, fingerprint);
    const file = await open(temporary, 'w');
    try {
      // writev takes at most 1024 buffers a call on some platforms.
      for (let i = 0; i < chunks.length; i += 512) await file.writev(chunks.slice(i, i + 512));
    } catch (error) {
      await file.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await file.close();
    await rename(temporary, path);
    this.writes++;
    await this.prune(datasetId, level, predictionsId);
  }

  /**
   * Keeps only the newest version's file of a table: run after every write, so that whichever
   * of two overlapping writes ends last removes the older one.
   */
  private async prune(datasetId: string, level: string, predictionsId: string | null) {
    const dir = this.datasetDir(datasetId);
    const stem = this.stem(level, predictionsId);
    const versions = new Map<number, string>();
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.startsWith(stem)) continue;
      // A write a crash interrupted leaves its temporary file: gone after an hour.
      if (name.endsWith('.partial')) {
        const { mtimeMs } = await stat(join(dir, name)).catch(() => ({ mtimeMs: Date.now() }));
        if (Date.now() - mtimeMs > STALE_PARTIAL_MS)
          await rm(join(dir, name), { force: true }).catch(() => undefined);
        continue;
      }
      if (!name.endsWith('.table')) continue;
      const version = Number(name.slice(stem.length, -'.table'.length));
      if (Number.isInteger(version)) versions.set(version, name);
    }
    const newest = Math.max(...versions.keys());
    for (const [version, name] of versions)
      if (version < newest) await rm(join(dir, name), { force: true }).catch(() => undefined);
  }

  /** Whether a file holds the table at this version and fingerprint (its header only). */
  async holds(
    datasetId: string,
    level: string,
    predictionsId: string | null,
    version: number,
    fingerprint: string,
  ): Promise<boolean> {
    const file = await open(this.file(datasetId, level, predictionsId, version), 'r').catch(
      () => null,
    );
    if (!file) return false;
    try {
      const { size } = await file.stat();
      return (await readHeader(file, size, { version, fingerprint })) !== null;
    } catch {
      return false;
    } finally {
      await file.close();
    }
  }

  /**
   * Every table file, most recently used first (a read marks a file used), for reading the
   * tables a process held before it restarted.
   */
  async recent(): Promise<SnapshotFile[]> {
    const files: SnapshotFile[] = [];
    for (const folder of await readdir(this.dir).catch(() => [] as string[])) {
      const datasetId = decodeURIComponent(folder);
      for (const name of await readdir(join(this.dir, folder)).catch(() => [] as string[])) {
        const match = /^([^.]+)\.([^.]+)\.(\d+)\.table$/.exec(name);
        if (!match) continue;
        const info = await stat(join(this.dir, folder, name)).catch(() => null);
        if (!info) continue;
        files.push({
          datasetId,
          level: decodeURIComponent(match[1]!),
          predictionsId: match[2] === '-' ? null : decodeURIComponent(match[2]!),
          version: Number(match[3]),
          bytes: info.size,
          usedAt: info.mtimeMs,
        });
      }
    }
    return files.sort((a, b) => b.usedAt - a.usedAt);
  }

  /** Says that a sort index read back did not order its column (it is built again). */
  refusedIndex(datasetId: string, level: string, metadataId: string): void {
    this.log(
      `the sort index of '${metadataId}' in a table file of dataset ${datasetId} (${level}) does not order its column; it is built again`,
    );
  }

  /** Says that the table thread failed (the table is built in process instead). */
  buildFailed(datasetId: string, level: string, error: unknown): void {
    this.log(`the explorer table thread failed on dataset ${datasetId} (${level})`, error);
  }

  /** Removes every file of a dataset (it was deleted). */
  async forget(datasetId: string): Promise<void> {
    await rm(this.datasetDir(datasetId), { recursive: true, force: true }).catch(() => undefined);
  }
}
