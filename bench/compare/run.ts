// Side-by-side benchmarks (docs/performance.md "Side by side"): the same generated data through
// Loupe's functions and through the reference libraries (pandas, numpy, faiss, scikit-learn,
// umap-learn, pycocotools) run by reference.py; prints both times, the ratio and a check that
// both gave the same answer. A reference whose library is not installed is skipped. Never fails
// on time.
// Run: npx tsx --conditions=loupe-src bench/compare/run.ts [case …]
//   cases: filter query histogram knn ann pca pca-wide umap coco (default: all)
//   RUNS=… (repeats, default 20), ITEMS=… (explorer items, default 1,000,000), PYTHON=…,
//   KNN_N, ANN_N, PCA_N, UMAP_N, D, QUERIES: see vectors.ts; PCA_WIDE_*: see pca.ts;
//   COCO_IMAGES: see coco.ts
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { cocoCase } from './coco.js';
import { disposeExplore, filterCase, histogramCase, queryCase } from './explore.js';
import { pythonWith, rows } from './harness.js';
import { pcaWideCase } from './pca.js';
import { annCase, knnCase, pcaCase, umapCase } from './vectors.js';

const cases: Record<string, () => void | Promise<void>> = {
  filter: filterCase,
  query: queryCase,
  histogram: histogramCase,
  knn: knnCase,
  ann: annCase,
  pca: pcaCase,
  'pca-wide': pcaWideCase,
  umap: umapCase,
  coco: cocoCase,
};

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in cases))
    throw new Error(`Unknown case '${name}'; cases: ${Object.keys(cases).join(' ')}`);
}

function pythonVersion(): string {
  const python = pythonWith('numpy');
  if (!python) return 'no Python with numpy';
  const version = execFileSync(
    python,
    ['-c', 'import sys, numpy; print(sys.version.split()[0], "numpy", numpy.__version__)'],
    { encoding: 'utf8' },
  ).trim();
  return `${python} (Python ${version})`;
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(
  `Side by side: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; ${pythonVersion()}; ` +
    `load average ${load()}`,
);
const chosen = Object.keys(cases).filter((name) => wanted.length === 0 || wanted.includes(name));
const exploreCases = ['filter', 'query', 'histogram'];
const failed: string[] = [];
for (const [i, name] of chosen.entries()) {
  console.log();
  try {
    await cases[name]!();
  } catch (error) {
    // One broken case (say a function mid-change) must not hide the others' figures.
    failed.push(name);
    console.log(`${name}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The explorer's table is shared by its cases; let it go before the vector cases.
  if (!chosen.slice(i + 1).some((next) => exploreCases.includes(next))) disposeExplore();
}
console.log(
  `\n${rows.length} steps measured${failed.length > 0 ? `; FAILED: ${failed.join(' ')}` : ''}; load average ${load()}`,
);
if (failed.length > 0) process.exitCode = 1;
