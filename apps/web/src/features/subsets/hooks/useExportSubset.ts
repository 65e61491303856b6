// A subset's download links: GET …/subsets/{subsetId}/export?format=… answers a zip, so a plain
// <a href download> fetches it with the session cookie (and the model's predictions on a model
// route). COCO is offered only to tasks whose samples carry objects.
import { api, queryString, routePath, type ExportFormat, type TaskType } from '@loupe/contracts';
import { useMemo } from 'react';
import { exportFormats } from '../subsetRules';

export interface ExportChoice {
  format: ExportFormat;
  enabled: boolean;
  href: string;
}

export function useExportSubset(args: {
  datasetId: string;
  subsetId: string;
  taskType: TaskType;
  predictionsId?: string;
}): ExportChoice[] {
  const { datasetId, subsetId, taskType, predictionsId } = args;
  return useMemo(
    () =>
      exportFormats(taskType).map(({ format, enabled }) => ({
        format,
        enabled,
        href:
          routePath(api.subsets.export, { id: datasetId, subsetId }) +
          queryString({ format, predictions_id: predictionsId }),
      })),
    [datasetId, subsetId, taskType, predictionsId],
  );
}
