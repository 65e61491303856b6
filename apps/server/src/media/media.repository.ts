// SQL for the media files uploaded to a dataset, by content address (their sha256).
import type { Kysely, Selectable } from 'kysely';
import type { DB, MediaBlobsTable } from '../db/schema.js';

export type MediaRecord = Selectable<MediaBlobsTable>;

const IN_CHUNK = 900;

export class MediaRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Records an uploaded file; the same bytes uploaded again record nothing new. */
  async record(media: MediaRecord): Promise<void> {
    await this.db
      .insertInto('media_blobs')
      .values(media)
      .onConflict((oc) => oc.columns(['dataset_id', 'key']).doNothing())
      .execute();
  }

  /** Which of these content addresses the dataset has. */
  async existing(datasetId: string, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += IN_CHUNK) {
      const rows = await this.db
        .selectFrom('media_blobs')
        .select('key')
        .where('dataset_id', '=', datasetId)
        .where('key', 'in', keys.slice(i, i + IN_CHUNK))
        .execute();
      for (const row of rows) found.add(row.key);
    }
    return found;
  }

  find(datasetId: string, key: string): Promise<MediaRecord | undefined> {
    return this.db
      .selectFrom('media_blobs')
      .selectAll()
      .where('dataset_id', '=', datasetId)
      .where('key', '=', key)
      .executeTakeFirst();
  }
}
