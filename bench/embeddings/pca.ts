// PCA benchmark (issue 7): clustered float32 vectors (default 1,000,000 × 128) to 2-D, by the
// automatic choice (exact at this size) and by the randomized method; prints wall and CPU time,
// ratios to the 10 s target and how far the two methods agree. Never fails on time.
// Run: npx tsx --conditions=loupe-src bench/embeddings/pca.ts (N=…, D=… to change the size)
import os from 'node:os';
import { pca, type PcaResult } from '@loupe/analysis';
import { clusteredData, mb, ms, time } from './ann-data.js';

const N = Number(process.env.N ?? 1_000_000);
const D = Number(process.env.D ?? 128);
const TARGET_MS = 10_000;

console.log(`PCA benchmark: ${N.toLocaleString('en')} × ${D} float32 → 2-D`);
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${os.cpus().length} cores`,
);
const generated = time(() => clusteredData(N, D, 200, 1));
const { vectors } = generated.result;
console.log(`data generated in ${ms(generated.ms)} (${mb(vectors.byteLength)})`);

function report(label: string, run: { result: PcaResult; ms: number; cpu: number }): void {
  const { result } = run;
  console.log(
    `${label.padEnd(22)} method ${result.method.padEnd(10)} wall ${ms(run.ms).padStart(9)}` +
      `  CPU ${ms(run.cpu).padStart(9)}  wall/target ${(run.ms / TARGET_MS).toFixed(2)}` +
      `  CPU/target ${(run.cpu / TARGET_MS).toFixed(2)}` +
      `  explained ${Array.from(result.explainedVarianceRatio, (x) => (x * 100).toFixed(2) + ' %').join(', ')}`,
  );
}

const auto = time(() => pca(vectors, N, D));
report('auto', auto);
const randomized = time(() => pca(vectors, N, D, { method: 'randomized', seed: 1 }));
report('randomized', randomized);

const agreement: string[] = [];
for (let c = 0; c < 2; c++) {
  let dot = 0;
  for (let j = 0; j < D; j++) {
    dot += auto.result.components[c * D + j]! * randomized.result.components[c * D + j]!;
  }
  agreement.push(`|cos| component ${c + 1}: ${Math.abs(dot).toFixed(6)}`);
}
console.log(`exact vs randomized: ${agreement.join(', ')}`);
console.log(`rss ${mb(process.memoryUsage().rss)}`);
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
