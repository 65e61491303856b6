// A PostgreSQL page of samples as one text (ExportRepository's `string_agg`), read back: the
// fields of a row joined by \x01, the rows by \x02; the split, which may be NULL, after a `.`
// (NULL is empty). Decoding eight columns of five thousand rows took the driver about 2 µs a
// row of the main thread's time; splitting one text takes a fraction of that, and can be done
// on a worker thread (csv-text.worker.ts).

/** A sample as a page reads it. */
export type PageRow = [
  id: string,
  seq: number,
  split: string | null,
  media: string | null,
  truth: string | null,
  metadata: string | null,
  computed: string | null,
  deleted: number,
];

const FIELDS = 8;

/**
 * The rows of a page's text (`count` of them; an empty page has no text); undefined when a
 * value held \x01 or \x02, which shows in the counts: the page must be read column by column.
 * Empty text and NULL read the same: as NULL (no field the export writes tells them apart but
 * the split, which is marked).
 */
export function pageRows(text: string | null, count: number): PageRow[] | undefined {
  if (text === null) return count === 0 ? [] : undefined;
  const lines = text.split('\x02');
  if (lines.length !== count) return undefined;
  const rows = new Array<PageRow>(count);
  for (let i = 0; i < count; i++) {
    const f = lines[i]!.split('\x01');
    if (f.length !== FIELDS) return undefined;
    rows[i] = [
      f[0]!,
      Number(f[1]),
      f[2] ? f[2].slice(1) : null,
      f[3] || null,
      f[4] || null,
      f[5] || null,
      f[6] || null,
      Number(f[7]),
    ];
  }
  return rows;
}
