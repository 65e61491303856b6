// Data health checks on the wire (docs/health-checks.md): the checks of a dataset (and of one of
// its prediction sets where a check needs one) with their typed params, status and checked-items
// summary; a check's evaluation (evidence and recommendation); creating, configuring, enabling and
// deleting checks; and the texts of the health-check pages.
import { z } from 'zod';
import { boundedArray } from './bounded.js';
import { DataLevel } from './datasets.js';
import { Filter } from './explore.js';

/** Groups in the list's order (docs/health-checks.md, "List order"). */
export const CHECK_GROUPS = [
  'Data Leakage & Duplicates',
  'Label Quality',
  'Outliers',
  'Image Quality',
  'Audio Quality',
  'Class Balance',
  'Custom Checks',
] as const;
export const CheckGroup = z.enum(CHECK_GROUPS).meta({ id: 'CheckGroup' });
export type CheckGroup = z.infer<typeof CheckGroup>;

/** Statuses in the list's order within a group. */
export const CHECK_STATUSES = [
  'failed_check',
  'passed_check',
  'pending_check',
  'missing_req_check',
  'failed_to_compute_check',
  'disabled_check',
] as const;
export const CheckStatusType = z.enum(CHECK_STATUSES).meta({ id: 'CheckStatusType' });
export type CheckStatusType = z.infer<typeof CheckStatusType>;

export const CHECK_STATUS_LABELS: Readonly<Record<CheckStatusType, string>> = {
  failed_check: 'Failed',
  passed_check: 'Passed',
  disabled_check: 'Disabled',
  pending_check: 'Computing',
  missing_req_check: 'Missing Requirements',
  failed_to_compute_check: 'Error',
};

/** The list polls every 3 s and a single check every 5 s while any is pending. */
export const CHECK_LIST_POLL_MS = 3000;
export const CHECK_POLL_MS = 5000;
/** A group with more than this many checks shows CHECK_GROUP_COLLAPSED_COUNT and 'Show N More'. */
export const CHECK_GROUP_COLLAPSE_OVER = 6;
export const CHECK_GROUP_COLLAPSED_COUNT = 3;

/** The keys of the checks a user creates (custom checks). */
export const CUSTOM_CHECK_KEYS = ['data_check_from_filter'] as const;

// ---- Params --------------------------------------------------------------------------------

const ParamBase = { label: z.string(), description: z.string().optional() };
export const BooleanParam = z.object({
  ...ParamBase,
  type: z.literal('boolean'),
  value: z.boolean(),
});
export const FloatParam = z.object({
  ...ParamBase,
  type: z.literal('float'),
  value: z.number(),
  min: z.number().optional(),
  max: z.number().optional(),
});
export const IntParam = z.object({
  ...ParamBase,
  type: z.literal('int'),
  value: z.number().int(),
  min: z.number().int(),
  max: z.number().int(),
});
export const CheckNameParam = z.object({
  ...ParamBase,
  type: z.literal('check_name'),
  value: z.string(),
});
export const CategoricalParam = z.object({
  ...ParamBase,
  type: z.literal('categorical'),
  /** The chosen categories, or 'all'. */
  value: z.union([z.array(z.string()), z.literal('all')]),
  categories: z.array(z.string()),
  /** One category only (a select, not a multi-select). */
  single: z.boolean().optional(),
});
export const NumericalChangeParam = z.object({
  ...ParamBase,
  type: z.literal('numerical_change'),
  value: z.number(),
  mode: z.enum(['absolute', 'relative']),
});
export const FilterParam = z.object({
  ...ParamBase,
  type: z.literal('filter'),
  data_level: DataLevel,
  include_missing: z.boolean(),
  filter: Filter.nullable(),
  allowed_data_levels: z.array(DataLevel),
});
export const CheckParam = z
  .discriminatedUnion('type', [
    BooleanParam,
    FloatParam,
    IntParam,
    CheckNameParam,
    CategoricalParam,
    NumericalChangeParam,
    FilterParam,
  ])
  .meta({ id: 'CheckParam' });
export type CheckParam = z.infer<typeof CheckParam>;
export type CheckParams = Record<string, CheckParam>;

/** A param's new value when configuring: the value only (its kind is the check's). */
export const CheckParamValue = z.union([
  z.boolean(),
  z.number(),
  z.string().max(200),
  boundedArray(z.string().max(200), 1000),
  z.literal('all'),
  z.object({
    filter: Filter.nullable(),
    include_missing: z.boolean(),
    data_level: DataLevel,
  }),
]);
export type CheckParamValue = z.infer<typeof CheckParamValue>;

// ---- Status ---------------------------------------------------------------------------------

export const CheckedItemsSummary = z
  .object({
    data_level: DataLevel,
    predictions_id: z.string().nullable(),
    num_items_failed: z.number().int(),
    num_items_checked: z.number().int(),
    num_items_ignored: z.number().int(),
    num_items_total: z.number().int(),
  })
  .meta({ id: 'CheckedItemsSummary' });
export type CheckedItemsSummary = z.infer<typeof CheckedItemsSummary>;

export const MissingRequirement = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('predictions'), data_level: DataLevel, message: z.string() }),
    z.object({
      kind: z.literal('feature'),
      data_level: DataLevel,
      name: z.string(),
      feature_type: z.string(),
      message: z.string(),
    }),
    z.object({
      kind: z.literal('metadata'),
      data_level: DataLevel,
      name: z.string(),
      message: z.string(),
    }),
  ])
  .meta({ id: 'MissingRequirement' });
export type MissingRequirement = z.infer<typeof MissingRequirement>;

export const CheckStatus = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('failed_check'),
      is_approximate: z.boolean(),
      checked_items_summary: CheckedItemsSummary.nullable(),
      /** One sentence: what was found ('12 groups of duplicates (31 items)'). */
      evidence_summary: z.string(),
      preview: z.object({ message: z.string() }).optional(),
      computed_at: z.number(),
    }),
    z.object({
      type: z.literal('passed_check'),
      is_approximate: z.boolean(),
      checked_items_summary: CheckedItemsSummary.nullable(),
      computed_at: z.number(),
    }),
    z.object({ type: z.literal('disabled_check') }),
    z.object({ type: z.literal('pending_check') }),
    z.object({
      type: z.literal('missing_req_check'),
      requirements: z.array(MissingRequirement),
    }),
    z.object({ type: z.literal('failed_to_compute_check'), message: z.string() }),
  ])
  .meta({ id: 'CheckStatus' });
export type CheckStatus = z.infer<typeof CheckStatus>;

/** A per-item field a check adds to the explorer (filter, sort, colour). */
export const CheckField = z.object({
  id: z.string(),
  label: z.string(),
  type: z.enum(['boolean', 'numeric', 'string']),
});
export type CheckField = z.infer<typeof CheckField>;

export const HealthCheckOverview = z
  .object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    group: CheckGroup,
    description: z.array(z.string()),
    type: z.enum(['default', 'custom']),
    data_level: DataLevel,
    /** Whether the check reads a prediction set (it is then computed per prediction set). */
    needs_predictions: z.boolean(),
    config: z.object({ description: z.string(), params: z.record(z.string(), CheckParam) }),
    status: CheckStatus,
    /** The per-item fields of the check in the explorer: `checks.<id>.failed`, … */
    fields: z.array(CheckField),
  })
  .meta({ id: 'HealthCheckOverview' });
export type HealthCheckOverview = z.infer<typeof HealthCheckOverview>;

/** The per-item fields every check adds (docs/health-checks.md, "In the explorer"). */
export function checkFieldId(checkId: string, name: string): string {
  return `checks.${checkId}.${name}`;
}
export const checkFailedField = (checkId: string) => checkFieldId(checkId, 'failed');
export const checkIgnoredField = (checkId: string) => checkFieldId(checkId, 'ignored');

// ---- Evaluation -----------------------------------------------------------------------------

export const ItemsPreviewConfig = z.object({
  data_level: DataLevel,
  filter: Filter,
  sort_by: z
    .array(z.object({ name: z.string(), direction: z.enum(['ascending', 'descending']) }))
    .max(4),
  visible_metadata_ids: z.array(z.string()),
});
export type ItemsPreviewConfig = z.infer<typeof ItemsPreviewConfig>;

export const Evidence = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('items'),
      title: z.string(),
      items_preview_config: ItemsPreviewConfig,
      num_items: z.number().int(),
    }),
    z.object({ type: z.literal('text'), title: z.string().optional(), value: z.string() }),
    z.object({
      type: z.literal('table_per_split'),
      description: z.string(),
      /** Row names (e.g. classes), and per split one value per row. */
      rows: z.array(z.string()),
      splits: z.array(
        z.object({
          split_name: z.string(),
          columns: z.array(z.object({ name: z.string(), values: z.array(z.number().nullable()) })),
        }),
      ),
      /** Rows a problem was found in (highlighted). */
      flagged_rows: z.array(z.string()).optional(),
    }),
  ])
  .meta({ id: 'Evidence' });
export type Evidence = z.infer<typeof Evidence>;

/** One suggested change: a name and the items it applies to (plus items shown for context). */
export const Suggestion = z.object({
  id: z.string(),
  name: z.string(),
  item_ids: z.array(z.string()),
  context_item_ids: z.array(z.string()).optional(),
});
export type Suggestion = z.infer<typeof Suggestion>;

export const RecommendedAction = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('update_item_field'),
      field_name: z.enum(['label', 'split']),
      /** New value → suggestion (its items take that value). */
      updates: z.record(z.string(), Suggestion),
    }),
    z.object({ type: z.literal('delete'), suggestions: z.array(Suggestion) }),
    z.object({
      type: z.literal('add_predicted_objects_to_ground_truth'),
      predictions_id: z.string(),
      suggestions: z.array(Suggestion),
    }),
    z.object({
      type: z.literal('create_subset'),
      name: z.string(),
      suggestions: z.array(Suggestion),
    }),
  ])
  .meta({ id: 'RecommendedAction' });
export type RecommendedAction = z.infer<typeof RecommendedAction>;

export const Recommendation = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text_recommendation'), value: z.array(z.string()) }),
    z.object({ type: z.literal('actions'), actions: z.array(RecommendedAction) }),
  ])
  .meta({ id: 'Recommendation' });
export type Recommendation = z.infer<typeof Recommendation>;

export const Evaluation = z
  .object({
    type: z.enum(['fail', 'pass']),
    evaluation_id: z.string(),
    /** The dataset's data version the evaluation was computed at. */
    history: z.object({ data_version: z.number().int(), computed_at: z.number() }),
    evidence: z.array(Evidence),
    recommendation: Recommendation.nullable(),
  })
  .meta({ id: 'Evaluation' });
export type Evaluation = z.infer<typeof Evaluation>;

// ---- Requests and answers -------------------------------------------------------------------

export const ChecksQuery = z.object({
  predictions_id: z
    .uuid('predictions_id must be a prediction set id (UUID)')
    .optional()
    .describe("The prediction set of checks that need one; the dataset's newest when absent"),
});
export type ChecksQuery = z.infer<typeof ChecksQuery>;

export const CheckParams = z.object({
  id: z.uuid('id must be a dataset id (UUID)'),
  checkId: z.string().min(1).max(200),
});

export const ChecksSummary = z
  .object({
    num_failed: z.number().int(),
    num_passed: z.number().int(),
    num_pending: z.number().int(),
    num_enabled: z.number().int(),
    /** passed / all non-disabled checks, rounded to a whole percent; null with none enabled. */
    passing_percentage: z.number().int().nullable(),
  })
  .meta({ id: 'ChecksSummary' });
export type ChecksSummary = z.infer<typeof ChecksSummary>;

export const ChecksListResponse = z
  .object({
    checks: z.array(HealthCheckOverview),
    summary: ChecksSummary,
    /** The prediction set model checks were evaluated with (null: the dataset has none). */
    predictions_id: z.string().nullable(),
    /**
     * A checks job for the dataset's current data is queued or running (after 'Run checks',
     * an upload or an edit): results may still change.
     */
    computing: z.boolean(),
  })
  .meta({ id: 'ChecksListResponse' });
export type ChecksListResponse = z.infer<typeof ChecksListResponse>;

export const CheckResponse = z
  .object({ check: HealthCheckOverview, evaluation: Evaluation.nullable() })
  .meta({ id: 'CheckResponse' });
export type CheckResponse = z.infer<typeof CheckResponse>;

export const CreateCheckRequest = z
  .object({
    check_key: z.enum(CUSTOM_CHECK_KEYS),
    config: z.object({
      check_name: z.string().trim().min(1, 'Name is required.').max(200),
      filter: z.object({
        filter: Filter,
        include_missing: z.boolean().default(false),
        data_level: DataLevel,
      }),
    }),
  })
  .meta({ id: 'CreateCheckRequest' });
export type CreateCheckRequest = z.input<typeof CreateCheckRequest>;

export const CreateCheckResponse = z.object({ check_id: z.string() });
export type CreateCheckResponse = z.infer<typeof CreateCheckResponse>;

export const ConfigureCheckRequest = z
  .object({
    params: z
      .record(z.string().max(100), CheckParamValue)
      .refine((p) => Object.keys(p).length <= 50, 'at most 50 params'),
  })
  .meta({ id: 'ConfigureCheckRequest' });
export type ConfigureCheckRequest = z.infer<typeof ConfigureCheckRequest>;

export const CheckSettingsRequest = z
  .object({
    enabled: z.boolean(),
    predictions_id: z.uuid('predictions_id must be a prediction set id (UUID)').optional(),
  })
  .meta({ id: 'CheckSettingsRequest' });
export type CheckSettingsRequest = z.infer<typeof CheckSettingsRequest>;

export const RunChecksResponse = z.object({ queued: z.boolean() });
export type RunChecksResponse = z.infer<typeof RunChecksResponse>;

// ---- Texts ----------------------------------------------------------------------------------

export const CHECK_MESSAGES = {
  noChecks: 'No health checks found',
  listFailed: 'Health checks failed to load',
  datasetListFailed: 'Dataset health checks failed to load',
  checkFailed: 'Dataset health check failed to load',
  nameExists: 'Name already exists.',
  nameRequired: 'Name is required.',
  filterRequired: 'Filter is required.',
  addFailed: (name: string) => `Failed adding health check ${name}`,
  configureFailed: (name: string) => `Failed configuring health check ${name}`,
  deleteFailed: (name: string) => `Failed to delete health check "${name}"`,
  computeFailed: 'Failed to Compute health check',
  configureModalError: 'Error rendering configure health check modal',
  groupError: (name: string) => `Error rendering health check group ${name}`,
  missingLevel: 'Inconsistent data: missing check data level.',
  mustBeFailed: "Health check type must be 'failed_check'",
  mustBePassed: "Health check type must be 'passed_check'",
  unsupportedEvidence: (type: string) => `Evidence type ${type} not supported.`,
  unsupportedEvaluation: 'Unsupported failed health check evaluation',
  noProblems: 'No problems found',
  itemsChecked: (n: number) => `${n} items have been checked`,
  allPassed: 'All items passed',
  approximateTitle: 'Approximate check',
  approximateOk: 'I understand',
  discardTitle: 'Discard changes',
  discardAndLeave: 'Discard and leave',
  discardAndContinue: 'Discard and continue',
  showMore: (n: number) => `Show ${n} More`,
  showLess: (n: number) => `Show ${n} Less`,
  notFound: (id: string) => `No health check with id '${id}'.`,
  onlyCustomDelete: 'Only custom health checks can be deleted.',
} as const;

/** The action card's button label from the selection groups it holds (docs/health-checks.md). */
export function actionButtonLabel(groups: readonly string[]): string {
  const kinds = new Set(groups);
  if (kinds.size === 0) return 'Apply';
  if (kinds.size === 1) {
    const [only] = kinds;
    if (only === 'delete') return 'Delete';
    if (only === 'ignore') return 'Ignore';
    if (only === 'label') return 'Rename';
    if (only === 'split') return 'Move';
    if (only === 'promoteToGt') return 'Add as ground truth';
  }
  return 'Apply';
}

/** passed / all non-disabled checks, rounded; null when none is enabled. */
export function passingPercentage(statuses: readonly CheckStatusType[]): number | null {
  const enabled = statuses.filter((s) => s !== 'disabled_check');
  if (enabled.length === 0) return null;
  return Math.round((100 * enabled.filter((s) => s === 'passed_check').length) / enabled.length);
}
