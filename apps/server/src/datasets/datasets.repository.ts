// SQL for datasets: the row itself (counters, sequence numbers, the data version the explorer's
// cache keys on) and the summaries a dataset card shows (splits, previews, durations, prediction
// sets). Rows leave as DatasetRecords: class names and the label map decoded, flags as booleans.
import type { TaskType } from '@loupe/contracts';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB, DatasetsTable } from '../db/schema.js';

type DatasetRow = Selectable<DatasetsTable>;

export interface DatasetRecord {
  id: string;
  name: string;
  description: string;
  task_type: TaskType;
  class_names: string[];
  /** Regression: the names of the values each sample carries. */
  value_names: string[];
  /** Semantic segmentation: mask pixel value → class name. */
  label_map: Record<string, string> | null;
  /** Classes named at creation are a closed list: labels must then be among them. */
  closed_classes: boolean;
  iou_threshold: number;
  thumbnails_enabled: boolean;
  samples_count: number;
  objects_count: number;
  next_seq: number;
  /** Bumped with every write that changes items, metadata or predictions (explorer cache key). */
  data_version: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

/** What a dataset card previews of a sample. */
export interface SamplePreview {
  id: string;
  thumbnail: string | null;
  media: string | null;
}

function decode(row: DatasetRow): DatasetRecord {
  return {
    ...row,
    task_type: row.task_type as TaskType,
    class_names: JSON.parse(row.class_names) as string[],
    value_names: JSON.parse(row.value_names) as string[],
    label_map: row.label_map ? (JSON.parse(row.label_map) as Record<string, string>) : null,
    closed_classes: row.closed_classes === 1,
    thumbnails_enabled: row.thumbnails_enabled === 1,
  };
}

function encode(changes: Partial<DatasetRecord>): Partial<DatasetRow> {
  const { class_names, value_names, label_map, closed_classes, thumbnails_enabled, ...rest } =
    changes;
  return {
    ...rest,
    ...(class_names !== undefined ? { class_names: JSON.stringify(class_names) } : {}),
    ...(value_names !== undefined ? { value_names: JSON.stringify(value_names) } : {}),
    ...(label_map !== undefined
      ? { label_map: label_map === null ? null : JSON.stringify(label_map) }
      : {}),
    ...(closed_classes !== undefined ? { closed_classes: closed_classes ? 1 : 0 } : {}),
    ...(thumbnails_enabled !== undefined ? { thumbnails_enabled: thumbnails_enabled ? 1 : 0 } : {}),
  };
}

export class DatasetsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  async insert(dataset: DatasetRecord): Promise<void> {
    await this.db
      .insertInto('datasets')
      .values(encode(dataset) as DatasetRow)
      .execute();
  }

  async find(id: string): Promise<DatasetRecord | undefined> {
    const row = await this.db
      .selectFrom('datasets')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && decode(row);
  }

  async findByName(name: string): Promise<DatasetRecord | undefined> {
    const row = await this.db
      .selectFrom('datasets')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row && decode(row);
  }

  async list(): Promise<DatasetRecord[]> {
    const rows = await this.db
      .selectFrom('datasets')
      .selectAll()
      .orderBy('updated_at', 'desc')
      .execute();
    return rows.map(decode);
  }

  /** Dataset id → name, for activities. */
  async names(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('datasets').select(['id', 'name']).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('datasets').where('id', '=', id).execute();
  }

  async update(id: string, changes: Partial<Omit<DatasetRecord, 'id'>>): Promise<void> {
    await this.db.updateTable('datasets').set(encode(changes)).where('id', '=', id).execute();
  }

  /** Marks the dataset's items as changed: explorer tables built before are stale. */
  async bumpDataVersion(id: string): Promise<void> {
    await this.db
      .updateTable('datasets')
      .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Holds the dataset's row until the transaction ends, so that uploads of samples or predictions
   * to one dataset take turns (SQLite's transactions already do): each sees what the one before
   * stored, and batches sent at once land whole, one after the other. FOR NO KEY UPDATE, the lock an
   * update of the row takes anyway, still lets other transactions insert rows that refer to it.
   */
  async lockForUpload(id: string): Promise<void> {
    if (this.dialect !== 'postgres') return;
    await this.db
      .selectFrom('datasets')
      .select('id')
      .where('id', '=', id)
      .forNoKeyUpdate()
      .execute();
  }

  /** Reserves `count` consecutive sequence numbers (card_index) for new samples. */
  async reserveSeq(id: string, count: number): Promise<number> {
    const row = await this.db
      .updateTable('datasets')
      .set((eb) => ({ next_seq: eb('next_seq', '+', count) }))
      .where('id', '=', id)
      .returning('next_seq')
      .executeTakeFirstOrThrow();
    return row.next_seq - count;
  }

  async addCounts(id: string, samples: number, objects: number, now: number): Promise<void> {
    await this.db
      .updateTable('datasets')
      .set((eb) => ({
        samples_count: eb('samples_count', '+', samples),
        objects_count: eb('objects_count', '+', objects),
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Forgets every sample's thumbnail (thumbnails switched off; the files go separately). */
  async clearThumbnails(id: string): Promise<void> {
    await this.db
      .updateTable('samples')
      .set({ thumbnail: null })
      .where('dataset_id', '=', id)
      .execute();
  }

  // ---- summaries

  /**
   * The dataset's splits, ascending. A loose index scan on samples_split: one seek per split, so
   * the cost follows the number of splits, not of samples (a DISTINCT reads every row).
   */
  async splits(id: string): Promise<string[]> {
    const result = await sql<{ split: string }>`
      with recursive s(split) as (
        select min(split) from samples
          where dataset_id = ${id} and deleted = 0 and split is not null
        union all
        select (select min(split) from samples
                  where dataset_id = ${id} and deleted = 0 and split > s.split)
          from s where s.split is not null
      )
      select split from s where split is not null`.execute(this.db);
    return result.rows.map((row) => row.split);
  }

  /** The first samples with a thumbnail, for previews. */
  previewSamples(id: string, limit: number): Promise<SamplePreview[]> {
    return this.db
      .selectFrom('samples')
      .select(['id', 'thumbnail', 'media'])
      .where('dataset_id', '=', id)
      .where('deleted', '=', 0)
      .where('thumbnail', 'is not', null)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  async durationBounds(id: string): Promise<{ min: number | null; max: number | null }> {
    // Durations live in the computed JSON; read them in SQL so 1M rows never cross into JS.
    const expression = sql<number>`cast(${sql.raw(this.jsonNumber('computed', 'audio.duration'))} as double precision)`;
    const row = await this.db
      .selectFrom('samples')
      .select([
        sql<number | null>`min(${expression})`.as('min'),
        sql<number | null>`max(${expression})`.as('max'),
      ])
      .where('dataset_id', '=', id)
      .where('deleted', '=', 0)
      .where('media_type', '=', 'audio')
      .where('processed', '=', 1)
      .executeTakeFirstOrThrow();
    return {
      min: row.min === null ? null : Number(row.min),
      max: row.max === null ? null : Number(row.max),
    };
  }

  private jsonNumber(column: string, key: string): string {
    return this.dialect === 'postgres'
      ? `(${column}::json->>'${key}')`
      : `json_extract(${column}, '$."${key}"')`;
  }

  /** How many prediction sets each dataset has. */
  async predictionSetCounts(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('prediction_sets')
      .select(['dataset_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('dataset_id')
      .execute();
    return new Map(rows.map((row) => [row.dataset_id, Number(row.n)]));
  }

  async predictionSetCount(id: string): Promise<number> {
    const row = await this.db
      .selectFrom('prediction_sets')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dataset_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
