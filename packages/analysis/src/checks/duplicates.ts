// Exact duplicates: rows whose content hash (or any key) is equal, and the groups among them that
// are leaked, i.e. span more than one split (docs/health-checks.md, "Duplicates").
import { filterGroups, type DuplicateGroups } from './union-find.js';

/**
 * Groups of two or more rows with equal non-null keys, numbered by first member in row order.
 * Linear in the number of rows (one hash map).
 */
export function exactDuplicateGroups(
  keys: readonly (string | null | undefined)[],
): DuplicateGroups {
  const n = keys.length;
  const first = new Map<string, number>();
  /** Per row: the first row with its key (itself when first or keyless). */
  const leader = new Int32Array(n);
  const count = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    let head = i;
    if (key !== null && key !== undefined) {
      const seen = first.get(key);
      if (seen === undefined) first.set(key, i);
      else head = seen;
    }
    leader[i] = head;
    count[head]!++;
  }
  const group = new Int32Array(n).fill(-1);
  const members: Int32Array[] = [];
  const filled: number[] = [];
  for (let i = 0; i < n; i++) {
    const head = leader[i]!;
    if (count[head]! < 2) continue;
    if (head === i) {
      group[i] = members.length;
      members.push(new Int32Array(count[i]!));
      filled.push(0);
    } else group[i] = group[head]!;
    const g = group[i]!;
    members[g]![filled[g]!++] = i;
  }
  return { group, members };
}

/** Whether the rows lie in more than one split (−1, no split, counts as a split of its own). */
export function spansSplits(members: ArrayLike<number>, split: Int32Array): boolean {
  if (members.length < 2) return false;
  const first = split[members[0]!]!;
  for (let k = 1; k < members.length; k++) if (split[members[k]!] !== first) return true;
  return false;
}

/** The groups that span more than one split, renumbered in the same order. */
export function leakedGroups(groups: DuplicateGroups, split: Int32Array): DuplicateGroups {
  return filterGroups(groups, (members) => spansSplits(members, split));
}
