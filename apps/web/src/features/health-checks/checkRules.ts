// The rules of the health-check pages as data (docs/health-checks.md, "What a user sees"): list
// order and collapsing, the one-line summary of a check, which failed view a check gets, the
// action card's selection groups and the pending changes they queue, and configure edits.
import {
  actionButtonLabel,
  CHECK_GROUP_COLLAPSE_OVER,
  CHECK_GROUP_COLLAPSED_COUNT,
  CHECK_GROUPS,
  CHECK_MESSAGES,
  CHECK_STATUSES,
  type CheckGroup,
  type CheckParam,
  type CheckParamValue,
  type CheckStatusType,
  type DataLevel,
  type Evaluation,
  type Evidence,
  type HealthCheckOverview,
  type Recommendation,
} from '@loupe/contracts';
import type { PendingChangeInput } from '../curation';
import { checkStrings as strings } from './strings';

/** The antd Tag colour of each status (preset names, so every theme colours them). */
export const STATUS_COLORS: Readonly<Record<CheckStatusType, string>> = {
  failed_check: 'error',
  passed_check: 'success',
  pending_check: 'processing',
  missing_req_check: 'warning',
  failed_to_compute_check: 'volcano',
  disabled_check: 'default',
};

const statusRank = (status: CheckStatusType) => CHECK_STATUSES.indexOf(status);

/**
 * Checks sorted by status (failed, passed, computing, missing requirements, error, disabled),
 * then in the order given, which is the catalogue's (the server lists them so).
 */
export function sortChecks<T extends Pick<HealthCheckOverview, 'status'>>(
  checks: readonly T[],
): T[] {
  return checks
    .map((check, index) => ({ check, index }))
    .sort(
      (a, b) =>
        statusRank(a.check.status.type) - statusRank(b.check.status.type) || a.index - b.index,
    )
    .map(({ check }) => check);
}

export interface CheckGroupOf<T> {
  group: CheckGroup;
  checks: T[];
}

/** The groups that hold checks, in CHECK_GROUPS order, each sorted by sortChecks. */
export function groupChecks<T extends Pick<HealthCheckOverview, 'status' | 'group'>>(
  checks: readonly T[],
): CheckGroupOf<T>[] {
  return CHECK_GROUPS.map((group) => ({
    group,
    checks: sortChecks(checks.filter((check) => check.group === group)),
  })).filter(({ checks: inGroup }) => inGroup.length > 0);
}

/** A group of more than 6 checks shows 3 until expanded; `hidden` counts the others. */
export function visibleChecks<T>(checks: readonly T[], expanded: boolean) {
  const collapsible = checks.length > CHECK_GROUP_COLLAPSE_OVER;
  const shown = collapsible && !expanded ? checks.slice(0, CHECK_GROUP_COLLAPSED_COUNT) : checks;
  return {
    shown: [...shown],
    collapsible,
    /** Checks beyond the collapsed three: N of 'Show N More' / 'Show N Less'. */
    extra: collapsible ? checks.length - CHECK_GROUP_COLLAPSED_COUNT : 0,
  };
}

/** The one line under a check in the list: what was found, what was checked, or why not. */
export function summaryLine(check: Pick<HealthCheckOverview, 'status'>): string | null {
  const status = check.status;
  switch (status.type) {
    case 'failed_check':
      return status.evidence_summary;
    case 'passed_check':
      return status.checked_items_summary
        ? CHECK_MESSAGES.itemsChecked(status.checked_items_summary.num_items_checked)
        : CHECK_MESSAGES.allPassed;
    case 'missing_req_check':
      return status.requirements.map((requirement) => requirement.message).join(' ');
    case 'failed_to_compute_check':
      return CHECK_MESSAGES.computeFailed;
    default:
      return null;
  }
}

/** Tables of more than 4 rows show 3 until expanded. */
export const TABLE_COLLAPSE_OVER = 4;
export const TABLE_COLLAPSED_ROWS = 3;
export function visibleRows<T>(rows: readonly T[], expanded: boolean): T[] {
  return rows.length > TABLE_COLLAPSE_OVER && !expanded
    ? rows.slice(0, TABLE_COLLAPSED_ROWS)
    : [...rows];
}

export type ItemsEvidence = Extract<Evidence, { type: 'items' }>;

/**
 * Which view a failed check gets: items evidence with (or without) actions → the action view; a
 * text recommendation → evidence and recommendation; anything else is not supported.
 */
export function failedView(evaluation: Evaluation | null): 'actions' | 'text' | 'unsupported' {
  if (!evaluation) return 'unsupported';
  const recommendation = evaluation.recommendation;
  if (recommendation?.type === 'text_recommendation') return 'text';
  const hasItems = evaluation.evidence.some((evidence) => evidence.type === 'items');
  if (hasItems && (recommendation === null || recommendation.type === 'actions')) return 'actions';
  return 'unsupported';
}

// ---- action card

export type GroupKind = 'delete' | 'label' | 'split' | 'promoteToGt' | 'ignore';

export interface SelectionGroup {
  /** 'delete', 'promoteToGt', 'ignore', 'label:<value>' or 'split:<value>'. */
  id: string;
  kind: GroupKind;
  title: string;
  /** The new label or split. */
  value?: string;
  predictionsId?: string;
  itemIds: string[];
}

const unique = (ids: Iterable<string>) => [...new Set(ids)];

/**
 * The action card's groups from a check's recommendation, each holding the suggested items:
 * 'delete', one per new label or split, 'promoteToGt', and 'ignore' (empty; always offered). An
 * item the recommendation suggests twice stays in the first group that names it.
 */
export function selectionGroupsFrom(recommendation: Recommendation | null): SelectionGroup[] {
  const groups: SelectionGroup[] = [];
  const taken = new Set<string>();
  const add = (group: Omit<SelectionGroup, 'itemIds'>, ids: Iterable<string>) => {
    const existing = groups.find((other) => other.id === group.id);
    const fresh = unique(ids).filter((id) => !taken.has(id));
    fresh.forEach((id) => taken.add(id));
    if (existing) existing.itemIds.push(...fresh);
    else groups.push({ ...group, itemIds: fresh });
  };
  if (recommendation?.type === 'actions') {
    for (const action of recommendation.actions) {
      if (action.type === 'delete') {
        add(
          { id: 'delete', kind: 'delete', title: strings.groupTitles.delete },
          action.suggestions.flatMap((suggestion) => suggestion.item_ids),
        );
      } else if (action.type === 'update_item_field') {
        const kind = action.field_name;
        for (const [value, suggestion] of Object.entries(action.updates)) {
          add(
            {
              id: `${kind}:${value}`,
              kind,
              value,
              title: strings.groupTitles[kind](value),
            },
            suggestion.item_ids,
          );
        }
      } else if (action.type === 'add_predicted_objects_to_ground_truth') {
        add(
          {
            id: 'promoteToGt',
            kind: 'promoteToGt',
            title: strings.groupTitles.promoteToGt,
            predictionsId: action.predictions_id,
          },
          action.suggestions.flatMap((suggestion) => suggestion.item_ids),
        );
      }
      // create_subset is not one of the card's groups (docs/health-checks.md, "Action card").
    }
  }
  add({ id: 'ignore', kind: 'ignore', title: strings.groupTitles.ignore }, []);
  return groups;
}

/** A click on an item: in that group it leaves it; otherwise it joins it (and leaves the others). */
export function toggleItem(
  groups: readonly SelectionGroup[],
  groupId: string,
  itemId: string,
): SelectionGroup[] {
  const inTarget = groups.find((group) => group.id === groupId)?.itemIds.includes(itemId) ?? false;
  return groups.map((group) => {
    const without = group.itemIds.filter((id) => id !== itemId);
    if (group.id !== groupId)
      return without.length === group.itemIds.length ? group : { ...group, itemIds: without };
    return { ...group, itemIds: inTarget ? without : [...group.itemIds, itemId] };
  });
}

/** The group an item is in, if any. */
export function groupOf(groups: readonly SelectionGroup[], itemId: string): SelectionGroup | null {
  return groups.find((group) => group.itemIds.includes(itemId)) ?? null;
}

/** The card's button: from the kinds of the groups that hold items (actionButtonLabel). */
export function buttonLabel(groups: readonly SelectionGroup[]): string {
  return actionButtonLabel(groups.filter((group) => group.itemIds.length > 0).map((g) => g.kind));
}

export interface CardOutcome {
  /** Queued as pending changes, each carrying the check's id. */
  changes: PendingChangeInput[];
  /** Ignored at once (check_ignore_items). */
  ignore: string[];
}

/**
 * What applying the card does: each data group becomes a pending change carrying `checkId`
 * (object-level changes know each object's sample through `sampleOf`); the ignore group is
 * applied at once.
 */
export function cardOutcome(
  groups: readonly SelectionGroup[],
  context: { checkId: string; dataLevel: DataLevel; sampleOf?: Record<string, string> },
): CardOutcome {
  const { checkId, dataLevel, sampleOf } = context;
  const changes: PendingChangeInput[] = [];
  let ignore: string[] = [];
  const withSamples = (itemIds: string[]) =>
    sampleOf && dataLevel === 'image_object'
      ? { sampleOf: Object.fromEntries(itemIds.map((id) => [id, sampleOf[id] ?? id])) }
      : {};
  for (const group of groups) {
    const itemIds = group.itemIds;
    if (itemIds.length === 0) continue;
    switch (group.kind) {
      case 'ignore':
        ignore = [...itemIds];
        break;
      case 'delete':
        changes.push({ kind: 'delete', dataLevel, itemIds, checkId, ...withSamples(itemIds) });
        break;
      case 'label':
        changes.push({
          kind: 'update_label',
          label: group.value!,
          dataLevel,
          itemIds,
          checkId,
          ...withSamples(itemIds),
        });
        break;
      case 'split':
        changes.push({ kind: 'update_split', split: group.value!, isNew: false, itemIds, checkId });
        break;
      case 'promoteToGt':
        changes.push({
          kind: 'promote',
          predictionsId: group.predictionsId!,
          itemIds,
          checkId,
          ...withSamples(itemIds),
        });
        break;
    }
  }
  return { changes, ignore };
}

// ---- configure

/** The value a param is configured with (its kind is the check's). */
export function paramValue(param: CheckParam): CheckParamValue {
  if (param.type === 'filter') {
    return {
      filter: param.filter,
      include_missing: param.include_missing,
      data_level: param.data_level,
    };
  }
  return param.value;
}

/** The params whose draft differs from the check's; empty means Apply stays disabled. */
export function changedParams(
  params: Readonly<Record<string, CheckParam>>,
  draft: Readonly<Record<string, CheckParamValue>>,
): Record<string, CheckParamValue> {
  const changed: Record<string, CheckParamValue> = {};
  for (const [name, param] of Object.entries(params)) {
    if (!(name in draft)) continue;
    const value = draft[name]!;
    if (JSON.stringify(value) !== JSON.stringify(paramValue(param))) changed[name] = value;
  }
  return changed;
}

/** Where the tour of approximate checks is remembered as seen, per user. */
export const approximateTourKey = (userId: string) =>
  `loupe.healthChecks.approximateSeen.${userId}`;

/** The explorer at a data level with a filter and sort (its URL state, docs/web.md "Explore"). */
export function explorerLink(
  datasetId: string,
  config: { data_level: DataLevel; filter: unknown; sort_by: readonly unknown[] },
): string {
  const params = new URLSearchParams({
    level: config.data_level,
    filter: JSON.stringify(config.filter),
  });
  if (config.sort_by.length > 0) params.set('sort', JSON.stringify(config.sort_by));
  return `/datasets/${encodeURIComponent(datasetId)}/explore?${params.toString()}`;
}
