// The embeddings calls (dataset-side.md §3, §7): settings, points (polled while computing) and
// similar items. The types are local until packages/contracts/src/embeddings.ts lands.
import type { DataLevel, Filter } from '@loupe/contracts';
import { request } from './client';

export type DimensionalityReductionSetting =
  | { method: 'UMAP'; num_neighbors: number }
  | { method: 'TSNE'; perplexity: number }
  | { method: 'PCA' };
export type ReductionMethod = DimensionalityReductionSetting['method'];

export interface EmbeddingsSettings {
  feature_names: string[];
  feature_name: string | null;
  dimensionality_reduction_setting: DimensionalityReductionSetting;
}

export interface EmbeddingsSettingsUpdate {
  data_level: DataLevel;
  predictions_id?: string;
  feature_name: string;
  dimensionality_reduction_setting: DimensionalityReductionSetting;
}

export type EmbeddingsLegend =
  | { type: 'categorical'; categories: { key: string; label: string; color?: string }[] }
  | { type: 'continuous'; min: number; max: number };

export interface EmbeddingPointsRequest {
  data_level: DataLevel;
  predictions_id?: string;
  feature_name?: string | null;
  dimensionality_reduction_setting?: DimensionalityReductionSetting;
  filter?: Filter | null;
  color_by?: string | null;
  include_missing?: boolean;
}

export interface EmbeddingPointsResponse {
  status: 'computing' | 'ready' | 'failed';
  /** 0..1 while computing, when the server knows it. */
  progress?: number | null;
  /** 'id|x|y|colorKey' per point; colorKey may be empty (missing). */
  points: string[];
  legend: EmbeddingsLegend | null;
  num_missing: number;
  description?: string;
}

export interface SimilarItemsRequest {
  data_level: DataLevel;
  item_ids: string[];
  feature_name: string;
  predictions_id?: string;
  limit?: number;
}

export interface SimilarItemsResponse {
  status: 'computing' | 'ready';
  /** Query items that lack the feature and were left out. */
  num_ignored: number;
  items: { id: string; score: number }[];
}

const base = (datasetId: string) => `/api/datasets/${encodeURIComponent(datasetId)}/embeddings`;

export const embeddingsApi = {
  settings: (
    datasetId: string,
    query: { data_level: DataLevel; predictions_id?: string },
    signal?: AbortSignal,
  ) => request<EmbeddingsSettings>('GET', `${base(datasetId)}/settings`, { query, signal }),
  updateSettings: (datasetId: string, body: EmbeddingsSettingsUpdate) =>
    request<EmbeddingsSettings>('PUT', `${base(datasetId)}/settings`, { body }),
  points: (datasetId: string, body: EmbeddingPointsRequest, signal?: AbortSignal) =>
    request<EmbeddingPointsResponse>('POST', `${base(datasetId)}/points`, { body, signal }),
  similarItems: (datasetId: string, body: SimilarItemsRequest, signal?: AbortSignal) =>
    request<SimilarItemsResponse>('POST', `${base(datasetId)}/similar_items`, { body, signal }),
};
