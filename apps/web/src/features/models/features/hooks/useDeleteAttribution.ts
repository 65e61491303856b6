// Deleting an attribution of a model (docs/product.md, Models §4): afterwards the attributions,
// the features and the model's embeddings settings (which the server reset) are read again, and
// so are the explorer's items, which name each sample's heatmaps.
import { api } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../../api/client';
import { queryKeys } from '../../../../api/queryKeys';

export function useDeleteAttribution(datasetId: string, predictionSetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      call(api.attributions.delete, {
        params: { id: datasetId, predictionSetId },
        body: { name },
      }),
    onSettled: () =>
      Promise.all(
        [
          queryKeys.attributions.all(datasetId, predictionSetId),
          queryKeys.models.features(datasetId, predictionSetId),
          queryKeys.explore.features(datasetId),
          queryKeys.embeddings.all(datasetId),
          queryKeys.explore.all(datasetId),
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
