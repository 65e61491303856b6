// The column builder of item tables: growable typed columns (numbers, or codes of categories)
// written row by row, then handed to the engine as column inputs, permuted when asked.
import type { ColumnInput } from '@loupe/analysis';
import type { FieldDef } from './field-catalogue.js';

export class NumberColumn {
  values: Float64Array;
  constructor(capacity: number) {
    this.values = new Float64Array(capacity).fill(NaN);
  }
  set(row: number, value: number): void {
    if (row >= this.values.length) {
      const next = new Float64Array(Math.max(row + 1, this.values.length * 2)).fill(NaN);
      next.set(this.values);
      this.values = next;
    }
    this.values[row] = value;
  }
  input(type: 'numeric' | 'timestamp', length: number): ColumnInput {
    return {
      type,
      values: this.values.length === length ? this.values : this.values.slice(0, length),
    };
  }
}

export class CodeColumn {
  codes: Int32Array;
  categories: string[] = [];
  private index = new Map<string, number>();
  constructor(capacity: number) {
    this.codes = new Int32Array(capacity).fill(-1);
  }
  private ensure(row: number): void {
    if (row < this.codes.length) return;
    const next = new Int32Array(Math.max(row + 1, this.codes.length * 2)).fill(-1);
    next.set(this.codes);
    this.codes = next;
  }
  set(row: number, value: string): void {
    this.ensure(row);
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.categories.length;
      this.categories.push(value);
      this.index.set(value, code);
    }
    this.codes[row] = code;
  }
  setBoolean(row: number, value: boolean): void {
    this.ensure(row);
    this.codes[row] = value ? 1 : 0;
  }
  trimmed(length: number): Int32Array {
    return this.codes.length === length ? this.codes : this.codes.slice(0, length);
  }
}

type Sink = NumberColumn | CodeColumn;

/** Columns by field id, written row by row. */
export class Columns {
  private readonly sinks = new Map<string, { def: FieldDef; sink: Sink }>();
  constructor(
    readonly defs: FieldDef[],
    private readonly capacity: number,
  ) {
    for (const def of defs) {
      this.sinks.set(def.id, {
        def,
        sink:
          def.type === 'numeric' || def.type === 'timestamp'
            ? new NumberColumn(capacity)
            : new CodeColumn(capacity),
      });
    }
  }

  /** The values written so far to a numeric column (row-indexed), or null. */
  numbers(id: string): Float64Array | null {
    const sink = this.sinks.get(id)?.sink;
    return sink instanceof NumberColumn ? sink.values : null;
  }

  /** Writes a JSON metadata value; a value of the wrong type counts as missing. */
  set(id: string, row: number, value: unknown): void {
    const entry = this.sinks.get(id);
    if (!entry || value === null || value === undefined) return;
    const { def, sink } = entry;
    if (sink instanceof NumberColumn) {
      if (typeof value === 'number' && Number.isFinite(value)) sink.set(row, value);
      else if (def.type === 'timestamp' && typeof value === 'string') {
        const ms = Date.parse(value);
        if (Number.isFinite(ms)) sink.set(row, ms);
      }
    } else if (def.type === 'boolean') {
      if (typeof value === 'boolean') sink.setBoolean(row, value);
    } else if (typeof value === 'string') sink.set(row, value);
  }

  /** Column inputs for `fromColumns`, permuted by `order` (new row → old row) when given. */
  inputs(length: number, order?: Uint32Array): Record<string, ColumnInput> {
    const out: Record<string, ColumnInput> = {};
    for (const { def, sink } of this.sinks.values()) {
      if (sink instanceof NumberColumn) {
        let values = sink.values;
        if (order) {
          const permuted = new Float64Array(length);
          for (let i = 0; i < length; i++) permuted[i] = values[order[i]!]!;
          values = permuted;
        } else if (values.length !== length) values = values.slice(0, length);
        out[def.id] = { type: def.type as 'numeric' | 'timestamp', values };
      } else {
        let codes = sink.codes;
        if (order) {
          const permuted = new Int32Array(length);
          for (let i = 0; i < length; i++) permuted[i] = codes[order[i]!]!;
          codes = permuted;
        } else codes = sink.trimmed(length);
        out[def.id] =
          def.type === 'boolean'
            ? { type: 'boolean', codes }
            : { type: 'string', codes, categories: sink.categories };
      }
    }
    return out;
  }
}
