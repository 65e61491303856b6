// What other features may use of the embeddings feature: the self-contained map view.
export { EmbeddingsView, type EmbeddingsViewProps } from './EmbeddingsView';
export { SCATTER_DRAWN_EVENT } from './ScatterCanvas';
