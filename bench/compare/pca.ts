// PCA at high dimension against scikit-learn (issue 21): 60,000 × 784 float32 rows shaped like
// MNIST (28 × 28 "images" whose principal directions are Kronecker products of two seeded random
// rotations, variances (1 + i/8)^−1.6, plus a mean), reduced to 64 and to 2 dimensions. Loupe's
// `pca` runs 'auto', 'exact' and 'randomized'; reference.py runs scikit-learn's PCA 'auto'
// (randomized at these sizes) and 'full' on the same rows, each fit and transform. Both sides
// warm up once, then report the p50 of PCA_WIDE_RUNS runs. The check is each result's subspace
// cos² (mean squared cosine of the k reference directions with the span of the k components)
// against numpy's float64 eigh of the sample covariance, and the largest relative difference
// of the explained variances from its eigenvalues.
// Env: PCA_WIDE_N (60,000), PCA_WIDE_D (784), PCA_WIDE_K (64,2), PCA_WIDE_RUNS (3).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createRandom, pca, type PcaResult } from '@loupe/analysis';
import {
  caseFolder,
  readArray,
  report,
  runReference,
  timed,
  type Reference,
  writeArray,
  type Times,
} from './harness.js';

const N = Number(process.env.PCA_WIDE_N ?? 60_000);
const D = Number(process.env.PCA_WIDE_D ?? 784);
const KS = (process.env.PCA_WIDE_K ?? '64,2').split(',').map(Number);
const RUNS = Number(process.env.PCA_WIDE_RUNS ?? 3);
const SEED = 1;

type Random = ReturnType<typeof createRandom>;

/** d × d orthogonal matrix (rows), Gram–Schmidt on Gaussian vectors. */
function rotation(d: number, random: Random): Float64Array {
  const q = new Float64Array(d * d);
  for (let r = 0; r < d; r++) {
    for (let j = 0; j < d; j++) q[r * d + j] = random.normal();
    for (let pass = 0; pass < 2; pass++) {
      for (let s = 0; s < r; s++) {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += q[r * d + j]! * q[s * d + j]!;
        for (let j = 0; j < d; j++) q[r * d + j]! -= dot * q[s * d + j]!;
      }
    }
    let norm = 0;
    for (let j = 0; j < d; j++) norm += q[r * d + j]! ** 2;
    for (let j = 0; j < d; j++) q[r * d + j]! /= Math.sqrt(norm);
  }
  return q;
}

/**
 * n rows x = mean + Σ_i √λ_i z_i (a_i ⊗ b_i), z standard normal, λ_i = (1 + i/8)^−1.6 (the
 * top 2 hold 14 % of the variance, the top 64 79 %): directions are Kronecker products of two
 * rotations' rows (d = p · q, p as close to √d as divides it), so a row costs 2·p·q·(p + q)
 * multiply-adds instead of d². The same rows as bench/embeddings/pca.ts (same seed and file,
 * which holds the generator's top `keep` directions after the rows), so either script reuses
 * the other's copy in the temporary folder.
 */
function generate(n: number, d: number, keep: number): Float32Array {
  const file = join(os.tmpdir(), `loupe-pca-bench-${n}x${d}-top${keep}-seed${SEED}.bin`);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * d * 4));
  }
  const random = createRandom(SEED);
  let p = Math.floor(Math.sqrt(d));
  while (d % p !== 0) p--;
  const q = d / p;
  const a = rotation(p, random);
  const b = rotation(q, random);
  const sigma = Float64Array.from({ length: d }, (_, i) => Math.sqrt((1 + i / 8) ** -1.6));
  const mean = Float64Array.from({ length: d }, () => 0.5 + random.next());
  const data = new Float32Array(n * d);
  const s = new Float64Array(d); // latent, as a p × q matrix S; x = Aᵀ·S·B (as p × q)
  const t = new Float64Array(d);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < d; i++) s[i] = sigma[i]! * random.normal();
    t.fill(0);
    for (let w = 0; w < p; w++) {
      for (let u = 0; u < p; u++) {
        const weight = a[w * p + u]!;
        for (let v = 0; v < q; v++) t[u * q + v]! += weight * s[w * q + v]!;
      }
    }
    const o = r * d;
    for (let u = 0; u < p; u++) {
      for (let v = 0; v < q; v++) {
        let sum = 0;
        for (let w = 0; w < q; w++) sum += t[u * q + w]! * b[w * q + v]!;
        data[o + u * q + v] = mean[u * q + v]! + sum;
      }
    }
  }
  const truth = new Float64Array(keep * d);
  for (let i = 0; i < keep; i++) {
    const w = Math.floor(i / q);
    const v = i % q;
    for (let u = 0; u < p; u++) {
      for (let x = 0; x < q; x++) truth[i * d + u * q + x] = a[w * p + u]! * b[v * q + x]!;
    }
  }
  writeFileSync(file, Buffer.concat([new Uint8Array(data.buffer), new Uint8Array(truth.buffer)]));
  return data;
}

/**
 * 1 − mean over the k reference directions of their squared cosine with span(components), the
 * components re-normalised in float64 first (float32 rounding alone moves a norm by 1e-8).
 */
function subspaceError(components: ArrayLike<number>, reference: Float64Array, k: number): number {
  let sum = 0;
  for (let a = 0; a < k; a++) {
    let norm = 0;
    for (let j = 0; j < D; j++) norm += components[a * D + j]! ** 2;
    for (let b = 0; b < k; b++) {
      let dot = 0;
      for (let j = 0; j < D; j++) dot += components[a * D + j]! * reference[b * D + j]!;
      sum += (dot * dot) / norm;
    }
  }
  return 1 - sum / k;
}

/** Largest |variance / reference − 1| over the k components. */
function varianceError(variances: ArrayLike<number>, reference: Float64Array, k: number): number {
  let worst = 0;
  for (let c = 0; c < k; c++) worst = Math.max(worst, Math.abs(variances[c]! / reference[c]! - 1));
  return worst;
}

interface SklearnRun extends Times {
  k: number;
  solver: string;
  ran: string;
  explained_variance: number[];
}

interface SklearnAnswer {
  runs: SklearnRun[];
  reference_variance: number[];
}

const exp = (x: number) => (Math.abs(x) < 1e-17 ? '0' : x.toExponential(1));

export function pcaWideCase(): void {
  const keep = Math.max(...KS);
  const data = generate(N, D, keep);
  const folder = caseFolder('pca-wide');
  try {
    writeArray(folder.dir, 'vectors.f32', data);
    // One warm-up (module compilation, first worker threads) before every timed run.
    pca(data, N, D, { components: 2 });
    // Each k's Loupe runs, then scikit-learn's for the same k, so that both sides of a ratio
    // are measured minutes apart at most on a machine whose load changes.
    const loupe = new Map<string, Times & { result: PcaResult }>();
    const answers = new Map<number, Reference<SklearnAnswer>>();
    for (const k of KS) {
      for (const method of ['auto', 'exact', 'randomized'] as const) {
        loupe.set(
          `${k} ${method}`,
          timed(() => pca(data, N, D, { components: k, method, seed: SEED }), RUNS, {
            warm: false,
          }),
        );
      }
      answers.set(
        k,
        runReference<SklearnAnswer>('pca_wide', 'sklearn', folder.dir, {
          n: N,
          d: D,
          components: [k],
          keep,
          solvers: ['auto', 'full'],
          runs: RUNS,
        }),
      );
    }
    const answer = answers.get(KS[0]!)!;
    // Without numpy's float64 reference the check falls back to Loupe's own exact method.
    let reference: Float64Array;
    let referenceVariance: Float64Array;
    let referenceName: string;
    if ('missing' in answer) {
      const exact = loupe.get(`${keep} exact`)!.result;
      reference = Float64Array.from(exact.components);
      referenceVariance = Float64Array.from(exact.explainedVariance);
      referenceName = "Loupe's exact method (numpy absent)";
    } else {
      reference = readArray(folder.dir, 'reference.f64', Float64Array);
      referenceVariance = Float64Array.from(answer.reference_variance);
      referenceName = 'numpy float64 eigh';
    }
    for (const k of KS) {
      const forK = answers.get(k)!;
      const sklearnRun = (solver: string) =>
        'missing' in forK ? undefined : forK.runs.find((r) => r.k === k && r.solver === solver);
      const pairs = [
        ['auto', 'auto'],
        ['exact', 'full'],
        ['randomized', 'auto'],
      ] as const;
      for (const [method, solver] of pairs) {
        const ours = loupe.get(`${k} ${method}`)!;
        const theirs = sklearnRun(solver);
        let quality =
          `1 − cos² against ${referenceName}: Loupe ${exp(subspaceError(ours.result.components, reference, k))}` +
          `; explained variance within ${exp(varianceError(ours.result.explainedVariance, referenceVariance, k))}`;
        if (theirs) {
          const components = readArray(folder.dir, `components-${k}-${solver}.f64`, Float64Array);
          quality =
            `1 − cos² against ${referenceName}: Loupe ${exp(subspaceError(ours.result.components, reference, k))}, ` +
            `scikit-learn ${exp(subspaceError(components, reference, k))}; explained variance within ` +
            `${exp(varianceError(ours.result.explainedVariance, referenceVariance, k))} / ` +
            `${exp(varianceError(theirs.explained_variance, referenceVariance, k))}`;
        }
        report({
          step:
            `PCA ${N.toLocaleString('en')} × ${D} → ${k}, Loupe ${method} (${ours.result.method})` +
            ` vs scikit-learn ${solver}${theirs ? ` (ran ${theirs.ran})` : ''}, p50 of ${RUNS} runs`,
          loupe: ours,
          ...('missing' in answer
            ? { missing: answer.missing }
            : theirs
              ? { reference: { library: answer.library, ...theirs } }
              : {}),
          quality,
        });
      }
    }
  } finally {
    folder.dispose();
  }
}
