// Barnes-Hut t-SNE benchmark (issue 7): 2-D layout of 20,000 generated 64-D vectors (see
// layout-bench.ts), perplexity 30, 1,000 iterations, trustworthiness (k = 15) on a 5,000-point
// sample. Prints wall and CPU time and the ratios to the targets; never fails on time.
// Run: npx tsx --conditions=loupe-src bench/embeddings/tsne.ts (N=…, SAMPLE=… for other sizes)
import { knnGraph, TSNE_DEFAULT_PERPLEXITY, tsne } from '@loupe/analysis';
import {
  benchmarkData,
  describeMachine,
  DIMENSION,
  sampledTrustworthiness,
  seconds,
  timed,
} from './layout-bench.js';

const N = Number(process.env.N ?? 20_000);
const SAMPLE = Math.min(N, Number(process.env.SAMPLE ?? 5_000));
const TARGET_SECONDS = 120; // scikit-learn Barnes-Hut on the same machine: 304 s, 0.989
const TARGET_TRUSTWORTHINESS = 0.98;

console.log(`t-SNE of ${N} × ${DIMENSION} vectors; ${describeMachine()}`);
const data = benchmarkData(N);
const k = Math.min(N - 1, Math.floor(3 * TSNE_DEFAULT_PERPLEXITY + 1));
const knn = timed(() => knnGraph(data.data, DIMENSION, { k, seed: 1 }));
console.log(
  `  kNN graph (k = ${k}, ${knn.result.exact ? 'exact' : 'NN-descent'}): ${seconds(knn.wall)} wall, ${seconds(knn.cpu)} CPU`,
);
const layout = timed(() => tsne(data.data, DIMENSION, { knn: knn.result, seed: 1 }));
console.log(
  `  affinities and 1,000 iterations: ${seconds(layout.wall)} wall, ${seconds(layout.cpu)} CPU`,
);
const wall = knn.wall + layout.wall;
const cpu = knn.cpu + layout.cpu;
console.log(
  `  total: ${seconds(wall)} wall (${(wall / TARGET_SECONDS).toFixed(2)}× the ${TARGET_SECONDS} s target), ${seconds(cpu)} CPU (${(cpu / TARGET_SECONDS).toFixed(2)}×)`,
);
const t = sampledTrustworthiness(data, layout.result.coordinates, SAMPLE);
console.log(
  `  trustworthiness (k = 15, ${SAMPLE} points): ${t.result.toFixed(4)} (target ≥ ${TARGET_TRUSTWORTHINESS}: ${t.result >= TARGET_TRUSTWORTHINESS ? 'met' : 'NOT met'}), computed in ${seconds(t.wall)}`,
);
console.log(`  load average after: ${describeMachine().split('load average ')[1]}`);
