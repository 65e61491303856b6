// The Data Leakage & Duplicates checks (docs/health-checks.md, "Duplicates"): identical decoded
// content (the metadata pass's content hash) and near-identical items (a feature's cosine
// distance, and for images the perceptual hash), each overall and leaked across splits.
import {
  exactDuplicateGroups,
  leakedGroups,
  nearDuplicateGroups,
  type DuplicateGroups,
  type NearDuplicateResult,
  type NearDuplicateState,
} from '@loupe/analysis';
import { TASK_TRAITS, type CheckParams, type DataLevel, type TaskType } from '@loupe/contracts';
import { chosenFeature, featureParam, itemsWord, numberParam, stateKey, tidy } from './common.js';
import type {
  CheckDefinition,
  CheckInput,
  CheckOutcome,
  CheckRunInput,
  CheckSnapshot,
  CheckState,
  FeatureMatrix,
  KeptRecord,
  ParamContext,
} from './types.js';

type Media = 'image' | 'audio';

/**
 * Cosine distance at or below which two items are near-duplicates on the chosen feature. On the
 * default image descriptor, re-encoded (JPEG q 60–90), downscaled and slightly blurred copies of
 * an image are all within 0.0054 of it, most 5 % crops within 0.01, while 2 in 20,000 pairs of
 * distinct synthetic images of one style are (docs/health-checks.md, "Duplicates").
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.01;
/**
 * Differing perceptual-hash bits at or below which two images are near-duplicates: re-encoded,
 * downscaled and blurred copies are within 4 bits, brightened ones mostly too, and no pair of
 * distinct images was.
 */
export const NEAR_DUPLICATE_HASH_DISTANCE = 4;
const MAX_THRESHOLD = 0.25;
const MAX_HASH_DISTANCE = 16;

/** Splits a kept copy prefers, in this order; other splits after them by name. */
const SPLIT_PREFERENCE = ['train', 'validation', 'test'];

const contentHash = (media: Media) => `${media}.content_hash`;
const PHASH = 'image.phash';

function levelsOf(media: Media) {
  return (task: TaskType): DataLevel[] => (TASK_TRAITS[task].media === media ? [media] : []);
}

/** Rank of a split as the place a kept copy stays: train, validation, test, others by name, none last. */
function splitRank(splitNames: readonly string[]) {
  return (split: number): number => {
    if (split < 0) return Number.MAX_SAFE_INTEGER;
    const preferred = SPLIT_PREFERENCE.indexOf(splitNames[split]!);
    return preferred >= 0 ? preferred : SPLIT_PREFERENCE.length + split;
  };
}

/**
 * The member each group keeps: the first in row order, or for leaked groups the first member in
 * the preferred split (so copies move into, or are deleted from, the other splits).
 */
function keepers(
  groups: DuplicateGroups,
  split: Int32Array,
  splitNames: string[],
  leaked: boolean,
) {
  const rank = splitRank(splitNames);
  return groups.members.map((rows) => {
    if (!leaked) return rows[0]!;
    let best = rows[0]!;
    for (const row of rows) if (rank(split[row]!) < rank(split[best]!)) best = row;
    return best;
  });
}

interface Found {
  groups: DuplicateGroups;
  /** Per row: distance to the nearest near-duplicate (near checks), NaN unknown. */
  distance?: Float64Array;
  checked: number;
  approximate: boolean;
  /** How it was found, for the evidence. */
  method: string;
}

function outcome(
  snapshot: CheckSnapshot,
  media: Media,
  leaked: boolean,
  near: boolean,
  found: Found,
): CheckOutcome {
  const { ids: sampleIds, split, splitNames } = snapshot.samples;
  const groups = leaked ? leakedGroups(found.groups, split) : found.groups;
  const keep = keepers(groups, split, splitNames, leaked);
  const ids: string[] = [];
  const groupValues: number[] = [];
  const distances: (number | null)[] = [];
  const deleted: string[] = [];
  const moves = new Map<number, string[]>();
  let largest = 0;
  groups.members.forEach((rows, g) => {
    largest = Math.max(largest, rows.length);
    const kept = keep[g]!;
    for (const row of rows) {
      ids.push(sampleIds[row]!);
      // Shown from 1: 'group 1' is the first group in upload order.
      groupValues.push(g + 1);
      const distance = found.distance?.[row];
      distances.push(distance === undefined || Number.isNaN(distance) ? null : tidy(distance));
      if (row === kept) continue;
      deleted.push(sampleIds[row]!);
      const target = split[kept]!;
      if (leaked && split[row] !== target && target >= 0)
        moves.set(target, [...(moves.get(target) ?? []), sampleIds[row]!]);
    }
  });
  const word = itemsWord(media);
  const values: Record<string, (number | string | null)[]> = { group: groupValues };
  if (near) values.distance = distances;
  const kind = near ? 'near-duplicates' : 'duplicates';
  const summary = near
    ? `{n} ${word} are near-duplicates${leaked ? ' across splits' : ''}`
    : leaked
      ? `{n} ${word} are duplicated across splits`
      : `{n} ${word} have a duplicate`;
  const actions: NonNullable<CheckOutcome['recommendation']> = {
    type: 'actions',
    actions: [
      {
        type: 'delete',
        suggestions: [{ id: 'delete', name: 'Delete all but one per group', item_ids: deleted }],
      },
    ],
  };
  if (leaked && moves.size > 0)
    actions.actions.push({
      type: 'update_item_field',
      field_name: 'split',
      updates: Object.fromEntries(
        [...moves].map(([target, itemIds]) => [
          splitNames[target]!,
          {
            id: `split:${splitNames[target]!}`,
            name: `Move the copies to ${splitNames[target]!}`,
            item_ids: itemIds,
          },
        ]),
      ),
    });
  return {
    checked: found.checked,
    flagged: { ids, values },
    summary,
    preview: {
      sort_by: [
        { name: 'group', direction: 'ascending' },
        ...(near ? [{ name: 'distance', direction: 'ascending' as const }] : []),
      ],
      visible_metadata_ids: near ? ['group', 'split', 'distance'] : ['group', 'split'],
    },
    evidence: [
      {
        type: 'text',
        title: 'How it was found',
        value:
          groups.members.length === 0
            ? `No ${kind}${leaked ? ' span more than one split' : ' were found'}. ${found.method}`
            : `${groups.members.length} ${groups.members.length === 1 ? 'group' : 'groups'} of ${kind}${leaked ? ' spanning more than one split' : ''}; the largest has ${largest} ${word}. ${found.method}`,
      },
    ],
    recommendation: ids.length === 0 ? null : actions,
    is_approximate: found.approximate,
  };
}

function exactFound(snapshot: CheckSnapshot, media: Media): Found {
  const id = contentHash(media);
  const keys = snapshot.samples.strings[id];
  if (!keys) throw new Error(`The metadata '${id}' is not available`);
  return {
    groups: exactDuplicateGroups(keys),
    checked: keys.filter((key) => key !== null).length,
    approximate: false,
    method: `Items are duplicates when their content hash (${id}: a hash of the decoded content) is equal.`,
  };
}

/**
 * The near-duplicate groups of a feature, computed once per snapshot and settings: the
 * near-duplicate check and its leaked variant run on the same snapshot in one batch of the checks
 * thread and read the same groups (the search is the catalogue's costliest step). With kept state
 * the search of the last run is read back, and only the items it does not hold are searched
 * (near-duplicates-kept.ts in @loupe/analysis); the grown search is kept for the next run.
 */
const nearDuplicateCache = new WeakMap<Float32Array, Map<string, NearDuplicateResult>>();
function nearDuplicatesOnce(
  feature: FeatureMatrix,
  ids: readonly string[],
  hashes: readonly (string | null)[] | undefined,
  threshold: number,
  hashDistance: number | undefined,
  state: CheckState | undefined,
): NearDuplicateResult {
  let byKey = nearDuplicateCache.get(feature.data);
  if (!byKey) nearDuplicateCache.set(feature.data, (byKey = new Map()));
  const key = `${threshold}|${hashes && hashDistance !== undefined ? hashDistance : '-'}`;
  let result = byKey.get(key);
  if (!result) {
    // The pairs by feature are kept; those by perceptual hash are found again on every run (cheap).
    const kept = stateKey('near-duplicates', [feature.name, feature.dimension, threshold]);
    const previous = state?.read(kept) as NearDuplicateState | null | undefined;
    result = nearDuplicateGroups(feature.data, feature.dimension, {
      threshold,
      present: feature.present,
      ...(hashes && hashDistance !== undefined ? { hashes, hashDistance } : {}),
      ...(state ? { keep: { ids, previous: previous ?? null } } : {}),
    });
    if (state) state.write(kept, (result.state as KeptRecord | null | undefined) ?? null);
    byKey.set(key, result);
  }
  return result;
}

function nearFound(
  snapshot: CheckSnapshot,
  media: Media,
  params: CheckParams,
  state: CheckState | undefined,
): Found {
  const feature = chosenFeature(snapshot, params);
  const threshold = numberParam(params, 'threshold', NEAR_DUPLICATE_THRESHOLD);
  const hashes = media === 'image' ? snapshot.samples.strings[PHASH] : undefined;
  if (media === 'image' && !hashes) throw new Error(`The metadata '${PHASH}' is not available`);
  const hashDistance =
    media === 'image'
      ? Math.round(numberParam(params, 'hash_distance', NEAR_DUPLICATE_HASH_DISTANCE))
      : undefined;
  const result = nearDuplicatesOnce(
    feature,
    snapshot.samples.ids,
    hashes,
    threshold,
    hashDistance,
    state,
  );
  let checked = 0;
  for (let row = 0; row < snapshot.samples.ids.length; row++)
    if (feature.present[row] || (hashes && hashes[row] !== null)) checked++;
  const byHash =
    hashDistance === undefined
      ? ''
      : `, or when their perceptual hashes (${PHASH}) differ in at most ${hashDistance} bits`;
  return {
    groups: result,
    distance: result.distance,
    checked,
    approximate: result.approximate,
    method: `Items are near-duplicates when the cosine distance of their '${feature.name}' vectors is at most ${threshold}${byHash}; near-duplicates of near-duplicates join one group. ${
      result.approximate
        ? 'Pairs were proposed by locality-sensitive hashing, which finds about 95 % or more of them; every pair reported was measured exactly.'
        : 'Every pair was compared.'
    }${
      result.searched !== undefined && result.approximate && result.searched < checked
        ? result.searched === 0
          ? ' No item was added or changed since the last run: its pairs were kept.'
          : ` Only the ${result.searched} ${result.searched === 1 ? 'item' : 'items'} added or changed since the last run ${result.searched === 1 ? 'was' : 'were'} searched, in the tables kept from it; the pairs of the others were kept.`
        : ''
    }`,
  };
}

function featureParams(context: ParamContext, media: Media): CheckParams {
  const params: CheckParams = {
    feature: featureParam(context, 'The feature whose cosine distance compares items'),
    threshold: {
      type: 'float',
      label: 'Distance threshold',
      description: 'Cosine distance at or below which two items are near-duplicates',
      value: NEAR_DUPLICATE_THRESHOLD,
      min: 0,
      max: MAX_THRESHOLD,
    },
  };
  if (media === 'image')
    params.hash_distance = {
      type: 'int',
      label: 'Hash distance',
      description:
        'Differing perceptual-hash bits at or below which two images are near-duplicates',
      value: NEAR_DUPLICATE_HASH_DISTANCE,
      min: 0,
      max: MAX_HASH_DISTANCE,
    };
  return params;
}

function definition(media: Media, leaked: boolean, near: boolean): CheckDefinition {
  const word = itemsWord(media);
  const metadata = near ? (media === 'image' ? [PHASH] : []) : [contentHash(media)];
  const inputs: CheckInput[] = [
    ...(leaked ? (['split'] as const) : []),
    ...(near ? (['feature'] as const) : []),
    ...metadata.map((id) => ({ metadata: id })),
  ];
  const what = near
    ? `near-identical ${word}: their feature vectors are within a cosine distance${media === 'image' ? ', or their perceptual hashes within a few bits' : ''}`
    : `${word} whose decoded content is identical, whatever their file format`;
  const title = near ? 'Near-duplicate' : 'Duplicate';
  return {
    key: `${near ? 'near_duplicate' : 'duplicate'}${leaked ? '_leaked' : ''}`,
    group: 'Data Leakage & Duplicates',
    levels: levelsOf(media),
    name: () => `${title} ${word}${leaked ? ' leaked across splits' : ''}`,
    description: () => [
      leaked
        ? `Finds groups of ${what}, with members in more than one split: a model evaluated on copies of its training data looks better than it is.`
        : `Finds groups of ${what}: copies weigh more in training and evaluation than they should.`,
      leaked
        ? 'Keep one per group, or move the copies into the split of the one kept (train before validation before test).'
        : 'Keep one per group and delete the others.',
    ],
    configDescription: near
      ? `Choose the feature that compares ${word} and how close counts as a near-duplicate.`
      : `${title} ${word} are found from the content hash the metadata pass computes; there is nothing to configure.`,
    params: (context) => (near ? featureParams(context, media) : {}),
    requires: near ? { feature: true, metadata } : { metadata },
    inputs,
    fields: [
      { name: 'group', label: near ? 'Near-duplicate group' : 'Duplicate group', type: 'numeric' },
      ...(near
        ? [{ name: 'distance', label: 'Distance to nearest', type: 'numeric' as const }]
        : []),
    ],
    order: (near ? 2 : 0) + (leaked ? 0 : 1),
    run({ snapshot, params, state }: CheckRunInput): CheckOutcome {
      const found = near ? nearFound(snapshot, media, params, state) : exactFound(snapshot, media);
      return outcome(snapshot, media, leaked, near, found);
    },
  };
}

export const duplicateChecks: CheckDefinition[] = (['image', 'audio'] as const).flatMap((media) => [
  definition(media, true, false),
  definition(media, false, false),
  definition(media, true, true),
  definition(media, false, true),
]);
