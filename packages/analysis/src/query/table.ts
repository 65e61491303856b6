// The explorer's columnar item table: one typed array per metadata field, built from columns
// (fast path) or appended row batch by row batch (an upload extends it without a rebuild).
import type {
  CategoricalColumn,
  CodedColumn,
  Column,
  MetadataType,
  NumericColumn,
  TimestampValue,
} from './types.js';

/**
 * An immutable snapshot of one data level's items (images, objects or audio). Row index =
 * position in upload order; every column has `length` entries. `version` identifies the
 * snapshot so encoded row indices (see encoding.ts) can be checked against the table they
 * index.
 */
export interface ItemTable {
  readonly version: number;
  readonly length: number;
  /** Item ids in upload order. */
  readonly ids: readonly string[];
  /** Metadata columns by metadata id. */
  readonly columns: ReadonlyMap<string, Column>;
  /** Each item's split, or null when the table has no split column. */
  readonly split: CodedColumn | null;
  /** The history record that created each item (for the `history` filter), or null. */
  readonly createdRecord: CodedColumn | null;
}

export interface FieldSchema {
  id: string;
  type: MetadataType;
}

/** Metadata value of one row: numbers, epoch ms or ISO strings, strings, booleans; null = missing. */
export type MetadataValue = number | string | boolean | null | undefined;

export interface ItemRow {
  id: string;
  split?: string | null;
  created_record?: string | number | null;
  metadata?: Readonly<Record<string, MetadataValue>>;
}

const BOOLEAN_CATEGORIES: readonly string[] = ['false', 'true'];

/** The column of `metadataId`, or a clear error naming it (the server answers 400). */
export function getColumn(table: ItemTable, metadataId: string): Column {
  const column = table.columns.get(metadataId);
  if (!column) throw new Error(`Unknown metadata field '${metadataId}'`);
  return column;
}

export function parseTimestamp(value: TimestampValue, where: string): number {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`Invalid timestamp ${JSON.stringify(value)} ${where}`);
  return ms;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sort a dictionary and rewrite the codes to match. Returns the inputs unchanged when the
 * dictionary is already sorted; otherwise a new codes array (never mutates `codes`, so
 * snapshots that share the old array stay valid).
 */
function sortDictionary(
  codes: Int32Array,
  length: number,
  categories: readonly string[],
): { codes: Int32Array; categories: string[] } {
  let sorted = true;
  for (let k = 1; k < categories.length && sorted; k++) {
    sorted = compareStrings(categories[k - 1]!, categories[k]!) < 0;
  }
  if (sorted) return { codes, categories: [...categories] };
  const order = categories
    .map((_, k) => k)
    .sort((a, b) => compareStrings(categories[a]!, categories[b]!));
  const remap = new Int32Array(categories.length);
  const out: string[] = [];
  for (let rank = 0; rank < order.length; rank++) {
    const k = order[rank]!;
    if (rank > 0 && categories[k] === out[out.length - 1]) {
      remap[k] = out.length - 1; // a duplicate category merges into the first
    } else {
      remap[k] = out.length;
      out.push(categories[k]!);
    }
  }
  const next = new Int32Array(codes.length);
  for (let i = 0; i < length; i++) {
    const c = codes[i]!;
    next[i] = c < 0 ? -1 : remap[c]!;
  }
  return { codes: next, categories: out };
}

/** Dictionary-encode strings (null/undefined = missing) with sorted categories. */
export function encodeStrings(values: ArrayLike<string | null | undefined>): CodedColumn {
  const index = new Map<string, number>();
  const categories: string[] = [];
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      codes[i] = -1;
      continue;
    }
    let code = index.get(v);
    if (code === undefined) {
      code = categories.length;
      index.set(v, code);
      categories.push(v);
    }
    codes[i] = code;
  }
  return sortDictionary(codes, codes.length, categories);
}

function checkCodes(codes: Int32Array, size: number, name: string): void {
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c < -1 || c >= size)
      throw new Error(`Column '${name}': code ${c} at row ${i} is out of range`);
  }
}

/** Input of one metadata column for `fromColumns`. Typed arrays are used as given, not copied. */
export type ColumnInput =
  | { type: 'numeric' | 'timestamp'; values: Float64Array | readonly (number | null)[] }
  | { type: 'string'; codes: Int32Array; categories: readonly string[] }
  | { type: 'string'; values: readonly (string | null | undefined)[] }
  | { type: 'boolean'; codes: Int32Array }
  | { type: 'boolean'; values: readonly (boolean | null | undefined)[] };

export interface ColumnsInput {
  ids: readonly string[];
  version?: number;
  columns: Readonly<Record<string, ColumnInput>>;
  split?: CodedColumn | readonly (string | null | undefined)[];
  createdRecord?: CodedColumn | readonly (string | number | null | undefined)[];
}

function codedInput(
  input: CodedColumn | readonly (string | number | null | undefined)[],
  length: number,
  name: string,
): CodedColumn {
  let coded: CodedColumn;
  if (Array.isArray(input)) {
    coded = encodeStrings(input.map((v) => (v === null || v === undefined ? v : String(v))));
  } else {
    const { codes, categories } = input as CodedColumn;
    checkCodes(codes, categories.length, name);
    coded = sortDictionary(codes, codes.length, categories);
  }
  if (coded.codes.length !== length) {
    throw new Error(`Column '${name}' has ${coded.codes.length} rows, expected ${length}`);
  }
  return coded;
}

function columnInput(id: string, input: ColumnInput, length: number): Column {
  let column: Column;
  switch (input.type) {
    case 'numeric':
    case 'timestamp':
      column = {
        type: input.type,
        values:
          input.values instanceof Float64Array
            ? input.values
            : Float64Array.from(input.values, (v) => (v === null ? NaN : v)),
      };
      break;
    case 'string':
      column = {
        type: 'string',
        ...codedInput('codes' in input ? input : input.values, length, id),
      };
      break;
    case 'boolean': {
      let codes: Int32Array;
      if ('codes' in input) {
        codes = input.codes;
        checkCodes(codes, 2, id);
      } else {
        codes = Int32Array.from(input.values, (v) =>
          v === null || v === undefined ? -1 : v ? 1 : 0,
        );
      }
      column = { type: 'boolean', codes, categories: BOOLEAN_CATEGORIES };
      break;
    }
    default:
      throw new Error(`Column '${id}' has unknown type '${(input as { type: string }).type}'`);
  }
  const rows = 'values' in column ? column.values.length : column.codes.length;
  if (rows !== length) throw new Error(`Column '${id}' has ${rows} rows, expected ${length}`);
  return column;
}

/** Build a table from whole columns (the fast path when loading from the database). */
export function fromColumns(input: ColumnsInput): ItemTable {
  const length = input.ids.length;
  const columns = new Map<string, Column>();
  for (const [id, column] of Object.entries(input.columns)) {
    columns.set(id, columnInput(id, column, length));
  }
  return {
    version: input.version ?? 0,
    length,
    ids: input.ids,
    columns,
    split: input.split === undefined ? null : codedInput(input.split, length, 'split'),
    createdRecord:
      input.createdRecord === undefined
        ? null
        : codedInput(input.createdRecord, length, 'created_record'),
  };
}

/** Growable dictionary column; new categories are merged into sorted order after each batch. */
class CodedBuffer {
  codes: Int32Array = new Int32Array(0);
  categories: string[] = [];
  private index = new Map<string, number>();
  private dirty = false;

  ensure(capacity: number): void {
    if (capacity <= this.codes.length) return;
    const next = new Int32Array(capacity);
    next.set(this.codes);
    this.codes = next;
  }

  set(row: number, value: string | null | undefined): void {
    if (value === null || value === undefined) {
      this.codes[row] = -1;
      return;
    }
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.categories.length;
      if (code > 0 && compareStrings(this.categories[code - 1]!, value) > 0) this.dirty = true;
      this.categories.push(value);
      this.index.set(value, code);
    }
    this.codes[row] = code;
  }

  /** Restore sorted categories (copy-on-write: earlier snapshots keep their codes). */
  normalize(length: number): void {
    if (!this.dirty) return;
    const sorted = sortDictionary(this.codes, length, this.categories);
    this.codes = sorted.codes;
    this.categories = sorted.categories;
    this.index = new Map(sorted.categories.map((c, k) => [c, k]));
    this.dirty = false;
  }

  snapshot(length: number): CodedColumn {
    return { codes: this.codes.subarray(0, length), categories: [...this.categories] };
  }
}

/**
 * Appends rows batch by batch. `build()` returns a snapshot whose typed arrays are views over
 * the builder's buffers: later appends only write past the snapshot's length or into fresh
 * buffers, so snapshots never change. Capacity doubles, so a builder may hold up to 2× the
 * memory of `fromColumns`; build the final table with `fromColumns` when memory is tight.
 */
export class ItemTableBuilder {
  private readonly fields: readonly FieldSchema[];
  private readonly ids: string[] = [];
  private capacity = 0;
  private readonly numeric = new Map<string, Float64Array>();
  private readonly coded = new Map<string, CodedBuffer>();
  private readonly booleans = new Map<string, Int32Array>();
  private readonly split = new CodedBuffer();
  private readonly createdRecord = new CodedBuffer();
  private hasSplit = false;
  private hasCreatedRecord = false;
  private version = 0;

  constructor(fields: readonly FieldSchema[]) {
    const seen = new Set<string>();
    for (const field of fields) {
      if (seen.has(field.id)) throw new Error(`Duplicate metadata field '${field.id}'`);
      seen.add(field.id);
      if (field.type === 'numeric' || field.type === 'timestamp') {
        this.numeric.set(field.id, new Float64Array(0));
      } else if (field.type === 'string') {
        this.coded.set(field.id, new CodedBuffer());
      } else if (field.type === 'boolean') {
        this.booleans.set(field.id, new Int32Array(0));
      } else {
        throw new Error(`Metadata field '${field.id}' has unknown type '${String(field.type)}'`);
      }
    }
    this.fields = [...fields];
  }

  get length(): number {
    return this.ids.length;
  }

  private grow(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 1024);
    for (const [id, values] of this.numeric) {
      const next = new Float64Array(capacity).fill(NaN);
      next.set(values);
      this.numeric.set(id, next);
    }
    for (const [id, codes] of this.booleans) {
      const next = new Int32Array(capacity).fill(-1);
      next.set(codes);
      this.booleans.set(id, next);
    }
    for (const buffer of this.coded.values()) buffer.ensure(capacity);
    this.split.ensure(capacity);
    this.createdRecord.ensure(capacity);
    this.capacity = capacity;
  }

  /** Append a batch of rows; unknown metadata keys are ignored, wrong value types throw. */
  append(rows: readonly ItemRow[]): this {
    const start = this.ids.length;
    this.grow(start + rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const i = start + r;
      const metadata = row.metadata ?? {};
      for (const field of this.fields) {
        const value = metadata[field.id];
        const where = `for field '${field.id}' of item '${row.id}'`;
        if (field.type === 'numeric' || field.type === 'timestamp') {
          let x = NaN;
          if (value !== null && value !== undefined) {
            if (field.type === 'numeric' && typeof value !== 'number') {
              throw new Error(`Expected a number ${where}, got ${JSON.stringify(value)}`);
            }
            if (typeof value === 'boolean') throw new Error(`Expected a timestamp ${where}`);
            x = field.type === 'timestamp' ? parseTimestamp(value, where) : (value as number);
          }
          this.numeric.get(field.id)![i] = x;
        } else if (field.type === 'boolean') {
          if (value !== null && value !== undefined && typeof value !== 'boolean') {
            throw new Error(`Expected a boolean ${where}, got ${JSON.stringify(value)}`);
          }
          this.booleans.get(field.id)![i] =
            value === null || value === undefined ? -1 : value ? 1 : 0;
        } else {
          if (value !== null && value !== undefined && typeof value !== 'string') {
            throw new Error(`Expected a string ${where}, got ${JSON.stringify(value)}`);
          }
          this.coded.get(field.id)!.set(i, value);
        }
      }
      if (row.split !== undefined) this.hasSplit = true;
      this.split.set(i, row.split);
      if (row.created_record !== undefined) this.hasCreatedRecord = true;
      this.createdRecord.set(
        i,
        row.created_record === null || row.created_record === undefined
          ? null
          : String(row.created_record),
      );
      this.ids.push(row.id);
    }
    for (const buffer of this.coded.values()) buffer.normalize(this.ids.length);
    this.split.normalize(this.ids.length);
    this.createdRecord.normalize(this.ids.length);
    return this;
  }

  /** A snapshot of the rows appended so far; `version` defaults to a per-builder counter. */
  build(version: number = ++this.version): ItemTable {
    const length = this.ids.length;
    const columns = new Map<string, Column>();
    for (const field of this.fields) {
      if (field.type === 'numeric' || field.type === 'timestamp') {
        const column: NumericColumn = {
          type: field.type,
          values: this.numeric.get(field.id)!.subarray(0, length),
        };
        columns.set(field.id, column);
      } else if (field.type === 'boolean') {
        const column: CategoricalColumn = {
          type: 'boolean',
          codes: this.booleans.get(field.id)!.subarray(0, length),
          categories: BOOLEAN_CATEGORIES,
        };
        columns.set(field.id, column);
      } else {
        columns.set(field.id, { type: 'string', ...this.coded.get(field.id)!.snapshot(length) });
      }
    }
    return {
      version,
      length,
      ids: this.ids.slice(),
      columns,
      split: this.hasSplit ? this.split.snapshot(length) : null,
      createdRecord: this.hasCreatedRecord ? this.createdRecord.snapshot(length) : null,
    };
  }
}
