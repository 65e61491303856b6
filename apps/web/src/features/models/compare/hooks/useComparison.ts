// The comparison of two models on one split, metric and value name; nothing is asked until both
// models are known and differ. Another split or metric of the same two models keeps the previous
// result on screen while it loads; another model B does not (its numbers would mislead).
import type { ComparisonRequest } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { comparisonQuery } from '../../../../api/queries/comparison';

export function useComparison(datasetId: string, body: ComparisonRequest, enabled: boolean) {
  return useQuery({
    ...comparisonQuery(datasetId, body),
    enabled,
    placeholderData: (previous) =>
      previous?.predictions_id_a === body.predictions_id_a &&
      previous.predictions_id_b === body.predictions_id_b
        ? previous
        : undefined,
  });
}
