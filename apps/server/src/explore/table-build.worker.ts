// Worker-thread entry of the explorer's table builds (table-builder.ts): reads the dataset and
// its rows on this thread's own connection, builds the item table and its sort indexes, and
// writes the table's file for the API process to read back.
import { prepareSortIndexes } from '@loupe/analysis';
import type { DataLevel } from '@loupe/contracts';
import { DatasetsRepository } from '../datasets/datasets.repository.js';
import { MetadataFieldsRepository } from '../datasets/metadata-fields.repository.js';
import { openDatabase, type Database } from '../db/database.js';
import { serveTasks } from '../platform/worker-thread.js';
import { ExploreRepository } from './explore.repository.js';
import { fieldDefs } from './field-catalogue.js';
import { loadItemTable } from './item-table-loader.js';
import type { TableBuildResult, TableBuildTask } from './table-builder.js';
import { snapshotFingerprint, TableSnapshots } from './table-snapshots.js';

let opened: { key: string; database: Database } | null = null;

/** One connection (or pool) per database configuration, kept between tasks. */
async function databaseFor(task: TableBuildTask): Promise<Database> {
  const key = JSON.stringify(task.database);
  if (opened?.key === key) return opened.database;
  await opened?.database.destroy();
  opened = { key, database: openDatabase(task.database) };
  return opened.database;
}

serveTasks<TableBuildTask, TableBuildResult>(async (task) => {
  const database = await databaseFor(task);
  const { db, dialect } = database;
  const repos = {
    datasets: new DatasetsRepository(db, dialect),
    metadataFields: new MetadataFieldsRepository(db),
    explore: new ExploreRepository(db),
  };
  const dataset = await repos.datasets.find(task.datasetId);
  if (!dataset) return null;
  const level = task.level as DataLevel;
  const stored = await repos.metadataFields.list(dataset.id, level);
  const built = await loadItemTable({
    repo: repos.explore,
    dataset,
    level,
    stored,
    predictionsId: task.predictionsId,
  });
  prepareSortIndexes(built.table);
  const fingerprint = snapshotFingerprint(
    dataset,
    fieldDefs(dataset, level, stored, task.predictionsId !== null),
    stored,
  );
  const written = await new TableSnapshots(task.snapshotDir).write(
    dataset.id,
    level,
    task.predictionsId,
    built,
    fingerprint,
  );
  return written ? { version: dataset.data_version, fingerprint } : null;
});
