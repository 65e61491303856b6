// The cells of an exported CSV (docs/formats.md, "Exporting"), and a sample's metadata cells
// made straight from the column's JSON text: parsing a million small objects, then turning
// their numbers back into text, took about a third of a CSV export's time. The text
// JSON.stringify writes (a flat object of strings, numbers, booleans and nulls, no whitespace,
// no escapes) is spliced in place; anything else goes through JSON.parse, so the cells are
// always those of JSON.parse's values.
import { readJson } from '../db/json-columns.js';
import type { NumericValues } from '../samples/samples.repository.js';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A metadata value's cell: empty for none, JSON for an object or an array. */
export function metadataCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return csvCell(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return csvCell(JSON.stringify(value));
}

/** Values in the dataset's value order, as `[1.5, 2]`. */
export function valuesCell(values: NumericValues | null, valueNames: string[]): string {
  if (!values) return '';
  const list = Array.isArray(values) ? values : valueNames.map((name) => values[name]);
  return csvCell(`[${list.map((v) => (typeof v === 'number' ? String(v) : '')).join(', ')}]`);
}

const QUOTE = 34;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const OPEN = 123;
const CLOSE = 125;

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Text left to JSON.parse: escapes and control characters (JSON.stringify escapes both). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNUSUAL = /[\\\u0000-\u001f]/;

export class MetadataCells {
  private readonly index = new Map<string, number>();
  /** `"name":` of each column, to recognise keys in their usual order without a lookup. */
  private readonly keys: string[];
  private readonly cells: string[];
  /** Set by numberEnd: whether the number's text is the one String(number) writes. */
  private canonical = false;

  constructor(readonly columns: readonly string[]) {
    columns.forEach((name, i) => this.index.set(name, i));
    this.keys = columns.map((name) => `${JSON.stringify(name)}:`);
    this.cells = columns.map(() => '');
  }

  /**
   * `,cell,cell…`: one cell per column, of the value `text` (a JSON object) has for it; empty
   * where it has none, and all empty for NULL, text that is not JSON, or JSON that is not an
   * object. The same as `metadataCell` of JSON.parse's values, without the objects.
   */
  read(text: string | null): string {
    const cells = this.cells;
    cells.fill('');
    if (text !== null && text !== '' && cells.length > 0 && !this.inPlace(text)) this.parsed(text);
    let line = '';
    for (const cell of cells) line += `,${cell}`;
    return line;
  }

  private parsed(text: string): void {
    const cells = this.cells;
    cells.fill('');
    const object = readJson<unknown>(text);
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return;
    this.columns.forEach((name, i) => {
      if (Object.hasOwn(object, name))
        cells[i] = metadataCell((object as Record<string, unknown>)[name]);
    });
  }

  /** Fills the cells; false when the text is not in the form JSON.stringify writes. */
  private inPlace(s: string): boolean {
    if (s.charCodeAt(0) !== OPEN || UNUSUAL.test(s)) return false;
    const { keys, cells } = this;
    let i = 1;
    let expected = 0;
    if (s.charCodeAt(i) === CLOSE) return s.length === 2;
    for (;;) {
      if (s.charCodeAt(i) !== QUOTE) return false;
      // The key: the next column in order (no string made), else looked up by name.
      let column: number;
      const guess = keys[expected];
      if (guess !== undefined && s.startsWith(guess, i)) {
        column = expected;
        i += guess.length;
      } else {
        const end = s.indexOf('"', i + 1);
        if (end < 0 || s.charCodeAt(end + 1) !== COLON) return false;
        column = this.index.get(s.slice(i + 1, end)) ?? -1;
        i = end + 2;
      }
      let cell: string;
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        // No escapes anywhere (checked above): the next quote ends the string, and the only
        // character of it a CSV must quote is a comma.
        const end = s.indexOf('"', i + 1);
        if (end < 0) return false;
        const comma = s.indexOf(',', i + 1);
        cell = comma >= 0 && comma < end ? s.slice(i, end + 1) : s.slice(i + 1, end);
        i = end + 1;
      } else if (c === MINUS || isDigit(c)) {
        const end = this.numberEnd(s, i);
        if (end < 0) return false;
        const raw = s.slice(i, end);
        cell = this.canonical ? raw : String(Number(raw));
        i = end;
      } else if (s.startsWith('true', i)) {
        cell = 'true';
        i += 4;
      } else if (s.startsWith('false', i)) {
        cell = 'false';
        i += 5;
      } else if (s.startsWith('null', i)) {
        cell = '';
        i += 4;
      } else return false; // an object, an array, or not JSON
      if (column >= 0) {
        cells[column] = cell; // a repeated key: the last one wins, as in JSON.parse
        expected = column + 1;
      }
      const next = s.charCodeAt(i++);
      if (next === COMMA) continue;
      return next === CLOSE && i === s.length;
    }
  }

  /**
   * The end of the JSON number at `i` (-1 when there is none). `canonical` tells whether its
   * text is what String(number) writes: no exponent, no trailing fraction zero, not -0, at
   * most 15 significant digits (so the shortest text that reads back as the same double is
   * this one) and between 1e-6 and 1e21 (where String writes no exponent).
   */
  private numberEnd(s: string, i: number): number {
    let j = i;
    if (s.charCodeAt(j) === MINUS) j++;
    const start = j;
    const first = s.charCodeAt(j);
    if (first === ZERO) j++;
    else if (first > ZERO && first <= NINE) while (isDigit(s.charCodeAt(++j)));
    else return -1;
    const whole = j - start;
    const zero = first === ZERO;
    let digits = zero ? 0 : whole;
    let canonical = whole <= 21;
    if (s.charCodeAt(j) === DOT) {
      const fraction = ++j;
      if (!isDigit(s.charCodeAt(j))) return -1;
      while (isDigit(s.charCodeAt(++j)));
      if (s.charCodeAt(j - 1) === ZERO) canonical = false;
      let leading = 0;
      if (zero) while (s.charCodeAt(fraction + leading) === ZERO) leading++;
      if (leading > 5) canonical = false;
      digits += j - fraction - leading;
    } else if (zero && start > i) canonical = false; // -0
    const e = s.charCodeAt(j);
    if (e === 101 || e === 69) {
      canonical = false;
      const sign = s.charCodeAt(++j);
      if (sign === 43 || sign === MINUS) j++;
      if (!isDigit(s.charCodeAt(j))) return -1;
      while (isDigit(s.charCodeAt(++j)));
    }
    this.canonical = canonical && digits <= 15;
    return j;
  }
}
