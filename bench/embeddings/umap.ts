// UMAP benchmark (issue 7): 2-D layout of 60,000 generated 64-D vectors (see layout-bench.ts)
// with default parameters, trustworthiness (k = 15) on a 5,000-point sample. Prints wall and CPU
// time and the ratios to the targets; never fails on time.
// Run: npx tsx --conditions=loupe-src bench/embeddings/umap.ts (N=…, SAMPLE=… for other sizes)
import { knnGraph, umap, UMAP_DEFAULT_NEIGHBORS } from '@loupe/analysis';
import {
  benchmarkData,
  describeMachine,
  DIMENSION,
  sampledTrustworthiness,
  seconds,
  timed,
} from './layout-bench.js';

const N = Number(process.env.N ?? 60_000);
const SAMPLE = Math.min(N, Number(process.env.SAMPLE ?? 5_000));
const TARGET_SECONDS = 55; // umap-learn on the same machine: 55 s, trustworthiness 0.979
const TARGET_TRUSTWORTHINESS = 0.97;

console.log(`UMAP of ${N} × ${DIMENSION} vectors; ${describeMachine()}`);
const data = benchmarkData(N);
const knn = timed(() => knnGraph(data.data, DIMENSION, { k: UMAP_DEFAULT_NEIGHBORS - 1, seed: 1 }));
console.log(
  `  kNN graph (k = ${UMAP_DEFAULT_NEIGHBORS - 1}, ${knn.result.exact ? 'exact' : 'NN-descent'}): ${seconds(knn.wall)} wall, ${seconds(knn.cpu)} CPU`,
);
const layout = timed(() => umap(data.data, DIMENSION, { knn: knn.result, seed: 1 }));
console.log(
  `  fuzzy set, spectral init, SGD: ${seconds(layout.wall)} wall, ${seconds(layout.cpu)} CPU`,
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
