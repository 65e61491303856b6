// Names the choosers check before anything is queued (docs/curation.md): a new subset's name is
// not empty, not 'NONE' or 'MULTIPLE' and not an existing subset's; a new split's is not an
// existing split's. A name already queued as new is the same new subset (or split), not a clash.
import { RESERVED_SUBSET_NAMES, type DataLevel } from '@loupe/contracts';
import type { PendingChange, SubsetRef } from './pendingChanges';
import { curationStrings as strings } from './strings';

export function subsetNameProblem(name: string, existing: readonly string[]): string | null {
  const trimmed = name.trim();
  if (!trimmed) return strings.nameRequired;
  const reserved = RESERVED_SUBSET_NAMES.find((word) => word === trimmed);
  if (reserved) return strings.nameReserved(reserved);
  return existing.includes(trimmed) ? strings.nameTaken : null;
}

export function splitNameProblem(name: string, existing: readonly string[]): string | null {
  const trimmed = name.trim();
  if (!trimmed) return strings.splitRequired;
  return existing.includes(trimmed) ? strings.splitTaken : null;
}

/** The subsets the queue will create, by name, with their data level. */
export function queuedNewSubsets(
  changes: readonly PendingChange[],
): { name: string; dataLevel: DataLevel }[] {
  const found = new Map<string, DataLevel>();
  const note = (ref: SubsetRef, level: DataLevel) => {
    if ('newName' in ref && !found.has(ref.newName)) found.set(ref.newName, level);
  };
  for (const change of changes) {
    if (change.kind === 'add_to_subset') note(change.subset, change.dataLevel);
    if (change.kind === 'move_to_subset') note(change.to, change.dataLevel);
  }
  return [...found].map(([name, dataLevel]) => ({ name, dataLevel }));
}

/** The splits the queue will create. */
export function queuedNewSplits(changes: readonly PendingChange[]): string[] {
  const names = new Set<string>();
  for (const change of changes) {
    if (change.kind === 'update_split' && change.isNew) names.add(change.split);
  }
  return [...names];
}
