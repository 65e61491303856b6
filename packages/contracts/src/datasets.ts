// Datasets, samples, objects, metadata, features, prediction sets and attributions as they
// travel between SDKs, server and web app (docs/product.md, Datasets §3, docs/product.md words).
import { z } from 'zod';
import { boundedArray, boundedRecord } from './bounded.js';
import {
  MAX_ATTRIBUTIONS_PER_REQUEST,
  MAX_FEATURE_IDS_PER_REQUEST,
  MAX_FEATURE_VECTORS_PER_REQUEST,
  MAX_MISSING_MEDIA_KEYS,
  MAX_ROWS_PER_REQUEST,
} from './upload-protocol.js';

export const TaskType = z
  .enum([
    'classification',
    'regression',
    'object_detection',
    'instance_segmentation',
    'semantic_segmentation',
    'audio_classification',
    'automatic_speech_recognition',
  ])
  .meta({ id: 'TaskType' });
export type TaskType = z.infer<typeof TaskType>;

export const DataLevel = z.enum(['image', 'image_object', 'audio']).meta({ id: 'DataLevel' });
export type DataLevel = z.infer<typeof DataLevel>;

/** Ids are the uploader's own: any non-empty string up to 1,000 characters without control characters. */
export const ItemId = z
  .string()
  .min(1, 'must not be empty')
  .max(1000, 'must be at most 1000 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters');
export type ItemId = z.infer<typeof ItemId>;

export const DatasetName = z
  .string()
  .trim()
  .min(1, { message: 'Name is required.', abort: true })
  .max(200, 'Name must be at most 200 characters long.');
export type DatasetName = z.infer<typeof DatasetName>;

export const CreateDatasetRequest = z
  .object({
    name: DatasetName,
    task_type: TaskType,
    description: z.string().max(10_000).default(''),
    class_names: boundedArray(z.string().min(1).max(200), 10_000).optional(),
    value_names: boundedArray(z.string().min(1).max(200), 1_000).optional(),
    /** Semantic segmentation: mask pixel value → class name. */
    label_map: boundedRecord(z.string().regex(/^\d+$/), z.string(), 10_000).optional(),
    exist_ok: z
      .boolean()
      .default(false)
      .describe('Answer the existing dataset of that name and task instead of a 409'),
  })
  .meta({ id: 'CreateDatasetRequest' });
export type CreateDatasetRequest = z.input<typeof CreateDatasetRequest>;

export const DatasetView = z.object({ id: z.string(), name: z.string() });
export type DatasetView = z.infer<typeof DatasetView>;

export const Dataset = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    task_type: TaskType,
    issues_count: z.number(),
    samples_count: z.number().optional(),
    views: z.array(DatasetView),
    regression_value_names: z.array(z.string()).optional(),
    class_names: z.array(z.string()),
    label_map: z.record(z.string(), z.string()).optional(),
    classes_count: z.number(),
    objects_count: z.number(),
    predictions_count: z.number(),
    updated_ts: z.number().describe('Seconds since the epoch'),
    preview_urls: z
      .array(z.string())
      .describe("Thumbnail URLs of the dataset's first samples that have one, for its card"),
    splits: z.array(z.string()),
    min_duration: z.number().optional(),
    max_duration: z.number().optional(),
    default_duration: z.number().optional(),
    iou_threshold: z.number(),
    thumbnails_enabled: z.boolean(),
  })
  .meta({ id: 'Dataset' });
export type Dataset = z.infer<typeof Dataset>;

export const DatasetList = z.array(Dataset);
export type DatasetList = z.infer<typeof DatasetList>;

export const DatasetIdParams = z.object({ id: z.uuid('id must be a dataset id (UUID)') });
export type DatasetIdParams = z.input<typeof DatasetIdParams>;
export const DatasetIdQuery = z.object({
  dataset_id: z.uuid('dataset_id must be a dataset id (UUID)'),
});
export type DatasetIdQuery = z.input<typeof DatasetIdQuery>;

/**
 * Media: `blob:<sha256>` for bytes uploaded with POST /api/datasets/{id}/media, an http(s) URL,
 * or a path the server may read (see LOUPE_MEDIA_ROOTS).
 */
export const MediaRef = z.string().min(1, 'must not be empty').max(4096);
export type MediaRef = z.infer<typeof MediaRef>;

export const Bbox = z
  .tuple([z.number(), z.number(), z.number().nonnegative(), z.number().nonnegative()])
  .describe('[x, y, width, height] in pixels, COCO style');
export type Bbox = z.infer<typeof Bbox>;

export const Rle = z.object({
  size: z
    .tuple([z.number().int().positive(), z.number().int().positive()])
    .describe('[height, width]'),
  counts: z.union([z.string(), boundedArray(z.number().int().nonnegative(), 10_000_000)]),
});
export type Rle = z.infer<typeof Rle>;

export const Segmentation = z.union([
  boundedArray(boundedArray(z.number(), 1_000_000).min(6), 10_000).min(1),
  Rle,
]);
export type Segmentation = z.infer<typeof Segmentation>;

export const ObjectInput = z.object({
  id: ItemId.optional().describe(
    'Unique within the sample; the stored id is "{sample id}#{id}" (default "{sample id}#{index}")',
  ),
  label: z.string().min(1).max(200),
  bbox: Bbox.optional(),
  segmentation: Segmentation.optional(),
  iscrowd: z.boolean().optional(),
});
export type ObjectInput = z.infer<typeof ObjectInput>;

/** Metadata fields one item may carry in an upload. */
export const MAX_METADATA_FIELDS = 1_000;

export const MetadataValue = z.union([z.number(), z.string().max(10_000), z.boolean(), z.null()]);
export type MetadataValue = z.infer<typeof MetadataValue>;

export const SampleInput = z.object({
  id: ItemId,
  image: MediaRef.optional(),
  audio: MediaRef.optional(),
  split: z.string().min(1).max(100).optional(),
  label: z.string().min(1).max(200).optional(),
  labels: boundedArray(z.string().min(1).max(200), 10_000).optional(),
  values: z
    .union([boundedRecord(z.string(), z.number(), 1_000), boundedArray(z.number(), 1_000)])
    .optional(),
  objects: boundedArray(ObjectInput, 10_000).optional(),
  mask: MediaRef.optional().describe('Semantic segmentation label map (PNG)'),
  transcript: z.string().max(100_000).optional(),
  metadata: boundedRecord(
    z.string().min(1).max(200),
    MetadataValue,
    MAX_METADATA_FIELDS,
    `at most ${MAX_METADATA_FIELDS.toLocaleString('en-US')} metadata fields per item`,
  ).optional(),
});
export type SampleInput = z.infer<typeof SampleInput>;

/** The type of a metadata field (docs/product.md, Datasets §3). */
export const MetadataType = z.enum(['numeric', 'string', 'boolean', 'timestamp']);
export type MetadataType = z.infer<typeof MetadataType>;

/** Declared types of custom metadata fields; undeclared ones are inferred from their values. */
export const UploadMetadataTypes = boundedRecord(
  z.string(),
  MetadataType,
  MAX_METADATA_FIELDS,
).default({});
export type UploadMetadataTypes = z.input<typeof UploadMetadataTypes>;

/** The body of POST /api/datasets/{id}/samples; each row is checked by the service (upload-rows). */
export const UploadSamplesRequest = z
  .object({
    samples: boundedArray(
      z.unknown(),
      MAX_ROWS_PER_REQUEST,
      'send at most 20,000 samples per batch',
    ).min(1, 'samples must not be empty'),
    metadata_types: UploadMetadataTypes,
  })
  .meta({ id: 'UploadSamplesRequest' });
export type UploadSamplesRequest = z.input<typeof UploadSamplesRequest>;

export const RowError = z.object({
  row: z.number().int().describe('0-based index in the batch'),
  id: z.string().optional(),
  field: z.string(),
  message: z.string(),
});
export type RowError = z.infer<typeof RowError>;

export const UploadResult = z
  .object({
    created: z.number(),
    updated: z.number(),
    unchanged: z.number(),
  })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof UploadResult>;

/** 400 answer of a batch with bad rows: nothing was written. */
export const BatchErrorBody = z
  .object({
    description: z.string(),
    retriable: z.boolean(),
    errors: z.array(RowError).optional().describe('Each bad row and field (at most 1,000)'),
  })
  .meta({ id: 'BatchErrorBody' });
export type BatchErrorBody = z.infer<typeof BatchErrorBody>;

export const MediaUploadResult = z
  .object({ key: z.string(), size: z.number() })
  .meta({ id: 'MediaUploadResult' });
export type MediaUploadResult = z.infer<typeof MediaUploadResult>;
export const MissingMediaRequest = z.object({
  keys: boundedArray(z.string().max(4096), MAX_MISSING_MEDIA_KEYS),
});
export type MissingMediaRequest = z.input<typeof MissingMediaRequest>;
export const MissingMediaResult = z.object({ missing: z.array(z.string()) });
export type MissingMediaResult = z.infer<typeof MissingMediaResult>;

/** A media file by the sha256 of its bytes. */
export const MediaParams = DatasetIdParams.extend({
  sha: z.string().regex(/^[0-9a-f]{64}$/, 'sha must be a sha256 hex digest'),
});
export type MediaParams = z.input<typeof MediaParams>;
/** A thumbnail by its key (thumbnail URLs come in items and dataset cards). */
export const ThumbnailParams = DatasetIdParams.extend({
  base: z.string().regex(/^[0-9a-f]{40}$/, 'base must be a thumbnail key'),
});
export type ThumbnailParams = z.input<typeof ThumbnailParams>;
export const ThumbnailQuery = z.object({ size: z.enum(['grid']).default('grid') });
export type ThumbnailQuery = z.input<typeof ThumbnailQuery>;
export const SampleMediaQuery = z.object({ sample_id: z.string().min(1) });
export type SampleMediaQuery = z.input<typeof SampleMediaQuery>;

export const FeatureUploadRequest = z
  .object({
    name: z.string().trim().min(1).max(200),
    data_level: DataLevel,
    /** Either vectors as JSON … */
    vectors: boundedRecord(
      z.string(),
      boundedArray(z.number(), 65_536),
      MAX_FEATURE_VECTORS_PER_REQUEST,
    ).optional(),
    /** … or ids plus base64 of little-endian float32 rows, ids.length × dimension values. */
    ids: boundedArray(z.string(), MAX_FEATURE_IDS_PER_REQUEST).optional(),
    data: z.string().optional(),
    dimension: z.number().int().positive().max(65_536).optional(),
  })
  .meta({ id: 'FeatureUploadRequest' });
export type FeatureUploadRequest = z.input<typeof FeatureUploadRequest>;

export const FeatureInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.literal('float32'),
    group: z.string(),
    data_level: DataLevel,
    num_present: z.number(),
    num_missing: z.number(),
    size: z.number().describe('Vector length'),
    associated_features: z.array(z.string()),
  })
  .meta({ id: 'FeatureInfo' });
export type FeatureInfo = z.infer<typeof FeatureInfo>;
export const FeatureInfoList = z.array(FeatureInfo);
export type FeatureInfoList = z.infer<typeof FeatureInfoList>;

export const PredictionSet = z
  .object({
    id: z.string(),
    name: z.string(),
    added_at: z.number().describe('Milliseconds since the epoch'),
    num_missing: z.number(),
    num_present: z.number(),
    dataset: z.object({ id: z.string(), name: z.string(), task_type: TaskType }),
  })
  .meta({ id: 'PredictionSet' });
export type PredictionSet = z.infer<typeof PredictionSet>;
export const PredictionSetList = z.array(PredictionSet);
export type PredictionSetList = z.infer<typeof PredictionSetList>;

export const CreatePredictionSetRequest = z
  .object({ name: z.string().trim().min(1).max(200), exist_ok: z.boolean().default(false) })
  .meta({ id: 'CreatePredictionSetRequest' });
export type CreatePredictionSetRequest = z.input<typeof CreatePredictionSetRequest>;

export const PredictedObjectInput = ObjectInput.extend({ score: z.number().min(0).max(1) });
export type PredictedObjectInput = z.infer<typeof PredictedObjectInput>;

export const PredictionInput = z.object({
  id: ItemId.describe('The sample id this prediction is for'),
  label: z.string().min(1).max(200).optional(),
  score: z.number().min(0).max(1).optional(),
  probabilities: z
    .union([
      boundedArray(z.number().min(0).max(1), 10_000),
      boundedRecord(z.string(), z.number().min(0).max(1), 10_000),
    ])
    .optional(),
  values: z
    .union([boundedRecord(z.string(), z.number(), 1_000), boundedArray(z.number(), 1_000)])
    .optional(),
  objects: boundedArray(PredictedObjectInput, 10_000).optional(),
  mask: MediaRef.optional(),
  transcript: z.string().max(100_000).optional(),
});
export type PredictionInput = z.infer<typeof PredictionInput>;

export const UploadPredictionsRequest = z
  .object({
    predictions: boundedArray(z.unknown(), MAX_ROWS_PER_REQUEST).min(
      1,
      'predictions must not be empty',
    ),
  })
  .meta({ id: 'UploadPredictionsRequest' });
export type UploadPredictionsRequest = z.input<typeof UploadPredictionsRequest>;

export const AttributionInput = z.object({
  id: ItemId,
  heatmap: z
    .union([MediaRef, boundedArray(boundedArray(z.number(), 10_000), 10_000)])
    .describe('An image, or rows of numbers'),
});
export type AttributionInput = z.infer<typeof AttributionInput>;
export const UploadAttributionsRequest = z
  .object({
    name: z.string().trim().min(1).max(200).default('attribution'),
    attributions: boundedArray(z.unknown(), MAX_ATTRIBUTIONS_PER_REQUEST).min(1),
  })
  .meta({ id: 'UploadAttributionsRequest' });
export type UploadAttributionsRequest = z.input<typeof UploadAttributionsRequest>;
export const UploadAttributionsResult = z.object({ uploaded: z.number() });
export type UploadAttributionsResult = z.infer<typeof UploadAttributionsResult>;

export const PredictionSetParams = z.object({
  id: z.uuid('id must be a dataset id (UUID)'),
  predictionSetId: z.uuid('predictionSetId must be a prediction set id (UUID)'),
});
export type PredictionSetParams = z.input<typeof PredictionSetParams>;

export const HistoryOperation = z.enum([
  'sample:create',
  'sample:delete',
  'object:delete',
  'object:create',
  'object.label:edit',
  'object.shape:edit',
  'sample.label:edit',
  'sample.split:edit',
  'sample:restore',
]);
export type HistoryOperation = z.infer<typeof HistoryOperation>;
export const HistoryRecord = z
  .object({
    id: z.string(),
    timestamp: z.number().describe('Milliseconds since the epoch'),
    num_items: z.number(),
    data_level: DataLevel,
    operation_type: HistoryOperation,
    user_name: z.string(),
    restorable: z
      .boolean()
      .describe('A delete record whose items are still deleted: it can be restored'),
    restored_by: z
      .string()
      .nullable()
      .describe('The sample:restore record that undid this delete record, if any'),
    items_deleted: z
      .boolean()
      .describe("The record's items are deleted now (the history filter cannot select them)"),
  })
  .meta({ id: 'HistoryRecord' });
export type HistoryRecord = z.infer<typeof HistoryRecord>;
export const HistoryRecordList = z.array(HistoryRecord);
export type HistoryRecordList = z.infer<typeof HistoryRecordList>;

export const ThumbnailConfig = z.object({ enabled: z.boolean() }).meta({ id: 'ThumbnailConfig' });
export type ThumbnailConfig = z.infer<typeof ThumbnailConfig>;
export const IouThreshold = z
  .object({
    iou_threshold: z
      .number()
      .min(0, 'iou_threshold must be between 0 and 1')
      .max(1, 'iou_threshold must be between 0 and 1'),
  })
  .meta({ id: 'IouThreshold' });
export type IouThreshold = z.infer<typeof IouThreshold>;
