// Nearest-neighbour benchmark (issue 7): clustered float32 vectors (default 1,000,000 × 128).
// Exact top-50 by brute force (cosine and euclidean), the approximate index (build time, memory,
// serialized size, query latency and recall@50 against exact search) and all-points kNN on a
// small set as UMAP and t-SNE use it. Prints wall and CPU time and ratios to the targets; never
// fails on time.
// Run: npx tsx --conditions=loupe-src bench/embeddings/neighbours.ts
//   N=… D=… (data size), QUERIES=… (default 50), K=… (default 50), ALL_N=… (default 10000),
//   METRICS=cosine,euclidean (ANN metrics to build, default cosine), SKIP_ANN=1,
//   M=…, EF_ADD=…, EF_SEARCH=… (graph settings; the index's defaults when unset),
//   WIDER=512,1024 (also search the loaded graph with these expansionSearch values)
import os from 'node:os';
import {
  allNearestNeighbours,
  createAnnIndex,
  createExactIndex,
  createRandom,
  loadAnnIndex,
  type DistanceMetric,
} from '@loupe/analysis';
import { clusteredData, mb, ms, quantile, time } from './ann-data.js';

const N = Number(process.env.N ?? 1_000_000);
const D = Number(process.env.D ?? 128);
const QUERIES = Number(process.env.QUERIES ?? 50);
const K = Number(process.env.K ?? 50);
const ALL_N = Number(process.env.ALL_N ?? 10_000);
const METRICS = (process.env.METRICS ?? 'cosine').split(',') as DistanceMetric[];
const graph = {
  ...(process.env.M ? { connectivity: Number(process.env.M) } : {}),
  ...(process.env.EF_ADD ? { expansionAdd: Number(process.env.EF_ADD) } : {}),
  ...(process.env.EF_SEARCH ? { expansionSearch: Number(process.env.EF_SEARCH) } : {}),
};
/** Search widths to try on the loaded graph (WIDER=512,1024; none by default). */
const WIDER = (process.env.WIDER ?? '').split(',').filter(Boolean).map(Number);
const EXACT_TARGET_MS = 150;
const ANN_TARGET_MS = 10;

const load = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`Nearest-neighbour benchmark: ${N.toLocaleString('en')} × ${D} float32, top-${K}`);
console.log(`load average ${load()}, ${os.cpus().length} cores`);
const generated = time(() => clusteredData(N, D, 1000, 2));
const { vectors } = generated.result;
console.log(`data generated in ${ms(generated.ms)} (${mb(vectors.byteLength)})`);

// Queries: half are data points moved a little ("find similar" from an item), half fresh points.
const random = createRandom(3);
const queries = new Float32Array(QUERIES * D);
const fresh = clusteredData(QUERIES, D, 1000, 2).vectors; // same centres as the data (same seed)
for (let q = 0; q < QUERIES; q++) {
  const source = q % 2 === 0 ? random.int(0, N - 1) : -1;
  for (let j = 0; j < D; j++) {
    queries[q * D + j] =
      source >= 0 ? vectors[source * D + j]! + random.normal() * 0.3 : fresh[q * D + j]!;
  }
}
const query = (q: number): Float32Array => queries.subarray(q * D, (q + 1) * D);

const truth = new Map<DistanceMetric, Uint32Array[]>();
for (const metric of ['cosine', 'euclidean'] as const) {
  const prepared = time(() => createExactIndex(vectors, { dimension: D, metric }));
  const index = prepared.result;
  index.search(query(0), K); // warm-up
  const walls: number[] = [];
  const cpus: number[] = [];
  const answers: Uint32Array[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const run = time(() => index.search(query(q), K));
    walls.push(run.ms);
    cpus.push(run.cpu);
    answers.push(run.result.ids);
  }
  truth.set(metric, answers);
  // The truth of every recall figure below: checked against the plain JavaScript scan, which no
  // native code touches (a native pass once returned other queries' neighbours here).
  const scan = createExactIndex(vectors, { dimension: D, metric, native: false });
  let agree = 0;
  for (let q = 0; q < QUERIES; q++) {
    if (String(scan.search(query(q), K).ids) === String(answers[q])) agree++;
  }
  console.log(
    `exact ${metric.padEnd(9)} top-${K} equal to the JavaScript scan's: ${agree} of ${QUERIES} queries`,
  );
  console.log(
    `exact ${metric.padEnd(9)} prepare ${ms(prepared.ms)}; per query p50 wall ${ms(quantile(walls, 0.5))}` +
      ` (p90 ${ms(quantile(walls, 0.9))}), p50 CPU ${ms(quantile(cpus, 0.5))};` +
      ` p50 wall/target ${(quantile(walls, 0.5) / EXACT_TARGET_MS).toFixed(2)},` +
      ` p50 CPU/target ${(quantile(cpus, 0.5) / EXACT_TARGET_MS).toFixed(2)}`,
  );
}

if (process.env.SKIP_ANN !== '1') {
  for (const metric of METRICS) {
    const rssBefore = process.memoryUsage().rss;
    const index = createAnnIndex({ dimension: D, metric, ...graph });
    console.log(`ANN ${metric} graph settings: ${JSON.stringify(graph)} (unset = defaults)`);
    const ids = Uint32Array.from({ length: N }, (_, i) => i);
    const built = time(() => index.add(ids, vectors));
    const rssAfter = process.memoryUsage().rss;
    console.log(
      `ANN ${metric} build: wall ${(built.ms / 1000).toFixed(1)} s, CPU ${(built.cpu / 1000).toFixed(1)} s` +
        ` (all threads), rss +${mb(rssAfter - rssBefore)} (now ${mb(rssAfter)}), load ${load()}`,
    );
    const answers = truth.get(metric)!;
    const measure = (label: string, searchIndex: typeof index): void => {
      searchIndex.search(query(0), K); // warm-up
      const walls: number[] = [];
      const cpus: number[] = [];
      let found = 0;
      for (let q = 0; q < QUERIES; q++) {
        const run = time(() => searchIndex.search(query(q), K));
        walls.push(run.ms);
        cpus.push(run.cpu);
        const expected = new Set(answers[q]);
        for (const id of run.result.ids) if (expected.has(id)) found++;
      }
      const recall = found / (QUERIES * K);
      console.log(
        `ANN ${metric} ${label}: per query p50 wall ${ms(quantile(walls, 0.5))} (p90 ${ms(quantile(walls, 0.9))}),` +
          ` p50 CPU ${ms(quantile(cpus, 0.5))}; p50 wall/target ${(quantile(walls, 0.5) / ANN_TARGET_MS).toFixed(2)};` +
          ` recall@${K} ${recall.toFixed(4)} (target 0.95)`,
      );
    };
    measure('search', index);
    const serialized = time(() => index.serialize());
    console.log(
      `ANN ${metric} serialize: ${ms(serialized.ms)}, ${mb(serialized.result.byteLength)}` +
        ` (${(serialized.result.byteLength / N).toFixed(0)} bytes a vector)`,
    );
    const loaded = time(() => loadAnnIndex(serialized.result));
    console.log(`ANN ${metric} load: ${ms(loaded.ms)}, size ${loaded.result.size}`);
    measure('search after load', loaded.result);
    // The same graph searched wider: recall against latency, without a rebuild.
    for (const expansionSearch of WIDER) {
      const wider = loadAnnIndex(serialized.result, { expansionSearch });
      measure(`search with expansionSearch ${expansionSearch}`, wider);
    }
    const extra = clusteredData(10_000, D, 1000, 4).vectors;
    const added = time(() =>
      loaded.result.add(
        Uint32Array.from({ length: 10_000 }, (_, i) => N + i),
        extra,
      ),
    );
    console.log(
      `ANN ${metric} add 10,000 more after load: wall ${ms(added.ms)}, CPU ${ms(added.cpu)}`,
    );
  }
}

if (ALL_N > 0) {
  const small = vectors.subarray(0, Math.min(ALL_N, N) * D);
  const n = small.length / D;
  const all = time(() => allNearestNeighbours(small, 15, { dimension: D, metric: 'euclidean' }));
  console.log(
    `all-points 15-NN of ${n.toLocaleString('en')} × ${D} (euclidean): wall ${(all.ms / 1000).toFixed(1)} s,` +
      ` CPU ${(all.cpu / 1000).toFixed(1)} s`,
  );
}
console.log(`rss ${mb(process.memoryUsage().rss)}, load average ${load()}`);
