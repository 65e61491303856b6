// The dataset's class colours (label → CSS colour); regression and speech recognition have no
// classes, so the call is skipped for them (docs/product.md, Datasets §7).
import { TASK_TRAITS, type ColorMapResponse, type TaskType } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { colorMapQuery } from '../queries/explore';

const colorMapOf = (response: ColorMapResponse) => response.color_map;

export function useColorMap(datasetId: string, taskType: TaskType | undefined) {
  const enabled = taskType !== undefined && TASK_TRAITS[taskType].hasClassNames;
  return useQuery({ ...colorMapQuery(datasetId), enabled, select: colorMapOf });
}
