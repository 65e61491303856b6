// SQL for a dataset's metadata fields: those uploads introduce and those the metadata pass
// computes, with their state (pending while being recomputed).
import type { Kysely, Selectable } from 'kysely';
import type { DB, MetadataFieldsTable } from '../db/schema.js';

export type MetadataFieldRecord = Selectable<MetadataFieldsTable>;

const CHUNK = 500;

export class MetadataFieldsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The dataset's fields (of one data level when given), in the order they were added. */
  list(datasetId: string, dataLevel?: string): Promise<MetadataFieldRecord[]> {
    let query = this.db
      .selectFrom('metadata_fields')
      .selectAll()
      .where('dataset_id', '=', datasetId);
    if (dataLevel) query = query.where('data_level', '=', dataLevel);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  /** Adds fields; one that exists already stays as it is. */
  async insert(fields: MetadataFieldRecord[]): Promise<void> {
    for (let i = 0; i < fields.length; i += CHUNK) {
      await this.db
        .insertInto('metadata_fields')
        .values(fields.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['dataset_id', 'data_level', 'id']).doNothing())
        .execute();
    }
  }

  async setState(datasetId: string, source: string, state: 'available' | 'pending'): Promise<void> {
    await this.db
      .updateTable('metadata_fields')
      .set({ state })
      .where('dataset_id', '=', datasetId)
      .where('source', '=', source)
      .execute();
  }
}
