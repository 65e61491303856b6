// Both models on each subset enabled for performance, in one split.
import { useQuery } from '@tanstack/react-query';
import { subsetsComparisonQuery } from '../../../../api/queries/comparison';

export function useSubsetsComparison(
  datasetId: string,
  modelA: string,
  modelB: string,
  split: string,
) {
  return useQuery(
    subsetsComparisonQuery(datasetId, {
      predictions_id_a: modelA,
      predictions_id_b: modelB,
      split,
    }),
  );
}
