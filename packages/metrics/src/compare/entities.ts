// Per class (or per word) breakdown: each entity's metric for A and B, the category by the
// metric's direction, groups sorted by the size of the difference.
import { CATEGORY, COMPARISON_CATEGORIES } from './categories.js';
import type { EntityBreakdown, EntityDelta } from './types.js';

export interface EntityValues {
  key: string;
  value: number;
}

export interface EntityRule {
  direction: 'higher' | 'lower';
  /**
   * The value at which equal scores make both problematic (0 for a 'higher' metric, 1 for a
   * 'lower' one bounded by 1); null for tasks that never call both problematic.
   */
  worst: number | null;
}

/** Category of a pair of per-item or per-entity values (both finite). */
export function categoryOf(rule: EntityRule, a: number, b: number): number {
  if (a !== b) {
    const bWins = rule.direction === 'higher' ? b > a : b < a;
    return bWins ? CATEGORY.bBetter : CATEGORY.aBetter;
  }
  return rule.worst !== null && a === rule.worst ? CATEGORY.problematic : CATEGORY.neutral;
}

/**
 * Entities with a finite value for both models, in A's order of entities; an entity either
 * model has no value for (e.g. a class absent from labels and predictions) is left out.
 */
export function entityBreakdown(
  entity: 'class' | 'word',
  metric: string,
  rule: EntityRule,
  a: readonly EntityValues[],
  b: readonly EntityValues[],
): EntityBreakdown {
  const bValues = new Map(b.map((e) => [e.key, e.value]));
  const groups: EntityDelta[][] = COMPARISON_CATEGORIES.map(() => []);
  for (const { key, value: va } of a) {
    const vb = bValues.get(key);
    if (vb === undefined || !Number.isFinite(va) || !Number.isFinite(vb)) continue;
    groups[categoryOf(rule, va, vb)]!.push({
      entity: key,
      model_a: va,
      model_b: vb,
      raw_delta: vb - va,
      explore_config: null,
    });
  }
  const bySize = (x: EntityDelta, y: EntityDelta) =>
    Math.abs(y.raw_delta) - Math.abs(x.raw_delta) ||
    (x.entity < y.entity ? -1 : x.entity > y.entity ? 1 : 0);
  for (const group of groups) group.sort(bySize);
  return {
    entity,
    metric,
    num_entities: groups.reduce((n, g) => n + g.length, 0),
    model_a_is_better: groups[CATEGORY.aBetter]!,
    both_are_problematic: groups[CATEGORY.problematic]!,
    both_are_neutral: groups[CATEGORY.neutral]!,
    model_b_is_better: groups[CATEGORY.bBetter]!,
  };
}
