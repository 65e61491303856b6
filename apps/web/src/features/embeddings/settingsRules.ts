// The embeddings settings rules (docs/product.md, Datasets §5): parameter ranges and defaults per method,
// when Apply is allowed and what the dialog says about the feature.
import {
  FEATURE_NOT_AVAILABLE,
  TSNE_PERPLEXITY,
  TSNE_SLOW_ABOVE,
  UMAP_NEIGHBORS,
  type DimensionalityReductionSetting,
  type EmbeddingsSettings,
} from '@loupe/contracts';
import { embeddingsStrings as strings } from './strings';

export type ReductionMethod = DimensionalityReductionSetting['method'];

export const NUM_NEIGHBORS = { ...UMAP_NEIGHBORS, step: 1 } as const;
export const PERPLEXITY = { ...TSNE_PERPLEXITY, step: 0.1 } as const;
/** Above this many points t-SNE is slow enough to warn about. */
export const TSNE_SLOW_POINTS = TSNE_SLOW_ABOVE;

export const METHODS: ReductionMethod[] = ['UMAP', 'TSNE', 'PCA'];

export function defaultSetting(method: ReductionMethod): DimensionalityReductionSetting {
  switch (method) {
    case 'UMAP':
      return { method, num_neighbors: NUM_NEIGHBORS.default };
    case 'TSNE':
      return { method, perplexity: PERPLEXITY.default };
    case 'PCA':
      return { method };
  }
}

export interface SettingsDraft {
  featureName: string | null;
  method: ReductionMethod | null;
  numNeighbors: number | null;
  perplexity: number | null;
}

export function draftFrom(settings: EmbeddingsSettings): SettingsDraft {
  const setting = settings.dimensionality_reduction_setting;
  return {
    featureName: settings.feature_name,
    method: setting.method,
    numNeighbors: setting.method === 'UMAP' ? setting.num_neighbors : NUM_NEIGHBORS.default,
    perplexity: setting.method === 'TSNE' ? setting.perplexity : PERPLEXITY.default,
  };
}

function inRange(value: number | null, range: { min: number; max: number }): value is number {
  return value !== null && Number.isFinite(value) && value >= range.min && value <= range.max;
}

/** The setting a valid draft describes, or null when a parameter is missing or out of range. */
export function settingOf(draft: SettingsDraft): DimensionalityReductionSetting | null {
  switch (draft.method) {
    case 'UMAP':
      return inRange(draft.numNeighbors, NUM_NEIGHBORS) && Number.isInteger(draft.numNeighbors)
        ? { method: 'UMAP', num_neighbors: draft.numNeighbors }
        : null;
    case 'TSNE':
      return inRange(draft.perplexity, PERPLEXITY)
        ? { method: 'TSNE', perplexity: draft.perplexity }
        : null;
    case 'PCA':
      return { method: 'PCA' };
    default:
      return null;
  }
}

function sameSetting(a: DimensionalityReductionSetting, b: DimensionalityReductionSetting) {
  if (a.method !== b.method) return false;
  if (a.method === 'UMAP' && b.method === 'UMAP') return a.num_neighbors === b.num_neighbors;
  // Perplexity steps are 0.1: compare at that precision so 30 and 30.000000001 are one value.
  if (a.method === 'TSNE' && b.method === 'TSNE')
    return Math.round(a.perplexity * 10) === Math.round(b.perplexity * 10);
  return true;
}

export interface SettingsCheck {
  canApply: boolean;
  /** What the dialog says about the feature choice, or null. */
  featureMessage: string | null;
  /** The setting Apply would save. */
  setting: DimensionalityReductionSetting | null;
}

export function checkSettings(draft: SettingsDraft, saved: EmbeddingsSettings): SettingsCheck {
  const features = saved.feature_names;
  if (features.length === 0)
    return { canApply: false, featureMessage: strings.noFeaturesSettings, setting: null };
  const featureMissing = draft.featureName !== null && !features.includes(draft.featureName);
  const featureMessage = featureMissing ? FEATURE_NOT_AVAILABLE : null;
  const setting = settingOf(draft);
  if (draft.featureName === null || featureMissing || setting === null)
    return { canApply: false, featureMessage, setting };
  const changed =
    draft.featureName !== saved.feature_name ||
    !sameSetting(setting, saved.dimensionality_reduction_setting);
  return { canApply: changed, featureMessage, setting };
}

/** Whether to warn that t-SNE will be slow for this many points. */
export function tsneIsSlow(method: ReductionMethod | null, numPoints: number): boolean {
  return method === 'TSNE' && numPoints > TSNE_SLOW_POINTS;
}
