// The embeddings settings of a dataset at a data level (GET), and saving them (PUT), which makes
// the points recompute.
import type { DataLevel } from '@loupe/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateEmbeddingsSettingsRequest } from '@loupe/contracts';
import { embeddingsApi } from '../../../api/embeddings';
import { queryKeys } from '../../../api/queryKeys';

export function useEmbeddingsSettings(
  datasetId: string,
  dataLevel: DataLevel,
  predictionsId?: string,
) {
  return useQuery({
    queryKey: queryKeys.embeddings.settings(datasetId, dataLevel, predictionsId),
    queryFn: ({ signal }) =>
      embeddingsApi.settings(
        datasetId,
        { data_level: dataLevel, predictions_id: predictionsId },
        signal,
      ),
  });
}

export function useUpdateEmbeddingsSettings(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: UpdateEmbeddingsSettingsRequest) =>
      embeddingsApi.updateSettings(datasetId, update),
    onSuccess: (settings, update) => {
      queryClient.setQueryData(
        queryKeys.embeddings.settings(datasetId, update.data_level, update.predictions_id),
        settings,
      );
      return queryClient.invalidateQueries({ queryKey: queryKeys.embeddings.all(datasetId) });
    },
  });
}
