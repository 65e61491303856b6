// SQL for model performance: the stored results of a prediction set (report, fine-grained curves,
// subset entries) with the data they were computed from, the metric a subset's entry shows, and
// what an evaluation reads (live samples with their predictions, objects, predicted objects) in a
// stable order, in pages of one array per column, JSON columns decoded.
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Dialect } from '../db/database.js';
import { readJson } from '../db/json-columns.js';
import { liveInUploadOrder, pick, predictionRows } from './evaluation-rows.js';
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
   * samples and each set's predictions on their own, side by side, each in the order of its
   * primary key (sample id), and they are matched here by walking both lists
   * (docs/decisions.md, decision 62): joining them cost the database hash joins over every row
   * and a sort, on parallel workers that took the cores from everything else.
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
   * Every class prediction of each set with its sample's seq (deleted samples too: a restore
   * brings them back without a new upload), in upload order, a page at a time, column by column:
   * each page holds one page per set, in the order of the sets given. SQLite joins the samples
   * with every set's predictions (one pass for all the sets, an index search per sample and set).
   * PostgreSQL reads the samples' ids and seqs (once for all the sets) and each set's predictions
   * on their own, side by side, each in the order of its primary key, and matches them by walking
   * both lists (decision 62); SQLite measured slower that way.
   */
  private async *classPredictions(
    datasetId: string,
    setIds: readonly string[],
    /** PostgreSQL: the samples in key order (samplesInKeyOrder), when the caller reads them anyway. */
    read?: Promise<Record<string, unknown[]>>,
  ): AsyncGenerator<ClassPredictionPage[]> {
    if (this.dialect === 'sqlite') {
      const select: Record<string, string> = { seq: 's.seq' };
      setIds.forEach((_, i) => {
        select[`predicted_${i}`] = `case when p${i}.sample_id is null then 0 else 1 end`;
        select[`label_${i}`] = `p${i}.label`;
        select[`score_${i}`] = `p${i}.score`;
        select[`probabilities_${i}`] = `p${i}.probabilities`;
      });
      let after = -1;
      for (;;) {
        const page = await this.columnPage(
          select,
          sql`from samples as s ${this.predictionJoins(setIds)}
          where s.dataset_id = ${datasetId} and s.seq > ${after}
          order by s.seq`,
          'seq',
        );
        if (page.count === 0) return;
        const c = page.columns;
        const seq = jsonColumn(c['seq']) as number[];
        yield setIds.map((_, i) => {
          const predicted = jsonColumn(c[`predicted_${i}`]) as number[];
          const rows = new Int32Array(predicted.length);
          let count = 0;
          predicted.forEach((flag, k) => {
            if (flag === 1) rows[count++] = k;
          });
          const at = rows.subarray(0, count);
          return {
            seq: pick(seq, at) as number[],
            label: pick(jsonColumn(c[`label_${i}`]), at) as (string | null)[],
            score: pick(jsonColumn(c[`score_${i}`]), at) as (number | null)[],
            probabilities: pick(decodedColumn<Probabilities>(c[`probabilities_${i}`]), at),
          };
        });
        if (page.count < this.pageSize) return;
        after = Number(page.last);
      }
    }
    const [samples, ...predictions] = await Promise.all([
      read ?? this.samplesInKeyOrder(datasetId, { truth: null }),
      ...setIds.map((setId) =>
        this.allColumns(
          {
            sample_id: 'p.sample_id',
            label: 'p.label',
            score: 'p.score',
            probabilities: 'p.probabilities',
          },
          (after) => sql`from predictions as p
            where p.prediction_set_id = ${setId} and p.sample_id > ${after}
            order by p.sample_id`,
          'sample_id',
        ),
      ),
    ]);
    const ids = samples['id'] as string[];
    const seqs = samples['seq'] as number[];
    const inOrder = liveInUploadOrder(seqs, new Array<number>(seqs.length).fill(0));
    // For each set, its predictions' samples in upload order and the predictions' rows.
    const sides = predictions.map((columns) => {
      const rowOf = predictionRows(ids, columns['sample_id'] as string[]);
      let count = 0;
      for (const i of inOrder) if (rowOf[i]! >= 0) count++;
      const sampleAt = new Int32Array(count);
      const rowAt = new Int32Array(count);
      count = 0;
      for (const i of inOrder)
        if (rowOf[i]! >= 0) {
          sampleAt[count] = i;
          rowAt[count++] = rowOf[i]!;
        }
      return { columns, sampleAt, rowAt };
    });
    const probabilities = (value: unknown) => readJson<Probabilities>(value as string | null);
    const most = Math.max(0, ...sides.map((side) => side.rowAt.length));
    for (let start = 0; start < most; start += this.scanPage)
      yield sides.map(({ columns, sampleAt, rowAt }) => {
        const rows = rowAt.subarray(start, start + this.scanPage);
        return {
          seq: pick(seqs, sampleAt.subarray(start, start + this.scanPage)) as number[],
          label: pick(columns['label'], rows) as (string | null)[],
          score: pick(columns['score'], rows) as (number | null)[],
          probabilities: pick(columns['probabilities'], rows, probabilities),
        };
      });
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
   * The dataset's samples (deleted ones too, with `deleted`) in the order of their primary key,
   * with the columns an evaluation reads: one array per column.
   */
  private samplesInKeyOrder(
    datasetId: string,
    columns: EvaluationSampleColumns<EvaluationTruth | null>,
  ): Promise<Record<string, unknown[]>> {
    const field = columns.truth === null ? null : TRUTH_FIELD[columns.truth];
    return this.allColumns(
      this.sampleColumns(columns, field, { deleted: 's.deleted' }),
      (after) => sql`from samples as s where s.dataset_id = ${datasetId} and s.id > ${after}
        order by s.id`,
      'id',
    );
  }

  /**
   * The reads of one evaluation of classification sets: the live samples in upload order with
   * their labels (as evaluationSamples reads them, without a set), and the predictions of the sets
   * not kept (classPredictions). On PostgreSQL both walk one read of the samples in key order.
   */
  classReads(datasetId: string): {
    samples(): AsyncIterable<EvaluationSetsPage<'label'>>;
    predictions(setIds: readonly string[]): AsyncIterable<ClassPredictionPage[]>;
  } {
    const columns = { truth: 'label' } as const;
    if (this.dialect === 'sqlite')
      return {
        samples: () => this.joinedSamplesOfSets(datasetId, [], columns),
        predictions: (setIds) => this.classPredictions(datasetId, setIds),
      };
    let read: Promise<Record<string, unknown[]>> | null = null;
    const samples = () => (read ??= this.samplesInKeyOrder(datasetId, columns));
    return {
      samples: () => this.matchedSamplesOfSets(datasetId, [], columns, samples()),
      predictions: (setIds) => this.classPredictions(datasetId, setIds, samples()),
    };
  }

  /** PostgreSQL: samples and each set's predictions read in key order, matched in memory. */
  private async *matchedSamplesOfSets<T extends EvaluationTruth | null>(
    datasetId: string,
    setIds: readonly string[],
    columns: EvaluationSampleColumns<T>,
    /** The samples' columns, when the caller has read them already (samplesInKeyOrder). */
    read: Promise<Record<string, unknown[]>> = this.samplesInKeyOrder(datasetId, columns),
  ): AsyncGenerator<EvaluationSetsPage<T>> {
    const field = columns.truth === null ? null : TRUTH_FIELD[columns.truth];
    const predictionSelect: Record<string, string> = {
      sample_id: 'p.sample_id',
      ...(field ? { prediction: `p.${field}` } : {}),
      ...(columns.scores ? { score: 'p.score', probabilities: 'p.probabilities' } : {}),
    };
    // Deleted samples are read too: a set keeps its predictions of them, and every prediction
    // finds its sample in the walk. The statements run side by side on the pool's connections.
    const [samples, ...predictions] = await Promise.all([
      read,
      ...setIds.map((setId) =>
        this.allColumns(
          predictionSelect,
          (after) => sql`from predictions as p
            where p.prediction_set_id = ${setId} and p.sample_id > ${after}
            order by p.sample_id`,
          'sample_id',
        ),
      ),
    ]);
    const ids = samples['id'] as string[];
    const rowOf = predictions.map((p) => {
      const rows = predictionRows(ids, p['sample_id'] as string[]);
      delete p['sample_id'];
      return rows;
    });
    const order = liveInUploadOrder(samples['seq'] as number[], samples['deleted'] as number[]);
    const truth =
      columns.truth === 'values'
        ? (value: unknown) => readJson<NumericValues>(value as string | null) as TruthValue<T>
        : null;
    const probabilities = (value: unknown) => readJson<Probabilities>(value as string | null);
    // Pages as small as the reads', so the loader's copies of a page stay small too.
    for (let start = 0; start < order.length; start += this.scanPage) {
      const at = order.subarray(start, start + this.scanPage);
      yield {
        id: pick(samples['id'], at) as string[],
        seq: pick(samples['seq'], at) as number[],
        split: pick(samples['split'], at) as (string | null)[],
        truth: pick(samples['truth'], at, truth) as TruthValue<T>[],
        height: pick(samples['height'], at) as (number | null)[],
        width: pick(samples['width'], at) as (number | null)[],
        sets: predictions.map((p, k) => {
          const rows = rowOf[k]!;
          const atRow = new Int32Array(at.length);
          const predicted = new Array<number>(at.length);
          for (let r = 0; r < at.length; r++) {
            const j = rows[at[r]!]!;
            atRow[r] = j;
            predicted[r] = j < 0 ? 0 : 1;
          }
          return {
            predicted,
            prediction: pick(p['prediction'], atRow, truth) as TruthValue<T>[],
            score: pick(p['score'], atRow) as (number | null)[],
            probabilities: pick(p['probabilities'], atRow, probabilities),
          };
        }),
      };
    }
  }

  /**
   * Every row of `from` (its tables, conditions and keyset order on `key`, after the given key):
   * one array per column, read a page at a time.
   */
  private async allColumns(
    select: Record<string, string>,
    from: (after: string) => RawBuilder<unknown>,
    key: string,
  ): Promise<Record<string, unknown[]>> {
    const names = Object.keys(select);
    const pages = names.map((): unknown[][] => []);
    let after = '';
    for (;;) {
      const page = await this.columnPage(select, from(after), key, this.scanPage);
      names.forEach((name, i) => pages[i]!.push(jsonColumn(page.columns[name])));
      if (page.count < this.scanPage) break;
      after = String(page.last);
    }
    return Object.fromEntries(
      names.map((name, i) => {
        const parts = pages[i]!;
        return [name, parts.length === 1 ? parts[0]! : ([] as unknown[]).concat(...parts)];
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
