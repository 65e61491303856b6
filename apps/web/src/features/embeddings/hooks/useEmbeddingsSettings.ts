// The embeddings settings of a dataset at a data level (GET), and saving them (PUT), which makes
// the points recompute.
import { api, type DataLevel, type UpdateEmbeddingsSettingsRequest } from '@loupe/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { embeddingsSettingsQuery } from '../../../api/queries/embeddings';
import { queryKeys } from '../../../api/queryKeys';

export function useEmbeddingsSettings(
  datasetId: string,
  dataLevel: DataLevel,
  predictionsId?: string,
) {
  return useQuery(embeddingsSettingsQuery(datasetId, dataLevel, predictionsId));
}

export function useUpdateEmbeddingsSettings(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: UpdateEmbeddingsSettingsRequest) =>
      call(api.embeddings.updateSettings, { params: { id: datasetId }, body: update }),
    onSuccess: (settings, update) => {
      queryClient.setQueryData(
        embeddingsSettingsQuery(datasetId, update.data_level, update.predictions_id).queryKey,
        settings,
      );
      return queryClient.invalidateQueries({ queryKey: queryKeys.embeddings.all(datasetId) });
    },
  });
}
