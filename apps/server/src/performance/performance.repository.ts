// SQL for model performance: the stored results of a prediction set (report, fine-grained curves,
// subset entries) with the data they were computed from, the metric a subset's entry shows, and
// what an evaluation reads (live samples with their predictions, objects, predicted objects) in a
// stable order, in pages of one array per column, JSON columns decoded.
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Dialect } from '../db/database.js';
import { readJson } from '../db/json-columns.js';
import { pick, predictionRows } from './evaluation-rows.js';
import type { DB, PerformanceResultsTable } from '../db/schema.js';
import type { NumericValues, Segmentation } from '../samples/samples.repository.js';

/** What a stored result is of: the report, the curves, or one subset's entry. */
export type ResultKind = 'report' | 'finegrained' | `subset:${string}`;

export interface PerformanceResultRecord {
  prediction_set_id: string;
  kind: ResultKind;
  data_version: number;
  iou_threshold: number;
  /** The subset's updated_at for a subset entry; 0 otherwise. */
  subset_version: number;
  status: 'computing' | 'ready' | 'failed';
  progress: number;
  /** The decoded result; null unless ready. */
  result: unknown;
  error: string | null;
  updated_at: number;
}

/** The ground truth and prediction columns an evaluation can read, as they are decoded. */
interface TruthColumns {
  label: string;
  values: NumericValues;
  transcript: string;
  /** A mask's media reference. */
  mask: string;
}
export type EvaluationTruth = keyof TruthColumns;

/** Uploaded class probabilities: by position in the dataset's classes, or by name. */
export type Probabilities = number[] | Record<string, number>;

/** What an evaluation reads of the samples besides their id, seq, split and prediction flag. */
export interface EvaluationSampleColumns<T extends EvaluationTruth | null> {
  /** The ground truth and prediction column; null for none (object tasks read their objects). */
  truth: T;
  /** The prediction's score and probabilities. */
  scores?: boolean;
  /** The image size from the computed metadata. */
  imageSize?: boolean;
}

type TruthValue<T extends EvaluationTruth | null> = T extends EvaluationTruth
  ? TruthColumns[T] | null
  : never;

/**
 * Live samples in upload order with the prediction set's prediction, one array per column (item
 * k of every array is the same sample); the columns not asked for are empty.
 */
export interface EvaluationSamplePage<T extends EvaluationTruth | null> {
  id: string[];
  seq: number[];
  split: (string | null)[];
  /** 1 where the set has a prediction of the sample, else 0. */
  predicted: number[];
  truth: TruthValue<T>[];
  prediction: TruthValue<T>[];
  score: (number | null)[];
  probabilities: (Probabilities | null)[];
  height: (number | null)[];
  width: (number | null)[];
}

/** A page of a set's class predictions with their samples' seqs, in upload order. */
export interface ClassPredictionPage {
  seq: number[];
  label: (string | null)[];
  score: (number | null)[];
  probabilities: (Probabilities | null)[];
}

/** What a page holds of one prediction set: item k is of the page's sample k. */
export type EvaluationSetColumns<T extends EvaluationTruth | null> = Pick<
  EvaluationSamplePage<T>,
  'predicted' | 'prediction' | 'score' | 'probabilities'
>;

/** A page of samples with the predictions of several sets, in the order the sets were given. */
export type EvaluationSetsPage<T extends EvaluationTruth | null> = Omit<
  EvaluationSamplePage<T>,
  keyof EvaluationSetColumns<T>
> & { sets: EvaluationSetColumns<T>[] };

/**
 * Live ground-truth objects, or a set's predicted objects, of live samples in id order, one array
 * per column; the columns not asked for or not of the side are empty.
 */
export interface EvaluationObjectPage {
  id: string[];
  /** The seq of the object's sample. */
  seq: number[];
  label: string[];
  x: (number | null)[];
  y: (number | null)[];
  w: (number | null)[];
  h: (number | null)[];
  segmentation: (Segmentation | null)[];
  /** Ground truth: 1 for a crowd region. */
  iscrowd: number[];
  /** Predictions: the confidence. */
  score: (number | null)[];
}

const TRUTH_FIELD: Record<EvaluationTruth, string> = {
  label: 'label',
  values: 'values_json',
  transcript: 'transcript',
  mask: 'mask',
};

/**
 * Rows an evaluation page holds. SQLite pages on the (dataset, seq) index, a page between two turns
 * of the event loop; PostgreSQL would hash-join objects with their samples again for every page,
 * so it answers a million at once.
 */
const EVALUATION_PAGE = { sqlite: 25_000, postgres: 1_000_000 } as const;
/**
 * Rows a page of samples or predictions read in key order holds on PostgreSQL: nothing is joined,
 * so it pages too, which keeps each answer small (a million rows in one JSON answer cost the
 * client more in buffer copies and collections than the extra statements).
 */
const SCAN_PAGE = 100_000;

/** A column as the database aggregated it: JSON text (SQLite), parsed JSON, or null for no rows. */
function jsonColumn(value: unknown): unknown[] {
  if (typeof value === 'string') return JSON.parse(value) as unknown[];
  return (value as unknown[] | null) ?? [];
}

/** A column of JSON texts, each decoded. */
function decodedColumn<T>(value: unknown): (T | null)[] {
  return (jsonColumn(value) as (string | null)[]).map((text) => readJson<T>(text));
}

export class PerformanceRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    /** Rows an evaluation page holds (tests make it small to cross page boundaries). */
    private readonly pageSize: number = EVALUATION_PAGE[dialect],
  ) {}

  /** Rows a page of samples or predictions read in key order holds (PostgreSQL). */
  private get scanPage(): number {
    return Math.min(this.pageSize, SCAN_PAGE);
  }

  async result(setId: string, kind: ResultKind): Promise<PerformanceResultRecord | undefined> {
    const row = await this.db
      .selectFrom('performance_results')
      .selectAll()
      .where('prediction_set_id', '=', setId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row && decodeResult(row);
  }

  /** Every subset entry of a prediction set. */
  async subsetResults(setId: string): Promise<PerformanceResultRecord[]> {
    const rows = await this.db
      .selectFrom('performance_results')
      .selectAll()
      .where('prediction_set_id', '=', setId)
      .where('kind', 'like', 'subset:%')
      .execute();
    return rows.map(decodeResult);
  }

  /** Writes a result, replacing the one of the same prediction set and kind. */
  async saveResult(record: PerformanceResultRecord): Promise<void> {
    const values = {
      ...record,
      result: record.result === null ? null : JSON.stringify(record.result),
    };
    await this.db
      .insertInto('performance_results')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['prediction_set_id', 'kind']).doUpdateSet({
          data_version: values.data_version,
          iou_threshold: values.iou_threshold,
          subset_version: values.subset_version,
          status: values.status,
          progress: values.progress,
          result: values.result,
          error: values.error,
          updated_at: values.updated_at,
        }),
      )
      .execute();
  }

  /** Removes the entries of subsets that are gone. */
  async deleteResults(setId: string, kinds: ResultKind[]): Promise<void> {
    if (kinds.length === 0) return;
    await this.db
      .deleteFrom('performance_results')
      .where('prediction_set_id', '=', setId)
      .where('kind', 'in', kinds)
      .execute();
  }

  /** The metric chosen for each subset of the dataset that has one. */
  async subsetMetrics(datasetId: string): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('subsets')
      .select(['id', 'performance_metric'])
      .where('dataset_id', '=', datasetId)
      .where('performance_metric', 'is not', null)
      .execute();
    return new Map(rows.map((row) => [row.id, row.performance_metric!]));
  }

  /** Shows or hides a subset's performance and sets its metric (absent fields stay). */
  async setSubsetPerformance(
    subsetId: string,
    changes: { enabled?: boolean; metric?: string },
  ): Promise<void> {
    const set = {
      ...(changes.enabled !== undefined
        ? { enabled_for_performance: changes.enabled ? 1 : 0 }
        : {}),
      ...(changes.metric !== undefined ? { performance_metric: changes.metric } : {}),
    };
    if (Object.keys(set).length === 0) return;
    await this.db.updateTable('subsets').set(set).where('id', '=', subsetId).execute();
  }

  /**
   * Live samples in upload order, each with the set's prediction (samples left join predictions),
   * a page at a time, column by column.
   */
  async *evaluationSamples<T extends EvaluationTruth | null>(
    datasetId: string,
    setId: string,
    columns: EvaluationSampleColumns<T>,
  ): AsyncGenerator<EvaluationSamplePage<T>> {
    for await (const { sets, ...page } of this.evaluationSamplesOfSets(datasetId, [setId], columns))
      yield { ...page, ...sets[0]! };
  }

  /**
   * Live samples in upload order, each with the prediction of every set given, a page at a time,
   * column by column: the sample columns are read once for all the sets, as comparing two models
   * needs both. SQLite joins them, a page of samples at a time. PostgreSQL reads the dataset's
   * live samples and each set's predictions on their own, side by side, each in upload order
   * (samples by seq, predictions by their sample's seq), and they are matched here by walking
   * both lists (docs/decisions.md, decisions 62 and 65): joining them cost the database hash
   * joins over every row and a sort, on parallel workers that took the cores from everything else.
   */
  async *evaluationSamplesOfSets<T extends EvaluationTruth | null>(
    datasetId: string,
    setIds: readonly string[],
    columns: EvaluationSampleColumns<T>,
  ): AsyncGenerator<EvaluationSetsPage<T>> {
    if (this.dialect === 'sqlite') yield* this.joinedSamplesOfSets(datasetId, setIds, columns);
    else yield* this.matchedSamplesOfSets(datasetId, setIds, columns);
  }

  /** SQLite: the samples left join each set's predictions, a page of the samples at a time. */
  private async *joinedSamplesOfSets<T extends EvaluationTruth | null>(
    datasetId: string,
    setIds: readonly string[],
    columns: EvaluationSampleColumns<T>,
  ): AsyncGenerator<EvaluationSetsPage<T>> {
    const field = columns.truth === null ? null : TRUTH_FIELD[columns.truth];
    const select = this.sampleColumns(columns, field, {});
    setIds.forEach((_, i) => {
      select[`predicted_${i}`] = `case when p${i}.sample_id is null then 0 else 1 end`;
      if (field) select[`prediction_${i}`] = `p${i}.${field}`;
      if (columns.scores) {
        select[`score_${i}`] = `p${i}.score`;
        select[`probabilities_${i}`] = `p${i}.probabilities`;
      }
    });
    const joins = this.predictionJoins(setIds);
    const truth =
      columns.truth === 'values'
        ? (value: unknown) => decodedColumn<NumericValues>(value) as TruthValue<T>[]
        : (value: unknown) => jsonColumn(value) as TruthValue<T>[];
    let after = -1;
    for (;;) {
      const page = await this.columnPage(
        select,
        sql`from samples as s ${joins}
        where s.dataset_id = ${datasetId} and s.deleted = 0 and s.seq > ${after}
        order by s.seq`,
        'seq',
      );
      if (page.count === 0) return;
      const c = page.columns;
      yield {
        id: jsonColumn(c['id']) as string[],
        seq: jsonColumn(c['seq']) as number[],
        split: jsonColumn(c['split']) as (string | null)[],
        truth: truth(c['truth']),
        height: jsonColumn(c['height']) as (number | null)[],
        width: jsonColumn(c['width']) as (number | null)[],
        sets: setIds.map((_, i) => ({
          predicted: jsonColumn(c[`predicted_${i}`]) as number[],
          prediction: truth(c[`prediction_${i}`]),
          score: jsonColumn(c[`score_${i}`]) as (number | null)[],
          probabilities: decodedColumn<Probabilities>(c[`probabilities_${i}`]),
        })),
      };
      if (page.count < this.pageSize) return;
      after = Number(page.last);
    }
  }

  /** The set's version (raised by every upload of its predictions); undefined when it is gone. */
  async predictionSetVersion(setId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('prediction_sets')
      .select('version')
      .where('id', '=', setId)
      .executeTakeFirst();
    return row && Number(row.version);
  }

  /**
   * Every class prediction of the set with its sample's seq (deleted samples too: a restore brings
   * them back without a new upload), in upload order, a page at a time, column by column: the
   * set's rows alone, through (prediction_set_id, sample_seq), each prediction carrying its
   * sample's seq (docs/decisions.md, decision 65).
   */
  async *classPredictions(setId: string): AsyncGenerator<ClassPredictionPage> {
    const end = await this.seqEnd({ setId });
    const pages = this.seqRanges(
      { seq: 'p.sample_seq', label: 'p.label', score: 'p.score', probabilities: 'p.probabilities' },
      (low, high) => sql`from predictions as p
        where p.prediction_set_id = ${setId} and p.sample_seq >= ${low} and p.sample_seq < ${high}
        order by p.sample_seq`,
      end,
    );
    for await (const c of pages)
      yield {
        seq: jsonColumn(c['seq']) as number[],
        label: jsonColumn(c['label']) as (string | null)[],
        score: jsonColumn(c['score']) as (number | null)[],
        probabilities: decodedColumn<Probabilities>(c['probabilities']),
      };
  }

  /** `left join`s of the samples `s` with each set's predictions, as p0, p1, … */
  private predictionJoins(setIds: readonly string[]): RawBuilder<unknown> {
    return sql.join(
      setIds.map(
        (setId, i) => sql`left join predictions as ${sql.raw(`p${i}`)}
          on ${sql.raw(`p${i}`)}.prediction_set_id = ${setId} and ${sql.raw(`p${i}`)}.sample_id = s.id`,
      ),
      sql` `,
    );
  }

  /** The sample columns an evaluation reads (`s` is the samples table), plus `extra` ones. */
  private sampleColumns(
    columns: EvaluationSampleColumns<EvaluationTruth | null>,
    field: string | null,
    extra: Record<string, string>,
  ): Record<string, string> {
    return {
      seq: 's.seq',
      id: 's.id',
      split: 's.split',
      ...extra,
      ...(field ? { truth: `s.${field}` } : {}),
      ...(columns.imageSize
        ? {
            height: this.jsonNumber('s.computed', 'image.height'),
            width: this.jsonNumber('s.computed', 'image.width'),
          }
        : {}),
    };
  }

  /**
   * The live samples in upload order with their labels, as evaluationSamples reads them without a
   * set: what an evaluation of classification sets reads besides the sets' kept predictions.
   */
  classSamples(datasetId: string): AsyncIterable<EvaluationSetsPage<'label'>> {
    return this.evaluationSamplesOfSets(datasetId, [], { truth: 'label' });
  }

  /**
   * One past the highest seq of the dataset's samples (deleted ones too), or of the samples of
   * the set's predictions: where reads by ranges of seqs end; 0 for none.
   */
  private async seqEnd(of: { datasetId: string } | { setId: string }): Promise<number> {
    const row = await (
      'setId' in of
        ? this.db
            .selectFrom('predictions')
            .select((eb) => eb.fn.max('sample_seq').as('last'))
            .where('prediction_set_id', '=', of.setId)
        : this.db
            .selectFrom('samples')
            .select((eb) => eb.fn.max('seq').as('last'))
            .where('dataset_id', '=', of.datasetId)
    ).executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  /** PostgreSQL: samples and each set's predictions read in upload order, matched in memory. */
  private async *matchedSamplesOfSets<T extends EvaluationTruth | null>(
    datasetId: string,
    setIds: readonly string[],
    columns: EvaluationSampleColumns<T>,
  ): AsyncGenerator<EvaluationSetsPage<T>> {
    const field = columns.truth === null ? null : TRUTH_FIELD[columns.truth];
    const predictionSelect: Record<string, string> = {
      seq: 'p.sample_seq',
      ...(field ? { prediction: `p.${field}` } : {}),
      ...(columns.scores ? { score: 'p.score', probabilities: 'p.probabilities' } : {}),
    };
    // The statements run side by side on the pool's connections. A set's predictions of deleted
    // samples are read too, and passed over in the walk.
    const end = await this.seqEnd({ datasetId });
    const [samples, ...predictions] = await Promise.all([
      this.allColumns(
        this.sampleColumns(columns, field, {}),
        (low, high) => sql`from samples as s
          where s.dataset_id = ${datasetId} and s.deleted = 0 and s.seq >= ${low} and s.seq < ${high}
          order by s.seq`,
        end,
      ),
      ...setIds.map((setId) =>
        this.allColumns(
          predictionSelect,
          (low, high) => sql`from predictions as p
            where p.prediction_set_id = ${setId} and p.sample_seq >= ${low} and p.sample_seq < ${high}
            order by p.sample_seq`,
          end,
        ),
      ),
    ]);
    const seqs = samples['seq'] as number[];
    const rowOf = predictions.map((p) => predictionRows(seqs, p['seq'] as number[]));
    const truth =
      columns.truth === 'values'
        ? (value: unknown) => readJson<NumericValues>(value as string | null) as TruthValue<T>
        : null;
    const probabilities = (value: unknown) => readJson<Probabilities>(value as string | null);
    const page = (column: unknown[] | undefined, start: number, end: number) =>
      column === undefined ? [] : column.slice(start, end);
    // Pages as small as the reads', so the loader's copies of a page stay small too.
    for (let start = 0; start < seqs.length; start += this.scanPage) {
      const end = Math.min(seqs.length, start + this.scanPage);
      yield {
        id: page(samples['id'], start, end) as string[],
        seq: seqs.slice(start, end),
        split: page(samples['split'], start, end) as (string | null)[],
        truth: (truth === null
          ? page(samples['truth'], start, end)
          : page(samples['truth'], start, end).map(truth)) as TruthValue<T>[],
        height: page(samples['height'], start, end) as (number | null)[],
        width: page(samples['width'], start, end) as (number | null)[],
        sets: predictions.map((p, k) => {
          const atRow = rowOf[k]!.subarray(start, end);
          return {
            predicted: Array.from(atRow, (row) => (row < 0 ? 0 : 1)),
            prediction: pick(p['prediction'], atRow, truth) as TruthValue<T>[],
            score: pick(p['score'], atRow) as (number | null)[],
            probabilities: pick(p['probabilities'], atRow, probabilities),
          };
        }),
      };
    }
  }

  /**
   * The pages of `from` (its tables and conditions, its rows ordered by a `seq` in the range
   * given), in order: a range of seqs at a time from 0 to `end`, the next one asked for before
   * this one is handed over, so the database answers one while this process decodes the other.
   */
  private async *seqRanges(
    select: Record<string, string>,
    from: (low: number, high: number) => RawBuilder<unknown>,
    end: number,
  ): AsyncGenerator<Record<string, unknown>> {
    const step = this.scanPage;
    const ranges = Math.ceil(end / step);
    // A range of seqs holds at most `step` rows: seqs are distinct in a read.
    const read = (k: number) =>
      this.columnPage(select, from(k * step, (k + 1) * step), 'seq', step).then(
        (page) => page.columns,
      );
    let ahead = ranges > 0 ? read(0) : null;
    for (let k = 0; k < ranges; k++) {
      const current = ahead!;
      ahead = k + 1 < ranges ? read(k + 1) : null;
      // Awaited in its turn; until then a failure must not count as unhandled.
      ahead?.catch(() => {});
      yield await current;
    }
  }

  /** Every row of seqRanges' pages: one array per column. */
  private async allColumns(
    select: Record<string, string>,
    from: (low: number, high: number) => RawBuilder<unknown>,
    end: number,
  ): Promise<Record<string, unknown[]>> {
    const names = Object.keys(select);
    const parts: Record<string, unknown>[] = [];
    for await (const part of this.seqRanges(select, from, end)) parts.push(part);
    return Object.fromEntries(
      names.map((name) => {
        const columns = parts.map((part) => jsonColumn(part[name]));
        return [name, columns.length === 1 ? columns[0]! : ([] as unknown[]).concat(...columns)];
      }),
    );
  }

  /**
   * The live ground-truth objects of the dataset's live samples, or the set's predicted objects
   * of them, in id order, a page at a time, column by column.
   */
  async *evaluationObjects(
    datasetId: string,
    setId: string,
    side: 'truth' | 'prediction',
    segmentation: boolean,
  ): AsyncGenerator<EvaluationObjectPage> {
    const select: Record<string, string> = {
      id: 'o.id',
      seq: 's.seq',
      label: 'o.label',
      x: 'o.x',
      y: 'o.y',
      w: 'o.w',
      h: 'o.h',
      ...(segmentation ? { segmentation: 'o.segmentation' } : {}),
      ...(side === 'truth' ? { iscrowd: 'o.iscrowd' } : { score: 'o.score' }),
    };
    let after = '';
    for (;;) {
      const from =
        side === 'truth'
          ? sql`from objects as o join samples as s on s.dataset_id = o.dataset_id and s.id = o.sample_id
            where o.dataset_id = ${datasetId} and o.deleted = 0 and s.deleted = 0 and o.id > ${after}
            order by o.id`
          : sql`from predicted_objects as o join samples as s on s.dataset_id = ${datasetId} and s.id = o.sample_id
            where o.prediction_set_id = ${setId} and s.deleted = 0 and o.id > ${after}
            order by o.id`;
      const page = await this.columnPage(select, from, 'id');
      if (page.count === 0) return;
      const c = page.columns;
      const numbers = (name: string) => jsonColumn(c[name]) as (number | null)[];
      yield {
        id: jsonColumn(c['id']) as string[],
        seq: jsonColumn(c['seq']) as number[],
        label: jsonColumn(c['label']) as string[],
        x: numbers('x'),
        y: numbers('y'),
        w: numbers('w'),
        h: numbers('h'),
        segmentation: decodedColumn<Segmentation>(c['segmentation']),
        iscrowd: jsonColumn(c['iscrowd']) as number[],
        score: numbers('score'),
      };
      if (page.count < this.pageSize) return;
      after = String(page.last);
    }
  }

  /**
   * A page of the rows of `from` (its tables, conditions and order): one JSON array per column,
   * built by the database and parsed in one go, so no object is made per row. The arrays follow
   * the page's order (the aggregates read an ordered subquery, nothing joined above it). `last`
   * is the page's highest `key`, where the next page starts.
   */
  private async columnPage(
    select: Record<string, string>,
    from: RawBuilder<unknown>,
    key: string,
    limit = this.pageSize,
  ): Promise<{ count: number; last: unknown; columns: Record<string, unknown> }> {
    const aggregate = sql.raw(this.dialect === 'postgres' ? 'json_agg' : 'json_group_array');
    const names = Object.keys(select);
    const { rows } = await sql<Record<string, unknown>>`select count(*) as page_count,
        max(${sql.ref(key)}) as page_last,
        ${sql.join(names.map((name) => sql`${aggregate}(${sql.ref(name)}) as ${sql.ref(name)}`))}
      from (
        select ${sql.join(names.map((name) => sql`${sql.raw(select[name]!)} as ${sql.ref(name)}`))}
        ${from}
        limit ${limit}
      ) as page`.execute(this.db);
    const { page_count, page_last, ...columns } = rows[0]!;
    return { count: Number(page_count), last: page_last, columns };
  }

  /** A number of a JSON text column, as SQL. */
  private jsonNumber(column: string, key: string): string {
    return this.dialect === 'postgres'
      ? `(${column}::json -> '${key}')`
      : `json_extract(${column}, '$."${key}"')`;
  }
}

function decodeResult(row: Selectable<PerformanceResultsTable>): PerformanceResultRecord {
  return {
    ...row,
    kind: row.kind as ResultKind,
    data_version: Number(row.data_version),
    subset_version: Number(row.subset_version),
    updated_at: Number(row.updated_at),
    result: readJson<unknown>(row.result),
  };
}
