// Kysely table types. Timestamps are integer milliseconds since the epoch; booleans are 0/1
// integers so SQLite and PostgreSQL store them alike.
import type { Generated } from 'kysely';
import type { MetadataType } from '@loupe/contracts';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  enabled: number;
  password_hash: string | null;
  auth_type: 'local' | 'oauth';
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  remember: number;
  created_at: number;
  expires_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  /** The sealed key, kept only for the 'Development' key the SDK dialog shows again; else ''. */
  key_ciphertext: string;
  created_at: number;
  /** Not secret: prefix and last characters, e.g. lp_…3f9a ('' for keys made before it existed). */
  hint: string;
  /** Updated at most once a minute. */
  last_used_at: number | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface DatasetsTable {
  id: string;
  name: string;
  description: string;
  task_type: string;
  class_names: string;
  value_names: string;
  label_map: string | null;
  /** 1 when class names were declared at creation: labels must then be among them. */
  closed_classes: number;
  iou_threshold: number;
  thumbnails_enabled: number;
  samples_count: number;
  objects_count: number;
  next_seq: number;
  /** Bumped with every write that changes items, metadata or predictions (explorer cache key). */
  data_version: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface SamplesTable {
  dataset_id: string;
  id: string;
  seq: number;
  media_type: 'image' | 'audio' | null;
  media: string | null;
  split: string | null;
  label: string | null;
  labels: string | null;
  values_json: string | null;
  transcript: string | null;
  mask: string | null;
  metadata: string | null;
  computed: string | null;
  thumbnail: string | null;
  processed: number;
  deleted: number;
  created_record_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ObjectsTable {
  dataset_id: string;
  id: string;
  sample_id: string;
  label: string;
  x: number | null;
  y: number | null;
  w: number | null;
  h: number | null;
  segmentation: string | null;
  iscrowd: number;
  deleted: number;
  computed: string | null;
  created_at: number;
  updated_at: number;
}

export interface MetadataFieldsTable {
  dataset_id: string;
  data_level: string;
  id: string;
  name: string;
  label: string;
  description: string;
  group_name: string;
  source: string;
  type: MetadataType;
  state: 'available' | 'pending';
  created_at: number;
}

export interface FeaturesTable {
  dataset_id: string;
  /** '' for a dataset's feature; else the prediction set whose own feature it is. */
  prediction_set_id: Generated<string>;
  data_level: string;
  name: string;
  dimension: number;
  source: 'uploaded' | 'computed';
  created_at: number;
  updated_at: number;
}

export interface FeatureVectorsTable {
  dataset_id: string;
  /** As features.prediction_set_id. */
  prediction_set_id: Generated<string>;
  data_level: string;
  feature_name: string;
  item_id: string;
  vector: Buffer;
}

export interface PredictionSetsTable {
  id: string;
  dataset_id: string;
  name: string;
  num_present: number;
  created_at: number;
  updated_at: number;
  /** Raised by every upload of the set's predictions (a process's cached columns of it go stale). */
  version: Generated<number>;
}

export interface PredictionsTable {
  prediction_set_id: string;
  sample_id: string;
  /** The sample's seq (it never changes): a set's predictions are read in upload order by it. */
  sample_seq: number;
  label: string | null;
  score: number | null;
  probabilities: string | null;
  values_json: string | null;
  transcript: string | null;
  mask: string | null;
  created_at: number;
  /** JSON of the mask's per-class intersection and union (mask-confusion.ts); NULL until computed. */
  mask_stats: string | null;
}

export interface PredictedObjectsTable {
  prediction_set_id: string;
  id: string;
  sample_id: string;
  label: string;
  score: number;
  x: number | null;
  y: number | null;
  w: number | null;
  h: number | null;
  segmentation: string | null;
}

export interface AttributionsTable {
  prediction_set_id: string;
  name: string;
  sample_id: string;
  heatmap: string;
}

export interface MediaBlobsTable {
  dataset_id: string;
  key: string;
  size: number;
  content_type: string;
  created_at: number;
}

export interface HistoryRecordsTable {
  id: string;
  dataset_id: string;
  operation_type: string;
  data_level: string;
  num_items: number;
  user_id: string | null;
  created_at: number;
  updated_at: number;
  /** The sample:restore record that undid this delete record. */
  restored_by: string | null;
}

/** An item a history record touched (every record but sample:create, which samples name). */
export interface HistoryItemsTable {
  record_id: string;
  item_id: string;
}

export interface SubsetsTable {
  id: string;
  dataset_id: string;
  name: string;
  description: string | null;
  data_level: string;
  enabled_for_performance: number;
  num_items: number;
  /** The position the next added item takes (items keep the order they were added in). */
  next_position: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  /** The metric its performance entry shows; null: the task's first slice metric. */
  performance_metric: string | null;
}

export interface SubsetItemsTable {
  subset_id: string;
  item_id: string;
  position: number;
}

export interface JobsTable {
  id: string;
  type: string;
  payload: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: number;
  max_attempts: number;
  run_after: number;
  locked_by: string | null;
  locked_until: number | null;
  dedupe_key: string | null;
  user_id: string | null;
  dataset_id: string | null;
  progress: number | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface EmbeddingSettingsTable {
  dataset_id: string;
  data_level: string;
  /** '' when no prediction set. */
  predictions_id: string;
  feature_name: string;
  /** JSON of the DimensionalityReductionSetting. */
  setting: string;
  updated_at: number;
}

export interface EmbeddingsTable {
  dataset_id: string;
  /** '' for a dataset's feature; else the prediction set whose own feature it lays out. */
  prediction_set_id: Generated<string>;
  data_level: string;
  feature_name: string;
  /** The method and its parameters, e.g. 'UMAP:15', 'TSNE:30', 'PCA'. */
  method_key: string;
  status: 'computing' | 'ready' | 'failed';
  source_version: number;
  job_key: string | null;
  error: string | null;
  input_hash: string | null;
  num_points: number;
  /** JSON array of item ids, in point order. */
  item_ids: Buffer | null;
  /** float32 x, y per point. */
  coords: Buffer | null;
  updated_at: number;
}

/** A job-computed performance result of a prediction set, with what it was computed from. */
export interface PerformanceResultsTable {
  prediction_set_id: string;
  /** 'report', 'finegrained' or 'subset:<subset id>'. */
  kind: string;
  data_version: number;
  iou_threshold: number;
  /** The subset's updated_at for a subset entry; 0 otherwise. */
  subset_version: number;
  status: 'computing' | 'ready' | 'failed';
  progress: number;
  /** JSON of the result. */
  result: string | null;
  error: string | null;
  updated_at: number;
}

/** A job-computed comparison of two prediction sets, with what it was computed from. */
export interface ComparisonResultsTable {
  prediction_set_a: string;
  prediction_set_b: string;
  /** JSON of [split, metric, regression value name or null]. */
  key: string;
  data_version: number;
  iou_threshold: number;
  status: 'computing' | 'ready' | 'failed';
  progress: number;
  /** JSON of the result. */
  result: string | null;
  error: string | null;
  updated_at: number;
}

/** The user's state of a dataset's health check: a custom check, or a default one's params and flag. */
export interface HealthChecksTable {
  dataset_id: string;
  id: string;
  key: string;
  level: string;
  type: 'default' | 'custom';
  name: string | null;
  /** JSON of the user's param values by name. */
  params: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** A health check's stored result per prediction set ('' for data checks). */
export interface HealthCheckResultsTable {
  dataset_id: string;
  check_id: string;
  prediction_set_id: Generated<string>;
  fingerprint: string;
  data_version: number;
  params_hash: string;
  status: 'failed' | 'passed' | 'error' | 'missing';
  /** zlib-compressed JSON of the outcome, the missing requirements or the error message. */
  outcome: Buffer;
  computed_at: number;
  /** Milliseconds the check's run took (0 when kept or not run). */
  duration_ms: Generated<number>;
}

export interface HealthCheckIgnoredTable {
  dataset_id: string;
  check_id: string;
  prediction_set_id: Generated<string>;
  item_id: string;
}

/** Bumped whenever a dataset's check results or ignored items change. */
export interface HealthCheckStateTable {
  dataset_id: string;
  version: number;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  password_reset_tokens: PasswordResetTokensTable;
  settings: SettingsTable;
  datasets: DatasetsTable;
  samples: SamplesTable;
  objects: ObjectsTable;
  metadata_fields: MetadataFieldsTable;
  features: FeaturesTable;
  feature_vectors: FeatureVectorsTable;
  prediction_sets: PredictionSetsTable;
  predictions: PredictionsTable;
  predicted_objects: PredictedObjectsTable;
  attributions: AttributionsTable;
  media_blobs: MediaBlobsTable;
  history_records: HistoryRecordsTable;
  history_items: HistoryItemsTable;
  subsets: SubsetsTable;
  subset_items: SubsetItemsTable;
  jobs: JobsTable;
  embedding_settings: EmbeddingSettingsTable;
  embeddings: EmbeddingsTable;
  performance_results: PerformanceResultsTable;
  comparison_results: ComparisonResultsTable;
  health_checks: HealthChecksTable;
  health_check_results: HealthCheckResultsTable;
  health_check_ignored: HealthCheckIgnoredTable;
  health_check_state: HealthCheckStateTable;
}
