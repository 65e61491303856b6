// SQL for a prediction set's attributions (heatmaps by name and sample): how many live samples
// have each, one heatmap, and deleting one name. Uploads write through PredictionSetsRepository.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A stored heatmap: a media reference, or rows of numbers. */
export type StoredHeatmap = string | number[][];

export class AttributionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Each attribution name of the set with the live samples of the dataset that have it. */
  async presence(datasetId: string, setId: string): Promise<{ name: string; present: number }[]> {
    const rows = await this.db
      .selectFrom('attributions')
      .innerJoin('samples', (join) =>
        join
          .on('samples.dataset_id', '=', datasetId)
          .onRef('samples.id', '=', 'attributions.sample_id'),
      )
      .select(['attributions.name', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('attributions.prediction_set_id', '=', setId)
      .where('samples.deleted', '=', 0)
      .groupBy('attributions.name')
      .orderBy('attributions.name')
      .execute();
    return rows.map((row) => ({ name: row.name, present: Number(row.n) }));
  }

  /** The set's attribution names (of live samples or not), by name. */
  async names(setId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('attributions')
      .select('name')
      .distinct()
      .where('prediction_set_id', '=', setId)
      .orderBy('name')
      .execute();
    return rows.map((row) => row.name);
  }

  /** Whether the set has any heatmap of this name (of a live sample or not). */
  async exists(setId: string, name: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('attributions')
      .select('sample_id')
      .where('prediction_set_id', '=', setId)
      .where('name', '=', name)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async heatmap(setId: string, name: string, sampleId: string): Promise<StoredHeatmap | undefined> {
    const row = await this.db
      .selectFrom('attributions')
      .select('heatmap')
      .where('prediction_set_id', '=', setId)
      .where('name', '=', name)
      .where('sample_id', '=', sampleId)
      .executeTakeFirst();
    if (!row) return undefined;
    // Rows of numbers are stored as their JSON, a media reference as it is.
    return row.heatmap.startsWith('[') ? (JSON.parse(row.heatmap) as number[][]) : row.heatmap;
  }

  /** Removes every heatmap of the name; answers how many. */
  async delete(setId: string, name: string): Promise<number> {
    const result = await this.db
      .deleteFrom('attributions')
      .where('prediction_set_id', '=', setId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
