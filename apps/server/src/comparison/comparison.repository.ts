// SQL for model comparison: the stored comparisons of a pair of prediction sets (one per split,
// metric and value name) with the data they were computed from, JSON decoded.
import type { Kysely, Selectable } from 'kysely';
import { readJson } from '../db/json-columns.js';
import type { ComparisonResultsTable, DB } from '../db/schema.js';

export interface ComparisonResultRecord {
  prediction_set_a: string;
  prediction_set_b: string;
  /** Names the split, metric and value name (comparisonKey in comparison-jobs.service.ts). */
  key: string;
  data_version: number;
  iou_threshold: number;
  status: 'computing' | 'ready' | 'failed';
  progress: number;
  /** The decoded result; null unless ready. */
  result: unknown;
  error: string | null;
  updated_at: number;
}

export class ComparisonRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async result(a: string, b: string, key: string): Promise<ComparisonResultRecord | undefined> {
    const row = await this.db
      .selectFrom('comparison_results')
      .selectAll()
      .where('prediction_set_a', '=', a)
      .where('prediction_set_b', '=', b)
      .where('key', '=', key)
      .executeTakeFirst();
    return row && decodeResult(row);
  }

  /** Writes a result, replacing the one of the same pair and key. */
  async saveResult(record: ComparisonResultRecord): Promise<void> {
    const values = {
      ...record,
      result: record.result === null ? null : JSON.stringify(record.result),
    };
    await this.db
      .insertInto('comparison_results')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['prediction_set_a', 'prediction_set_b', 'key']).doUpdateSet({
          data_version: values.data_version,
          iou_threshold: values.iou_threshold,
          status: values.status,
          progress: values.progress,
          result: values.result,
          error: values.error,
          updated_at: values.updated_at,
        }),
      )
      .execute();
  }

  /**
   * Removes the pair's comparisons computed from other data than `dataVersion`: they can never
   * be current again, and a pair compared on many splits and metrics would keep them all.
   */
  async deleteStale(a: string, b: string, dataVersion: number): Promise<void> {
    await this.db
      .deleteFrom('comparison_results')
      .where('prediction_set_a', '=', a)
      .where('prediction_set_b', '=', b)
      .where('data_version', '<', dataVersion)
      .execute();
  }
}

function decodeResult(row: Selectable<ComparisonResultsTable>): ComparisonResultRecord {
  return {
    ...row,
    data_version: Number(row.data_version),
    iou_threshold: Number(row.iou_threshold),
    progress: Number(row.progress),
    updated_at: Number(row.updated_at),
    result: readJson<unknown>(row.result),
  };
}
