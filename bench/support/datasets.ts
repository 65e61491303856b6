// The rows every generated benchmark dataset starts with (the dataset, its metadata fields, the
// history record its samples point at, a prediction set), and the reuse of a complete dataset by
// the next run: a dataset is marked GENERATING until its last row is written, so an interrupted
// generation is written again rather than reused.
import { randomUUID } from 'node:crypto';
import type { DatabaseConfig } from '@loupe/server/embedded';
import { openBulkWriter, type BulkWriter } from './bulk-sql.js';

/** A dataset's description until its last row is written: a half-generated one is not reused. */
export const GENERATING = 'generating';

/** What a dataset's row says of it (a benchmark's spec has these). */
export interface DatasetHeader {
  name: string;
  task: string;
  classes: readonly string[];
  samples: number;
  objects: number;
}

/** The `datasets` row, GENERATING: closed classes when it has any, no thumbnails, version 1. */
export function datasetRow(id: string, d: DatasetHeader, now: number): Record<string, unknown> {
  return {
    id,
    name: d.name,
    description: GENERATING,
    task_type: d.task,
    class_names: JSON.stringify(d.classes),
    value_names: '[]',
    label_map: null,
    closed_classes: d.classes.length > 0 ? 1 : 0,
    iou_threshold: 0.5,
    thumbnails_enabled: 0,
    samples_count: d.samples,
    objects_count: d.objects,
    next_seq: d.samples,
    data_version: 1,
    created_by: null,
    created_at: now,
    updated_at: now,
  };
}

/** A metadata field: data level, id (also its name and label), type, source, group. */
export type FieldSpec = readonly [
  level: string,
  id: string,
  type: string,
  source: string,
  group: string,
];

/** The `metadata_fields` row of an available field. */
export function metadataFieldRow(
  datasetId: string,
  [level, id, type, source, group]: FieldSpec,
  now: number,
): Record<string, unknown> {
  return {
    dataset_id: datasetId,
    data_level: level,
    id,
    name: id,
    label: id,
    description: '',
    group_name: group,
    source,
    type,
    state: 'available',
    created_at: now,
  };
}

/** The `history_records` row of the upload that created a dataset's `items` samples. */
export function historyRow(
  recordId: string,
  datasetId: string,
  dataLevel: string,
  items: number,
  now: number,
): Record<string, unknown> {
  return {
    id: recordId,
    dataset_id: datasetId,
    operation_type: 'sample:create',
    data_level: dataLevel,
    num_items: items,
    user_id: null,
    created_at: now,
    updated_at: now,
    restored_by: null,
  };
}

/** The `prediction_sets` row of a model with predictions for `present` samples. */
export function predictionSetRow(
  id: string,
  datasetId: string,
  name: string,
  present: number,
  now: number,
): Record<string, unknown> {
  return {
    id,
    dataset_id: datasetId,
    name,
    num_present: present,
    created_at: now,
    updated_at: now,
  };
}

export interface GeneratedDataset {
  datasetId: string;
  predictionSetId: string;
  /** False: a complete dataset of an earlier run, reused. */
  generated: boolean;
}

/** The ids of a dataset being written, and the time its rows carry. */
export interface NewDataset {
  datasetId: string;
  predictionSetId: string;
  recordId: string;
  now: number;
}

/**
 * The dataset `name` with its prediction set `predictionSet`: a complete one is reused unless
 * `regenerate`; else any earlier one is deleted, `write` writes every row (the dataset's GENERATING),
 * and the dataset is marked complete and the planner statistics refreshed.
 */
export async function generateOnce(
  database: DatabaseConfig,
  name: string,
  predictionSet: string,
  regenerate: boolean,
  write: (bulk: BulkWriter, ids: NewDataset) => Promise<void>,
): Promise<GeneratedDataset> {
  const bulk = await openBulkWriter(database);
  try {
    const [existing] = await bulk.select<{ id: string; description: string }>(
      'select id, description from datasets where name = ?',
      [name],
    );
    if (existing && existing.description !== GENERATING && !regenerate) {
      const [set] = await bulk.select<{ id: string }>(
        'select id from prediction_sets where dataset_id = ? and name = ?',
        [existing.id, predictionSet],
      );
      if (set) return { datasetId: existing.id, predictionSetId: set.id, generated: false };
    }
    if (existing) await bulk.run('delete from datasets where id = ?', [existing.id]);
    const ids: NewDataset = {
      datasetId: randomUUID(),
      predictionSetId: randomUUID(),
      recordId: randomUUID(),
      now: Date.now(),
    };
    await write(bulk, ids);
    await bulk.run('update datasets set description = ? where id = ?', ['complete', ids.datasetId]);
    await bulk.analyze();
    return { datasetId: ids.datasetId, predictionSetId: ids.predictionSetId, generated: true };
  } finally {
    await bulk.close();
  }
}
