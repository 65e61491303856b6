// The display settings' attribution rules (docs/product.md, Datasets §4, §8): what the picker can
// offer (nothing without a model or outside the default view, a wait while the attributions load,
// a hint when there are none), and that choosing one while the heatmaps are invisible (opacity
// 0) makes them visible at the default opacity.
import { ATTRIBUTION_OPACITY, type AttributionOverview } from '@loupe/contracts';
import type { ExploreState, ExploreView } from './exploreState';
import { exploreStrings as strings } from './strings';

export type AttributionPicker =
  | { kind: 'message'; message: string; docs: boolean }
  | { kind: 'ready'; options: AttributionOverview[] };

export function attributionPicker({
  predictionsId,
  view,
  attributions,
  loading,
  failed,
}: {
  predictionsId: string | undefined;
  view: ExploreView;
  attributions: AttributionOverview[] | undefined;
  loading: boolean;
  failed: boolean;
}): AttributionPicker {
  const message = (text: string, docs = false): AttributionPicker => ({
    kind: 'message',
    message: text,
    docs,
  });
  if (!predictionsId) return message(strings.attributionsSelectModel);
  if (view !== 'grid') return message(strings.attributionsPrimaryViewOnly);
  if (failed) return message(strings.attributionsFailed);
  if (loading || !attributions) return message(strings.attributionsLoading);
  const present = attributions.filter((attribution) => attribution.num_present > 0);
  if (present.length === 0) return message(strings.attributionsNone, true);
  return { kind: 'ready', options: present };
}

/** The state change of choosing an attribution (null: none). */
export function chooseAttribution(
  opacity: number,
  attribution: string | null,
): Pick<ExploreState, 'attribution'> & Partial<Pick<ExploreState, 'opacity'>> {
  return attribution !== null && opacity === 0
    ? { attribution, opacity: ATTRIBUTION_OPACITY.default }
    : { attribution };
}

/** The attribution drawn: the chosen one when the model has it at this level, else none. */
export function shownAttribution(chosen: string | null, picker: AttributionPicker): string | null {
  if (chosen === null || picker.kind !== 'ready') return null;
  return picker.options.some((option) => option.id === chosen) ? chosen : null;
}
