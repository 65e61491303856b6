// A stored check result as the framework reads it (docs/health-checks.md, "Status"): the outcome
// of a run, the missing requirements or the error; and the outcome with the ignored items taken
// out of the flagged items, of the counts and of every suggestion.
import type {
  MissingRequirement,
  Recommendation,
  RecommendedAction,
  Suggestion,
} from '@loupe/contracts';
import type { CheckOutcome } from './catalogue/types.js';
import type { ResultStatus } from './health-checks.repository.js';

export type StoredOutcome =
  /** `total`: the items of the check's level when it ran. */
  | { kind: 'outcome'; outcome: CheckOutcome; total: number }
  | { kind: 'missing'; requirements: MissingRequirement[] }
  | { kind: 'error'; message: string };

export interface Effective {
  failed: boolean;
  /** Flagged ids not ignored, with their row in the outcome's flagged lists. */
  failedIds: string[];
  numIgnored: number;
}

export function effective(outcome: CheckOutcome, ignored: ReadonlySet<string>): Effective {
  const failedIds: string[] = [];
  let numIgnored = 0;
  for (const id of outcome.flagged.ids) {
    if (ignored.has(id)) numIgnored++;
    else failedIds.push(id);
  }
  const failed = outcome.verdict === 'fail' || (outcome.verdict !== 'pass' && failedIds.length > 0);
  return { failed, failedIds, numIgnored };
}

/** The stored status of an outcome with its ignored items. */
export function statusOf(stored: StoredOutcome, ignored: ReadonlySet<string>): ResultStatus {
  if (stored.kind === 'missing') return 'missing';
  if (stored.kind === 'error') return 'error';
  return effective(stored.outcome, ignored).failed ? 'failed' : 'passed';
}

function withoutIgnored(s: Suggestion, ignored: ReadonlySet<string>): Suggestion | null {
  const item_ids = s.item_ids.filter((id) => !ignored.has(id));
  return item_ids.length === 0 ? null : { ...s, item_ids };
}

function kept(list: Suggestion[], ignored: ReadonlySet<string>): Suggestion[] {
  return list.flatMap((s) => withoutIgnored(s, ignored) ?? []);
}

/** The recommendation without the ignored items (actions left with no items are dropped). */
export function recommendationWithout(
  recommendation: Recommendation | null,
  ignored: ReadonlySet<string>,
): Recommendation | null {
  if (!recommendation || recommendation.type === 'text_recommendation') return recommendation;
  const actions = recommendation.actions.flatMap((action): RecommendedAction[] => {
    if (action.type === 'update_item_field') {
      const updates = Object.fromEntries(
        Object.entries(action.updates).flatMap(([value, s]) => {
          const k = withoutIgnored(s, ignored);
          return k ? [[value, k] as const] : [];
        }),
      );
      return Object.keys(updates).length === 0 ? [] : [{ ...action, updates }];
    }
    const suggestions = kept(action.suggestions, ignored);
    return suggestions.length === 0 ? [] : [{ ...action, suggestions }];
  });
  return actions.length === 0 ? null : { type: 'actions', actions };
}
