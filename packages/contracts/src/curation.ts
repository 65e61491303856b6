// Curation on the wire (docs/curation.md): subsets, the item actions that pending changes apply,
// restoring a deletion from the version history, and exports of a subset or a selection.
import { z } from 'zod';
import { boundedArray, boundedRecord } from './bounded.js';
import { DataLevel, DatasetIdParams, HistoryRecord } from './datasets.js';

/** Item ids one subset call or one action may name (a relabel of 100,000 samples fits). */
export const MAX_CURATION_ITEMS = 1_000_000;
/** Names a subset may not take (they mean "no subset" and "several" in selectors). */
export const RESERVED_SUBSET_NAMES = ['NONE', 'MULTIPLE'] as const;

export const SUBSET_MESSAGES = {
  nameRequired: 'Subset name is required.',
  nameReserved: (name: string) => `Subset name can't be '${name}'.`,
  nameTaken: 'Subset with that name already exists.',
  levelMismatch: 'Data-level mismatch.',
  levelFixed: 'Subset data level cannot be changed.',
  notFound: 'Subset not found',
} as const;

const ItemIds = boundedArray(z.string().min(1).max(1100), MAX_CURATION_ITEMS);
const SubsetName = z.string().trim().max(200, 'Subset names have at most 200 characters');

export const Subset = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    dataset_id: z.string(),
    data_level: DataLevel,
    num_items: z.number().int(),
    enabled_for_performance: z.boolean(),
    created: z.number().describe('Milliseconds since the epoch'),
    updated: z.number().describe('Milliseconds since the epoch'),
  })
  .meta({ id: 'Subset' });
export type Subset = z.infer<typeof Subset>;
export const SubsetList = z.array(Subset);
export type SubsetList = z.infer<typeof SubsetList>;

/** One subset with its items (`sample_ids` holds item ids of the subset's data level). */
export const SubsetDetail = Subset.extend({
  sample_ids: z.array(z.string()).describe("The subset's item ids, in the order they were added"),
}).meta({ id: 'SubsetDetail' });
export type SubsetDetail = z.infer<typeof SubsetDetail>;

export const SubsetParams = DatasetIdParams.extend({
  subsetId: z.uuid('subsetId must be a subset id (UUID)'),
});
export type SubsetParams = z.input<typeof SubsetParams>;

export const CreateSubsetRequest = z
  .object({
    name: SubsetName,
    description: z.string().max(2000).nullable().optional(),
    data_level: DataLevel,
    item_ids: ItemIds.default([]),
    enabled_for_performance: z.boolean().default(false),
  })
  .meta({ id: 'CreateSubsetRequest' });
export type CreateSubsetRequest = z.input<typeof CreateSubsetRequest>;

/**
 * Changes to one subset: items added and removed (a move is an add here and a remove there),
 * and its name, description and performance toggle. Absent fields stay as they are.
 */
export const UpdateSubsetRequest = z
  .object({
    added_item_ids: ItemIds.default([]),
    removed_item_ids: ItemIds.default([]),
    name: SubsetName.optional(),
    description: z.string().max(2000).nullable().optional(),
    enabled_for_performance: z.boolean().optional(),
  })
  .meta({ id: 'UpdateSubsetRequest' });
export type UpdateSubsetRequest = z.input<typeof UpdateSubsetRequest>;

// ---- item actions (the pending-changes queue applies them)

const CheckId = z.string().max(100).optional();
/** New value → the item ids that take it. */
const Updates = boundedRecord(z.string().trim().min(1).max(200), ItemIds, 10_000);

export const UpdateLabelAction = z.object({
  type: z.literal('update_label'),
  dataset_id: z.uuid('dataset_id must be a dataset id (UUID)'),
  updates: Updates.describe('Label → ids of samples (classification) or objects (detection)'),
  check_id: CheckId,
});
export const UpdateSplitAction = z.object({
  type: z.literal('update_split'),
  dataset_id: z.uuid('dataset_id must be a dataset id (UUID)'),
  updates: Updates.describe('Split → sample ids; a split that does not exist yet is created'),
  check_id: CheckId,
});
export const PromotePredictionsAction = z.object({
  type: z.literal('add_predicted_objects_to_ground_truth'),
  predictions_id: z.uuid('predictions_id must be a prediction set id (UUID)'),
  item_ids: ItemIds.min(1).describe('Predicted object ids (as the explorer names them)'),
  check_id: CheckId,
});
export const DeleteItemsAction = z.object({
  type: z.literal('delete_items'),
  dataset_id: z.uuid('dataset_id must be a dataset id (UUID)'),
  item_ids: ItemIds.min(1).describe('Sample ids or ground-truth object ids (one kind a request)'),
  check_id: CheckId,
});
export const CheckIgnoreItemsAction = z.object({
  type: z.literal('check_ignore_items'),
  dataset_id: z.uuid('dataset_id must be a dataset id (UUID)'),
  predictions_id: z.uuid('predictions_id must be a prediction set id (UUID)').optional(),
  check_id: z.string().min(1).max(100),
  ignore: z.boolean(),
  item_ids: ItemIds.min(1),
});

export const ItemAction = z
  .discriminatedUnion('type', [
    UpdateLabelAction,
    UpdateSplitAction,
    PromotePredictionsAction,
    DeleteItemsAction,
    CheckIgnoreItemsAction,
  ])
  .meta({ id: 'ItemAction' });
export type ItemAction = z.input<typeof ItemAction>;

/**
 * One request applies its actions in one transaction: all of them or none. Sample actions and
 * object actions travel in separate requests.
 */
export const ApplyActionsRequest = z
  .object({ actions: boundedArray(ItemAction, 100).min(1, 'Give at least one action') })
  .meta({ id: 'ApplyActionsRequest' });
export type ApplyActionsRequest = z.input<typeof ApplyActionsRequest>;

export const AppliedAction = z.object({
  type: z.string(),
  data_level: DataLevel,
  item_ids: z.array(z.string()).describe('The items this action changed (unchanged ones left out)'),
  history_record_id: z.string().nullable(),
});
export const ApplyActionsResponse = z
  .object({
    dataset_id: z.string(),
    results: z.array(AppliedAction),
    history: z.array(HistoryRecord).describe('The history records this request wrote'),
  })
  .meta({ id: 'ApplyActionsResponse' });
export type ApplyActionsResponse = z.infer<typeof ApplyActionsResponse>;

export const HistoryRecordParams = DatasetIdParams.extend({
  recordId: z.uuid('recordId must be a history record id (UUID)'),
});
export type HistoryRecordParams = z.input<typeof HistoryRecordParams>;

export const RestoreResponse = z
  .object({
    record: HistoryRecord.describe('The sample:restore (or object restore) record written'),
    restored: z.number().int(),
  })
  .meta({ id: 'RestoreResponse' });
export type RestoreResponse = z.infer<typeof RestoreResponse>;

// ---- export

export const ExportFormat = z.enum(['coco', 'csv']).meta({ id: 'ExportFormat' });
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportSubsetQuery = z.object({
  format: ExportFormat,
  predictions_id: z
    .uuid('predictions_id must be a prediction set id (UUID)')
    .optional()
    .describe("Also export this prediction set's predictions (a COCO results file or a CSV)"),
});
export type ExportSubsetQuery = z.input<typeof ExportSubsetQuery>;

export const ExportSelectionRequest = z
  .object({
    format: ExportFormat,
    data_level: DataLevel,
    item_ids: ItemIds.min(1),
    name: z.string().trim().min(1).max(200).default('selection'),
    predictions_id: z.uuid('predictions_id must be a prediction set id (UUID)').optional(),
  })
  .meta({ id: 'ExportSelectionRequest' });
export type ExportSelectionRequest = z.input<typeof ExportSelectionRequest>;
