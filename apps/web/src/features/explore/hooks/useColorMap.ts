// The dataset's class colours (label → CSS colour); regression and speech recognition have no
// classes, so the call is skipped for them (docs/product.md, Datasets §7).
import type { TaskType } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { exploreApi } from '../../../api/explore';
import { queryKeys } from '../../../api/queryKeys';

export function useColorMap(datasetId: string, taskType: TaskType | undefined) {
  const enabled =
    taskType !== undefined &&
    taskType !== 'regression' &&
    taskType !== 'automatic_speech_recognition';
  return useQuery({
    queryKey: queryKeys.explore.colorMap(datasetId),
    queryFn: ({ signal }) => exploreApi.colorMap(datasetId, signal),
    enabled,
    select: (response) => response.color_map,
    staleTime: 60_000,
  });
}
