// What several check definitions share: reading a number or the chosen feature from their
// params, the feature param itself, the word for the items of a medium, rounding of the values
// they show, and the recommendation to delete what they flagged.
import type { CheckParam, CheckParams, Recommendation } from '@loupe/contracts';
import type { CheckSnapshot, FeatureMatrix, ParamContext } from './types.js';

/** A float or int param's value, or `fallback` when the check has no such param. */
export function numberParam(params: CheckParams, name: string, fallback: number): number {
  const param = params[name];
  return param?.type === 'float' || param?.type === 'int' ? param.value : fallback;
}

/** The `feature` param: one of the dataset's features, the default descriptor first chosen. */
export function featureParam(context: ParamContext, description: string): CheckParam {
  return {
    type: 'categorical',
    label: 'Feature',
    description,
    value: context.defaultFeature ? [context.defaultFeature] : [],
    categories: context.features,
    single: true,
  };
}

/** The feature the `feature` param chose, from the snapshot; throws when the snapshot lacks it. */
export function chosenFeature(snapshot: CheckSnapshot, params: CheckParams): FeatureMatrix {
  const param = params.feature;
  const name =
    param?.type === 'categorical' && Array.isArray(param.value) ? param.value[0] : undefined;
  const feature = name === undefined ? undefined : snapshot.features[name];
  if (!feature) throw new Error(`The feature '${name ?? ''}' is not available`);
  return feature;
}

/** What the items of a medium (or a sample level) are called in a check's texts. */
export const itemsWord = (media: string): string => (media === 'audio' ? 'audio clips' : 'images');

/** Six significant digits: float32 scores read as 0.8, not 0.800000011920929. */
export function tidy(value: number): number {
  return Number(value.toPrecision(6));
}

/** 'Delete' the flagged items (one suggestion named `name`), or nothing when none is flagged. */
export function deleteRecommendation(ids: string[], name = 'Delete'): Recommendation | null {
  if (ids.length === 0) return null;
  return {
    type: 'actions',
    actions: [{ type: 'delete', suggestions: [{ id: 'delete', name, item_ids: ids }] }],
  };
}

/**
 * The key of a kept search state (CheckState): `search` and a digest of the settings it depends
 * on besides the items, e.g. the feature's name and the threshold.
 */
export function stateKey(search: string, settings: readonly (string | number)[]): string {
  const text = JSON.stringify(settings);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x5bd1e995);
  }
  const hex = (h: number) => (h >>> 0).toString(16).padStart(8, '0');
  return `${search}-${hex(h1)}${hex(h2)}`;
}
