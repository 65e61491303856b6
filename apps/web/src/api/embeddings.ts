// The embeddings calls (docs/product.md, Datasets §3, §7): settings, points (polled while computing) and
// similar items, typed by packages/contracts/src/embeddings.ts.
import type {
  DataLevel,
  DimensionalityReductionSetting,
  EmbeddingPointsRequest,
  EmbeddingPointsResponse,
  EmbeddingsSettings,
  SimilarItemsRequest,
  SimilarItemsResponse,
  UpdateEmbeddingsSettingsRequest,
} from '@loupe/contracts';
import { request } from './client';

export type {
  DimensionalityReductionSetting,
  EmbeddingPointsRequest,
  EmbeddingPointsResponse,
  EmbeddingsLegend,
  EmbeddingsSettings,
  SimilarItemsRequest,
  SimilarItemsResponse,
} from '@loupe/contracts';
export type ReductionMethod = DimensionalityReductionSetting['method'];

const base = (datasetId: string) => `/api/datasets/${encodeURIComponent(datasetId)}`;

export const embeddingsApi = {
  settings: (
    datasetId: string,
    query: { data_level: DataLevel; predictions_id?: string },
    signal?: AbortSignal,
  ) =>
    request<EmbeddingsSettings>('GET', `${base(datasetId)}/embeddings/settings`, {
      query,
      signal,
    }),
  updateSettings: (datasetId: string, body: UpdateEmbeddingsSettingsRequest) =>
    request<EmbeddingsSettings>('PUT', `${base(datasetId)}/embeddings/settings`, { body }),
  points: (datasetId: string, body: EmbeddingPointsRequest, signal?: AbortSignal) =>
    request<EmbeddingPointsResponse>('POST', `${base(datasetId)}/embeddings/points`, {
      body,
      signal,
    }),
  similarItems: (datasetId: string, body: SimilarItemsRequest, signal?: AbortSignal) =>
    request<SimilarItemsResponse>('POST', `${base(datasetId)}/similar_items`, { body, signal }),
};
