// PCA benchmark (issue 21): 60,000 × 784 float32 vectors with a decaying spectrum (MNIST's
// shape: 28 × 28 "images" whose principal directions are products of two random rotations),
// reduced to 64 and to 2 dimensions by Loupe's automatic choice, exact and randomized methods,
// and, when Python has scikit-learn, by scikit-learn's PCA ('auto', 'full', 'randomized') on
// the same data. Prints wall and CPU times, scikit-learn / Loupe time ratios (≥ 1: Loupe at
// least as fast) and each result's subspace cos² against an exact float64 reference (numpy's
// eigh of the covariance; without numpy, the generator's own directions). Never fails on time.
// Run: npx tsx --conditions=loupe-src bench/embeddings/pca.ts
//   N=, D= (default 60000, 784), K=64,2 (components), SKLEARN=0 (skip Python), FULL=0 (skip
//   scikit-learn's slow 'full' solver), PYTHON= (interpreter with sklearn).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createRandom, pca, type PcaMethod, type PcaResult } from '@loupe/analysis';
import { mb, ms, time } from './ann-data.js';

const N = Number(process.env.N ?? 60_000);
const D = Number(process.env.D ?? 784);
const KS = (process.env.K ?? '64,2').split(',').map(Number);
const SEED = 1;

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** d × d orthogonal matrix (rows), Gram–Schmidt on Gaussian vectors. */
function rotation(d: number, random: ReturnType<typeof createRandom>): Float64Array {
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

/** Variance along the i-th direction: (1 + i/8)^−1.6, so the top 64 hold ~80 % of the total. */
const spectrum = (i: number) => (1 + i / 8) ** -1.6;

/**
 * n rows x = mean + Σ_i √λ_i z_i (a_i ⊗ b_i), z standard normal: directions are Kronecker
 * products of two rotations' rows (d = p · q, p as close to √d as divides it), so each row
 * costs 2·p·q·(p + q) multiply-adds instead of d². Returns the data and the true directions
 * of the top `keep` variances.
 */
function generate(n: number, d: number, keep: number): { data: Float32Array; truth: Float64Array } {
  const random = createRandom(SEED);
  let p = Math.floor(Math.sqrt(d));
  while (d % p !== 0) p--;
  const q = d / p;
  const a = rotation(p, random);
  const b = rotation(q, random);
  const sigma = Float64Array.from({ length: d }, (_, i) => Math.sqrt(spectrum(i)));
  const mean = Float64Array.from({ length: d }, () => 0.5 + random.next());
  const data = new Float32Array(n * d);
  const s = new Float64Array(d); // latent, as a p × q matrix S; x = Aᵀ·S·B (as p × q)
  const t = new Float64Array(d);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < d; i++) s[i] = sigma[i]! * random.normal();
    // t = Aᵀ·S (p × q): t[u][v] = Σ_w a[w][u]·s[w][v]
    t.fill(0);
    for (let w = 0; w < p; w++) {
      for (let u = 0; u < p; u++) {
        const weight = a[w * p + u]!;
        for (let v = 0; v < q; v++) t[u * q + v]! += weight * s[w * q + v]!;
      }
    }
    // x[u][v] = Σ_w t[u][w]·b[w][v]
    const o = r * d;
    for (let u = 0; u < p; u++) {
      for (let v = 0; v < q; v++) {
        let sum = 0;
        for (let w = 0; w < q; w++) sum += t[u * q + w]! * b[w * q + v]!;
        data[o + u * q + v] = mean[u * q + v]! + sum;
      }
    }
  }
  // Direction i (latent index i = w·q + v) is the row a_w ⊗ b_v.
  const truth = new Float64Array(keep * d);
  for (let i = 0; i < keep; i++) {
    const w = Math.floor(i / q);
    const v = i % q;
    for (let u = 0; u < p; u++) {
      for (let x = 0; x < q; x++) truth[i * d + u * q + x] = a[w * p + u]! * b[v * q + x]!;
    }
  }
  return { data, truth };
}

/**
 * Mean over the k reference directions of their squared cosine with span(components), the
 * components re-normalised in float64 first (float32 rounding alone moves a norm by 1e-8).
 */
function subspaceCos2(components: ArrayLike<number>, reference: ArrayLike<number>, k: number) {
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
  return sum / k;
}

/** The generated data, kept in the temporary folder between runs (generating takes a while). */
function cachedData(n: number, d: number, keep: number) {
  const file = join(os.tmpdir(), `loupe-pca-bench-${n}x${d}-top${keep}-seed${SEED}.bin`);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    return {
      data: new Float32Array(copy, 0, n * d),
      truth: new Float64Array(copy, n * d * 4, keep * d),
      cached: true,
    };
  }
  const { data, truth } = generate(n, d, keep);
  writeFileSync(file, Buffer.concat([new Uint8Array(data.buffer), new Uint8Array(truth.buffer)]));
  return { data, truth, cached: false };
}

function findPython(): string | null {
  if (process.env.SKLEARN === '0') return null;
  for (const python of [process.env.PYTHON, '/usr/bin/python3', 'python3']) {
    if (!python || (python !== 'python3' && !existsSync(python))) continue;
    const probe = spawnSync(python, ['-c', 'import sklearn, numpy'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

// Times scikit-learn's PCA (fit and transform, as Loupe's pca() does both) on the same float32
// data, and writes the float64 reference directions (numpy eigh of the covariance).
const PYTHON_SCRIPT = `
import json, os, sys, time
import numpy as np
from sklearn.decomposition import PCA
folder, n, d = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ks = [int(k) for k in sys.argv[4].split(',')]
solvers = sys.argv[5].split(',')
x = np.fromfile(os.path.join(folder, 'data.f32'), dtype=np.float32).reshape(n, d)
centred = x.astype(np.float64)
centred -= centred.mean(axis=0)
values, vectors = np.linalg.eigh(centred.T @ centred / (n - 1))
del centred
reference = vectors[:, ::-1][:, :max(ks)].T.copy()
reference.astype(np.float64).tofile(os.path.join(folder, 'reference.f64'))
out = []
for k in ks:
    top = reference[:k]
    for solver in solvers:
        wall, cpu = time.perf_counter(), time.process_time()
        model = PCA(n_components=k, svd_solver=solver, random_state=0).fit(x)
        model.transform(x)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        components = model.components_.astype(np.float64)
        components /= np.linalg.norm(components, axis=1, keepdims=True)
        c = components @ top.T
        out.append(dict(k=k, solver=solver, wall_ms=wall * 1000, cpu_ms=cpu * 1000,
                        cos2=float((c ** 2).sum() / k)))
print(json.dumps(out))
`;

interface SklearnRow {
  k: number;
  solver: string;
  wall_ms: number;
  cpu_ms: number;
  cos2: number;
}

console.log(`PCA benchmark: ${N.toLocaleString('en')} × ${D} float32 → ${KS.join(', ')}`);
console.log(`load average ${load()}, ${os.cpus().length} cores, Node ${process.version}`);
const generated = time(() => cachedData(N, D, Math.max(...KS)));
const { data, truth, cached } = generated.result;
console.log(
  `data ${cached ? 'read from the temporary folder' : 'generated'} in ${ms(generated.ms)} (${mb(data.byteLength)})`,
);

interface LoupeRow {
  k: number;
  label: string;
  method: PcaMethod;
  wall: number;
  cpu: number;
  components: Float32Array;
}
const loupe: LoupeRow[] = [];
for (const k of KS) {
  for (const method of ['auto', 'exact', 'randomized'] as const) {
    const run = time(() => pca(data, N, D, { components: k, method, seed: 1 }));
    const result: PcaResult = run.result;
    loupe.push({
      k,
      label: `loupe ${method}`,
      method: result.method,
      wall: run.ms,
      cpu: run.cpu,
      components: result.components,
    });
    console.log(
      `k ${String(k).padStart(3)}  loupe ${method.padEnd(10)} (${result.method.padEnd(10)})` +
        `  wall ${ms(run.ms).padStart(8)}  CPU ${ms(run.cpu).padStart(8)}` +
        `  explained ${(result.explainedVarianceRatio.reduce((a, b) => a + b, 0) * 100).toFixed(2)} %`,
    );
  }
}

const python = findPython();
let sklearn: SklearnRow[] = [];
let reference: Float64Array = truth;
let referenceName = "the generator's directions (population, not this sample's)";
if (python) {
  const folder = mkdtempSync(join(os.tmpdir(), 'loupe-pca-'));
  try {
    writeFileSync(
      join(folder, 'data.f32'),
      new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    );
    writeFileSync(join(folder, 'pca.py'), PYTHON_SCRIPT);
    const solvers = process.env.FULL === '0' ? 'auto,randomized' : 'auto,full,randomized';
    console.log(`scikit-learn (${python}), load average ${load()}`);
    const run = spawnSync(
      python,
      [join(folder, 'pca.py'), folder, String(N), String(D), KS.join(','), solvers],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (run.status !== 0) throw new Error(`scikit-learn run failed: ${run.stderr}`);
    sklearn = JSON.parse(run.stdout) as SklearnRow[];
    const bytes = readFileSync(join(folder, 'reference.f64'));
    reference = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
    referenceName = 'numpy float64 eigh of the sample covariance';
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
} else {
  console.log('scikit-learn not found (apt-get install python3-sklearn python3-numpy): Loupe only');
}

console.log(`\nsubspace cos² against ${referenceName}; ratio = scikit-learn time / Loupe time`);
console.log(
  '| k | run | method | wall | CPU | cos² | 1 − cos² | sklearn auto / this, wall | CPU |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const ratio = (a: number | undefined, b: number) => (a === undefined ? '' : (a / b).toFixed(2));
for (const k of KS) {
  const auto = sklearn.find((row) => row.k === k && row.solver === 'auto');
  for (const row of loupe.filter((r) => r.k === k)) {
    const cos2 = subspaceCos2(row.components, reference, k);
    console.log(
      `| ${k} | ${row.label} | ${row.method} | ${ms(row.wall)} | ${ms(row.cpu)} | ${cos2.toFixed(9)} | ${(1 - cos2).toExponential(1)} | ${ratio(auto?.wall_ms, row.wall)} | ${ratio(auto?.cpu_ms, row.cpu)} |`,
    );
  }
  for (const row of sklearn.filter((r) => r.k === k)) {
    console.log(
      `| ${k} | sklearn ${row.solver} | | ${ms(row.wall_ms)} | ${ms(row.cpu_ms)} | ${row.cos2.toFixed(9)} | ${(1 - row.cos2).toExponential(1)} | ${ratio(auto?.wall_ms, row.wall_ms)} | ${ratio(auto?.cpu_ms, row.cpu_ms)} |`,
    );
  }
}
console.log(`\nrss ${mb(process.memoryUsage().rss)}, load average ${load()}`);
