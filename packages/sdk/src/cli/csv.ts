// A small RFC 4180 CSV reader (quoted fields, doubled quotes, CRLF) that remembers line numbers,
// so every error can name the file, the line and the column.
import { CliError } from './errors.js';

export interface CsvRow {
  /** 1-based line number in the file where the row starts. */
  line: number;
  cells: string[];
}

export interface CsvTable {
  file: string;
  header: string[];
  rows: CsvRow[];
}

/** Parses CSV text with a header row. Every row must have as many fields as the header. */
export function parseCsv(text: string, file: string): CsvTable {
  const records: CsvRow[] = [];
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let fieldStarted = false;
  const endField = () => {
    cells.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRow = () => {
    endField();
    // A blank line is no row.
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: rowLine, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"') {
      if (fieldStarted || field !== '') {
        throw new CliError(`${file} line ${line}: a quote inside an unquoted field`);
      }
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw new CliError(`${file} line ${rowLine}: a quoted field is not closed`);
  if (field !== '' || cells.length > 0 || fieldStarted) endRow();
  const headerRow = records.shift();
  if (!headerRow) throw new CliError(`${file}: the file is empty (a header row is expected)`);
  const header = headerRow.cells.map((h) => h.trim());
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw new CliError(`${file} line 1: column "${name}" appears twice`);
    seen.add(name);
  }
  for (const row of records) {
    if (row.cells.length !== header.length) {
      throw new CliError(
        `${file} line ${row.line}: ${row.cells.length} fields, but the header has ${header.length}`,
      );
    }
  }
  return { file, header, rows: records };
}

/** Index of a required column, or an error naming the file and the column. */
export function columnIndex(table: CsvTable, name: string): number {
  const index = table.header.indexOf(name);
  if (index < 0) {
    throw new CliError(
      `${table.file}: missing column "${name}" (columns: ${table.header.join(', ') || 'none'})`,
    );
  }
  return index;
}

/** Maps each row's id to the row, rejecting empty and duplicate ids. */
export function rowsById(table: CsvTable, idColumn = 'id'): Map<string, CsvRow> {
  const index = columnIndex(table, idColumn);
  const byId = new Map<string, CsvRow>();
  for (const row of table.rows) {
    const id = row.cells[index]!.trim();
    if (id === '')
      throw new CliError(`${table.file} line ${row.line}, column "${idColumn}": empty id`);
    const previous = byId.get(id);
    if (previous) {
      throw new CliError(
        `${table.file} line ${row.line}, column "${idColumn}": id "${id}" already on line ${previous.line}`,
      );
    }
    byId.set(id, row);
  }
  return byId;
}

/** A cell parsed as a finite number; `allowEmpty` turns an empty cell into NaN (missing). */
export function numberCell(
  table: CsvTable,
  row: CsvRow,
  column: number,
  allowEmpty = false,
): number {
  const text = row.cells[column]!.trim();
  if (text === '' && allowEmpty) return NaN;
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) {
    throw new CliError(
      `${table.file} line ${row.line}, column "${table.header[column]}": "${text}" is not a number`,
    );
  }
  return value;
}
