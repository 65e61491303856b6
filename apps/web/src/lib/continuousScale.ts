// The continuous colour scale of docs/product.md, Datasets §9 (200 steps). It lives in the contracts
// beside the categorical palette, so the grid, the embeddings map and the server agree on it.
export { CONTINUOUS_STEPS, continuousStep, continuousStepColor } from '@loupe/contracts';
