// The IoU threshold of a detection or instance segmentation dataset.
import { useQuery } from '@tanstack/react-query';
import { iouThresholdQuery } from '../../../api/queries/datasets';

export function useIouThreshold(datasetId: string) {
  return useQuery(iouThresholdQuery(datasetId));
}
