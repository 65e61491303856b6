// The dataset calls of docs/product.md, Datasets §7 that the list and the overview make.
import type { Dataset, HistoryRecord, IouThreshold, Ok, ThumbnailConfig } from '@loupe/contracts';
import { http } from './client';

export type ThumbnailSettings = ReturnType<(typeof ThumbnailConfig)['parse']>;
export type IouThresholdSettings = ReturnType<(typeof IouThreshold)['parse']>;

const base = (datasetId: string) => `/api/datasets/${encodeURIComponent(datasetId)}`;

export const datasetsApi = {
  getDataset: (datasetId: string, signal?: AbortSignal) =>
    http.get<Dataset>(base(datasetId), { signal }),
  deleteDataset: (datasetId: string) => http.delete<Ok>(base(datasetId)),
  getHistory: (datasetId: string, signal?: AbortSignal) =>
    http.get<HistoryRecord[]>(`${base(datasetId)}/history`, { signal }),
  getThumbnails: (datasetId: string, signal?: AbortSignal) =>
    http.get<ThumbnailSettings>(`${base(datasetId)}/thumbnails`, { signal }),
  setThumbnails: (datasetId: string, enabled: boolean) =>
    http.put<ThumbnailSettings>(`${base(datasetId)}/thumbnails`, { enabled }),
  getIouThreshold: (datasetId: string, signal?: AbortSignal) =>
    http.get<IouThresholdSettings>(`${base(datasetId)}/iou_threshold`, { signal }),
  setIouThreshold: (datasetId: string, iouThreshold: number) =>
    http.put<IouThresholdSettings>(`${base(datasetId)}/iou_threshold`, {
      iou_threshold: iouThreshold,
    }),
};
