// The explorer's attribution: the model's attributions at the level (read only where the task
// draws them and a model is chosen), what the picker offers, the attribution drawn over the
// pictures and its opacity, and the changes the picker makes (docs/product.md, Datasets §4).
import { attributionsSupported, type DataLevel, type Dataset } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { attributionsOverviewQuery } from '../../../api/queries/attributions';
import { attributionPicker, chooseAttribution, shownAttribution } from '../attributionRules';
import type { ExploreState } from '../exploreState';

export function useAttributionDisplay(
  dataset: Dataset,
  predictionsId: string | undefined,
  dataLevel: DataLevel,
  state: Pick<ExploreState, 'view' | 'attribution' | 'opacity'>,
  update: (change: Partial<ExploreState>) => void,
) {
  const supported = attributionsSupported(dataset.task_type);
  const overview = useQuery({
    ...attributionsOverviewQuery(dataset.id, predictionsId ?? '', dataLevel),
    enabled: supported && Boolean(predictionsId),
  });
  const picker = attributionPicker({
    predictionsId,
    view: state.view,
    attributions: overview.data,
    loading: overview.isPending,
    failed: overview.isError,
  });
  const shown = shownAttribution(state.attribution, picker);
  // One object while nothing changes: the grid's cards are memoised on it.
  const display = useMemo(
    () => (shown === null ? null : { id: shown, opacity: state.opacity }),
    [shown, state.opacity],
  );
  return {
    /** Whether the task draws attributions at all (image tasks). */
    supported,
    picker,
    chosen: shown,
    opacity: state.opacity,
    /** What the grid and the viewer draw; null when nothing is. */
    display,
    choose: (attribution: string | null) => update(chooseAttribution(state.opacity, attribution)),
    setOpacity: (opacity: number) => update({ opacity }),
  };
}

export type AttributionDisplayController = ReturnType<typeof useAttributionDisplay>;
