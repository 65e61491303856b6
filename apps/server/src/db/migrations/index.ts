// Every migration, by its timestamped file name. Imported statically so the same list works in
// the built server and in tests; migrations.test.ts fails when a file is missing here.
import type { Migration } from 'kysely';
import * as accounts from './20261122120000_accounts.js';
import * as datasets from './20261122130000_datasets.js';
import * as dataVersion from './20261123100000_data_version.js';
import * as embeddings from './20261123110000_embeddings.js';
import * as datasetSummaryIndexes from './20261123120000_dataset_summary_indexes.js';
import * as unprocessedIndex from './20261123130000_unprocessed_index.js';
import * as apiKeyManagement from './20261124090000_api_key_management.js';
import * as curation from './20261126090000_curation.js';
import * as performance from './20261127090000_performance.js';
import * as predictionFeatures from './20261127100000_prediction_features.js';
import * as editRoom from './20261127120000_edit_room.js';
import * as maskStats from './20261127130000_mask_stats.js';
import * as comparison from './20261128090000_comparison.js';
import * as healthChecks from './20261129090000_health_checks.js';
import * as modelEmbeddings from './20261130090000_model_embeddings.js';
import * as hotDeletes from './20261130120000_hot_deletes.js';
import * as predictionSetVersion from './20261201090000_prediction_set_version.js';
import * as predictionSampleSeq from './20261204090000_prediction_sample_seq.js';

export const migrations: Record<string, Migration> = {
  '20261122120000_accounts': accounts,
  '20261122130000_datasets': datasets,
  '20261123100000_data_version': dataVersion,
  '20261123110000_embeddings': embeddings,
  '20261123120000_dataset_summary_indexes': datasetSummaryIndexes,
  '20261123130000_unprocessed_index': unprocessedIndex,
  '20261124090000_api_key_management': apiKeyManagement,
  '20261126090000_curation': curation,
  '20261127090000_performance': performance,
  '20261127100000_prediction_features': predictionFeatures,
  '20261127120000_edit_room': editRoom,
  '20261127130000_mask_stats': maskStats,
  '20261128090000_comparison': comparison,
  '20261129090000_health_checks': healthChecks,
  '20261130090000_model_embeddings': modelEmbeddings,
  '20261130120000_hot_deletes': hotDeletes,
  '20261201090000_prediction_set_version': predictionSetVersion,
  '20261204090000_prediction_sample_seq': predictionSampleSeq,
};
