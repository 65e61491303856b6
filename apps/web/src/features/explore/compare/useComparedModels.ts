// The comparison of two models the explorer is in, from its `compare` URL state: what every
// explore request carries (`comparison`), which model the explorer shows (the route's, A or B),
// and both models' names (the dataset's models) and colours. None outside a comparison, and none
// when the route's model is neither A nor B (the server would refuse such requests).
import type { ComparisonContext } from '@loupe/contracts';
import { useMemo } from 'react';
import { useComparedColors, type ComparedModels } from '../../../lib/comparedModels';
import { useModel } from '../../models';

export function useComparedModels(
  datasetId: string,
  predictionsId: string | undefined,
  context: ComparisonContext | null,
): ComparedModels | null {
  const idA = context?.predictions_id_a;
  const idB = context?.predictions_id_b;
  const nameA = useModel(datasetId, idA).model?.name;
  const nameB = useModel(datasetId, idB).model?.name;
  const colors = useComparedColors();
  // The context is parsed from the URL on every change of it: its text is what matters.
  const key = context ? JSON.stringify(context) : null;
  return useMemo(() => {
    if (!context || !predictionsId) return null;
    const own = predictionsId === context.predictions_id_a ? 'A' : 'B';
    if (own === 'B' && predictionsId !== context.predictions_id_b) return null;
    return {
      request: {
        predictions_id_a: context.predictions_id_a,
        predictions_id_b: context.predictions_id_b,
        split: context.split,
        metric: context.metric,
        regression_value_name: context.regression_value_name,
      },
      own,
      a: {
        key: 'A',
        id: context.predictions_id_a,
        name: nameA ?? context.predictions_id_a,
        color: colors.A,
      },
      b: {
        key: 'B',
        id: context.predictions_id_b,
        name: nameB ?? context.predictions_id_b,
        color: colors.B,
      },
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, predictionsId, nameA, nameB, colors.A, colors.B]);
}
