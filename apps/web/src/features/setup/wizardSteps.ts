// The wizard's four steps and which of them may be visited (docs/product.md, Shell §2, §4).
export const STEPS = { intro: 0, company: 1, user: 2, final: 3 } as const;
export type StepIndex = (typeof STEPS)[keyof typeof STEPS];

/** Steps can be revisited up to one past the last completed step. */
export function furthestReachableStep(completed: ReadonlySet<number>): number {
  const last = completed.size ? Math.max(...completed) : -1;
  return Math.min(last + 1, STEPS.final);
}

export function canVisit(
  step: number,
  completed: ReadonlySet<number>,
  setupDone: boolean,
): boolean {
  // Once the instance is set up, only the final step is left to do.
  if (setupDone) return step === STEPS.final || completed.has(step);
  return step <= furthestReachableStep(completed);
}
