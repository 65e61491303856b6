// The Similar items page's reading of its URL and of the features its query items have.
import { DATA_LEVELS, type DataLevel, type TaskType } from '@loupe/contracts';

/** The subset id that means "the query items are the sample_ids in the URL" (no subset). */
export const SELECTION_SUBSET = 'selection';

/** sample_ids is comma-joined; empty entries and repeats are dropped, order kept. */
export function parseSampleIds(value: string | null): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Which candidate query items start ticked: those named in sample_ids, or every candidate when
 * sample_ids names none of them.
 */
export function preselected(candidates: readonly string[], named: readonly string[]): Set<string> {
  const wanted = new Set(named);
  const chosen = candidates.filter((id) => wanted.has(id));
  return new Set(chosen.length > 0 ? chosen : candidates);
}

export function dataLevelOf(task: TaskType, requested: string | null): DataLevel {
  const allowed = DATA_LEVELS[task];
  return (allowed as string[]).includes(requested ?? '') ? (requested as DataLevel) : allowed[0]!;
}

export function levelWord(level: DataLevel): 'samples' | 'objects' {
  return level === 'image_object' ? 'objects' : 'samples';
}

export interface FeatureChoice {
  feature_name: string;
  num_missing: number;
}

/** Features some query item has, fewest missing first (then by name). */
export function usableFeatures(features: FeatureChoice[], numQueryItems: number): FeatureChoice[] {
  return features
    .filter((feature) => feature.num_missing < numQueryItems)
    .sort((a, b) => a.num_missing - b.num_missing || a.feature_name.localeCompare(b.feature_name));
}
