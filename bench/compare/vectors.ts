// Vector cases: exact top-k and HNSW against faiss, PCA against scikit-learn, UMAP against
// umap-learn, each on bench/embeddings' generated data (clustered float32 vectors).
import {
  createAnnIndex,
  createExactIndex,
  createRandom,
  pca,
  trustworthiness,
  umap,
  type DistanceMetric,
} from '@loupe/analysis';
import { clusteredData } from '../embeddings/ann-data.js';
import { benchmarkData, DIMENSION } from '../embeddings/layout-bench.js';
import {
  caseFolder,
  once,
  readArray,
  report,
  runReference,
  timed,
  writeArray,
  type Times,
} from './harness.js';

const D = Number(process.env.D ?? 128);
const K = Number(process.env.K ?? 50);
const QUERIES = Number(process.env.QUERIES ?? 20);
const KNN_N = Number(process.env.KNN_N ?? 1_000_000);
const ANN_N = Number(process.env.ANN_N ?? 100_000);
const PCA_N = Number(process.env.PCA_N ?? 1_000_000);
const PCA_RUNS = Number(process.env.PCA_RUNS ?? 3);
const UMAP_N = Number(process.env.UMAP_N ?? 60_000);
/** Threads for UMAP (default: the cores, at most 8). */
const UMAP_THREADS = process.env.UMAP_THREADS ? Number(process.env.UMAP_THREADS) : undefined;
/**
 * umap-learn at 60,000 × 64 as recorded in issue 21 on the standard machine (defaults, two
 * numba threads), for when umap-learn cannot run here: not measured in the same run.
 */
const UMAP_LEARN_RECORDED = { n: 60_000, wall_ms: 24_300, cpu_ms: 43_200 };

const label = (n: number) => n.toLocaleString('en');

/** n clustered vectors and QUERIES queries, half data points moved by N(0, 0.3²), half fresh points. */
function vectorsAndQueries(n: number): { vectors: Float32Array; queries: Float32Array } {
  const { vectors } = clusteredData(n, D, 1000, 2);
  const fresh = clusteredData(QUERIES, D, 1000, 2).vectors;
  const random = createRandom(3);
  const queries = new Float32Array(QUERIES * D);
  for (let q = 0; q < QUERIES; q++) {
    const source = q % 2 === 0 ? random.int(0, n - 1) : -1;
    for (let j = 0; j < D; j++) {
      queries[q * D + j] =
        source >= 0 ? vectors[source * D + j]! + random.normal() * 0.3 : fresh[q * D + j]!;
    }
  }
  return { vectors, queries };
}

/** p50 wall and CPU of one search per query (after a warm-up), and every query's ids. */
function perQuery(search: (query: Float32Array) => Uint32Array, queries: Float32Array) {
  search(queries.subarray(0, D));
  const walls: number[] = [];
  const cpus: number[] = [];
  const ids: Uint32Array[] = [];
  for (let q = 0; q < queries.length / D; q++) {
    const t = once(() => search(queries.subarray(q * D, (q + 1) * D)));
    walls.push(t.wall_ms);
    cpus.push(t.cpu_ms);
    ids.push(t.result);
  }
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  return { wall_ms: mid(walls), cpu_ms: mid(cpus), ids };
}

/** Share of `truth`'s ids (k per query) that `found` has too. */
function recall(found: ArrayLike<number>[], truth: ArrayLike<number>[]): number {
  let hit = 0;
  let all = 0;
  truth.forEach((expected, q) => {
    const set = new Set(Array.from(expected));
    for (const id of Array.from(found[q]!)) if (set.has(id)) hit++;
    all += expected.length;
  });
  return hit / all;
}

function rowsOf(dir: string, name: string, k: number): Uint32Array[] {
  const all = readArray(dir, name, Uint32Array);
  return Array.from({ length: all.length / k }, (_, q) => all.subarray(q * k, (q + 1) * k));
}

export function knnCase(): void {
  const { vectors, queries } = vectorsAndQueries(KNN_N);
  const folder = caseFolder('knn');
  try {
    writeArray(folder.dir, 'vectors.f32', vectors);
    writeArray(folder.dir, 'queries.f32', queries);
    for (const metric of ['cosine', 'euclidean'] as DistanceMetric[]) {
      const index = createExactIndex(vectors, { dimension: D, metric });
      const loupe = perQuery((query) => index.search(query, K).ids, queries);
      const reference = runReference<Times>('knn', 'faiss', folder.dir, {
        n: KNN_N,
        d: D,
        k: K,
        metric,
      });
      let quality = `top-${K}`;
      if (!('missing' in reference)) {
        const truth = rowsOf(folder.dir, 'knn.ref', K);
        const same = truth.filter((t, q) => String(t) === String(loupe.ids[q])).length;
        quality =
          `Loupe's top-${K} has ${(recall(loupe.ids, truth) * 100).toFixed(2)} % of faiss's ids; ` +
          `the same list in ${same} of ${QUERIES} queries (float32 vs float64 ranking may swap near-ties)`;
      }
      report({
        step: `exact top-${K}, ${metric}, ${label(KNN_N)} × ${D}, p50 of ${QUERIES} queries`,
        loupe,
        ...('missing' in reference ? { missing: reference.missing } : { reference }),
        quality,
      });
    }
  } finally {
    folder.dispose();
  }
}

export function annCase(): void {
  const { vectors, queries } = vectorsAndQueries(ANN_N);
  const folder = caseFolder('ann');
  try {
    writeArray(folder.dir, 'vectors.f32', vectors);
    writeArray(folder.dir, 'queries.f32', queries);
    const settings = { connectivity: 16, expansionAdd: 128, expansionSearch: 128 };
    // The truth: the plain JavaScript scan, which no native code touches.
    const exact = createExactIndex(vectors, { dimension: D, metric: 'cosine', native: false });
    const truth = perQuery((query) => exact.search(query, K).ids, queries).ids;
    const index = createAnnIndex({ dimension: D, metric: 'cosine', ...settings });
    const build = once(() =>
      index.add(
        Uint32Array.from({ length: ANN_N }, (_, i) => i),
        vectors,
      ),
    );
    const loupe = perQuery((query) => index.search(query, K).ids, queries);
    const reference = runReference<Times & { build_wall_ms: number; build_cpu_ms: number }>(
      'ann',
      'faiss',
      folder.dir,
      {
        n: ANN_N,
        d: D,
        k: K,
        connectivity: settings.connectivity,
        expansion_add: settings.expansionAdd,
        expansion_search: settings.expansionSearch,
      },
    );
    const ours = `Loupe (usearch HNSW) recall@${K} ${recall(loupe.ids, truth).toFixed(4)}`;
    const theirs =
      'missing' in reference
        ? ''
        : `, faiss ${recall(rowsOf(folder.dir, 'ann.ref', K), truth).toFixed(4)}`;
    const graph = `M ${settings.connectivity}, expansion ${settings.expansionAdd} / ${settings.expansionSearch}`;
    report({
      step: `ANN build, cosine, ${label(ANN_N)} × ${D} (${graph}, all cores)`,
      loupe: build,
      ...('missing' in reference
        ? { missing: reference.missing }
        : {
            reference: {
              library: reference.library,
              wall_ms: reference.build_wall_ms,
              cpu_ms: reference.build_cpu_ms,
            },
          }),
      quality: `${ours}${theirs} against exact search`,
    });
    report({
      step: `ANN top-${K}, cosine, ${label(ANN_N)} × ${D}, one thread, p50 of ${QUERIES} queries`,
      loupe,
      ...('missing' in reference ? { missing: reference.missing } : { reference }),
      quality: `${ours}${theirs} against exact search`,
    });
  } finally {
    folder.dispose();
  }
}

export function pcaCase(): void {
  const { vectors } = clusteredData(PCA_N, D, 200, 1);
  const folder = caseFolder('pca');
  try {
    writeArray(folder.dir, 'vectors.f32', vectors);
    const loupe = timed(() => pca(vectors, PCA_N, D, { components: 2 }), PCA_RUNS, {
      warm: false,
    });
    const reference = runReference<Times & { explained_variance_ratio: number[] }>(
      'pca',
      'sklearn',
      folder.dir,
      { n: PCA_N, d: D, components: 2, solver: 'auto', runs: PCA_RUNS },
    );
    const ours = loupe.result;
    let quality = `explained variance ${Array.from(ours.explainedVarianceRatio, (r) => r.toFixed(4)).join(', ')}`;
    if (!('missing' in reference)) {
      const theirs = readArray(folder.dir, 'components.ref', Float64Array);
      const cosines = [0, 1].map((c) => {
        let dot = 0;
        for (let j = 0; j < D; j++) dot += ours.components[c * D + j]! * theirs[c * D + j]!;
        return Math.abs(dot).toFixed(6);
      });
      quality =
        `|cos| between the components ${cosines.join(', ')}; explained variance ratio ` +
        `${Array.from(ours.explainedVarianceRatio, (r) => r.toFixed(4)).join(', ')} vs ` +
        `${reference.explained_variance_ratio.map((r) => r.toFixed(4)).join(', ')}`;
    }
    report({
      step: `PCA to 2-D, ${label(PCA_N)} × ${D} (Loupe ${ours.method}), p50 of ${PCA_RUNS} runs`,
      loupe,
      ...('missing' in reference ? { missing: reference.missing } : { reference }),
      quality,
    });
  } finally {
    folder.dispose();
  }
}

export function umapCase(): void {
  const data = benchmarkData(UMAP_N);
  const folder = caseFolder('umap');
  try {
    writeArray(folder.dir, 'vectors.f32', data.data);
    const loupe = once(() => umap(data.data, DIMENSION, { seed: 1, threads: UMAP_THREADS }));
    const sample = Math.min(UMAP_N, 2000);
    const score = (coordinates: Float32Array) =>
      trustworthiness(data.data, DIMENSION, coordinates, 2, { k: 15, sample, seed: 2 }).toFixed(4);
    const reference = runReference<Times>('umap', 'umap', folder.dir, {
      n: UMAP_N,
      d: DIMENSION,
      seed: 1,
    });
    let quality = `trustworthiness (k = 15, ${sample} points) Loupe ${score(loupe.result.coordinates)}`;
    if (!('missing' in reference)) {
      const theirs = readArray(folder.dir, 'layout.ref', Float32Array);
      quality += `, umap-learn ${score(theirs)}`;
    } else if (UMAP_N === UMAP_LEARN_RECORDED.n) {
      const { wall_ms, cpu_ms } = UMAP_LEARN_RECORDED;
      const s = (x: number) => `${(x / 1000).toFixed(1)} s`;
      quality +=
        `\n  recorded   umap-learn ${s(wall_ms)} wall, ${s(cpu_ms)} CPU (issue 21, two numba threads;` +
        ` NOT this run): ${(wall_ms / loupe.wall_ms).toFixed(2)}× wall, ` +
        `${(cpu_ms / loupe.cpu_ms).toFixed(2)}× CPU (umap-learn ÷ Loupe)`;
    }
    report({
      step: `UMAP to 2-D, ${label(UMAP_N)} × ${DIMENSION}, defaults (15 neighbours), ${UMAP_THREADS ?? 'all'} threads, one run`,
      loupe,
      ...('missing' in reference ? { missing: reference.missing } : { reference }),
      quality,
    });
  } finally {
    folder.dispose();
  }
}
