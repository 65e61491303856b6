// 2-D layouts of feature vectors for the embeddings view (UMAP, Barnes-Hut t-SNE), the kNN graph
// they share, and trustworthiness to measure how well a layout keeps neighbourhoods.
export { clusteredVectors } from './clustered-vectors.js';
export type { ClusteredVectors, ClusteredVectorsOptions } from './clustered-vectors.js';
export { knnGraph, normalizeRows } from './knn-graph.js';
export type { EmbeddingMetric, KnnGraph, KnnGraphOptions } from './knn-graph.js';
export { trustworthiness } from './trustworthiness.js';
export type { TrustworthinessOptions } from './trustworthiness.js';
export {
  findAbParams,
  umap,
  UMAP_DEFAULT_NEIGHBORS,
  UMAP_MAX_NEIGHBORS,
  UMAP_MIN_NEIGHBORS,
  validateUmapOptions,
} from './umap.js';
export type { Layout2d, UmapOptions } from './umap.js';
export {
  tsne,
  TSNE_DEFAULT_PERPLEXITY,
  TSNE_MAX_PERPLEXITY,
  TSNE_MIN_PERPLEXITY,
  validateTsneOptions,
} from './tsne.js';
export type { TsneOptions } from './tsne.js';
