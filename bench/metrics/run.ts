// Metrics benchmark: COCO bbox and segm (load + evaluate + accumulate), classification on
// 1M items × 10 classes, WER on 100k utterance pairs. Prints figures and ratios to the targets
// of issue 5; never fails on time. Run: npx tsx --conditions=loupe-src bench/metrics/run.ts
// (prefix `taskset -c 1` to measure on one core, as docs/performance.md does).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classificationReport, corpusWordErrors } from '@loupe/metrics';
import { asrCase, classificationCase, cocoCase } from './generate.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const here = fileURLToPath(new URL('.', import.meta.url));
const dataDir = join(here, '..', '..', '.bench-data', 'metrics');
mkdirSync(dataDir, { recursive: true });

function line(name: string, value: string, target: string, ratio: number): void {
  console.log(
    `${name.padEnd(44)} ${value.padStart(12)}   target ${target.padEnd(10)} ${(ratio * 100).toFixed(0)}% of target`,
  );
}

function prepareCoco(name: string, options: Parameters<typeof cocoCase>[0]) {
  const gtPath = join(dataDir, `${name}-gt.json`);
  const dtPath = join(dataDir, `${name}-dt.json`);
  const metaPath = join(dataDir, `${name}-meta.json`);
  if (!existsSync(metaPath)) {
    const c = cocoCase(options);
    writeFileSync(gtPath, c.gt);
    writeFileSync(dtPath, c.dt);
    writeFileSync(metaPath, JSON.stringify({ numGt: c.numGt, numDt: c.numDt, options }));
  }
  return { gtPath, dtPath, metaPath };
}

function runCoco(gtPath: string, dtPath: string, iouType: string) {
  const runs = [];
  for (let r = 0; r < REPEATS; r++) {
    const out = execFileSync(
      process.execPath,
      [
        '--conditions=loupe-src',
        '--import',
        import.meta.resolve('tsx'),
        join(here, 'coco-case.ts'),
        gtPath,
        dtPath,
        iouType,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    runs.push(JSON.parse(out) as { ms: number; cpuMs: number; maxRssMb: number; stats: number[] });
  }
  return {
    ms: Math.min(...runs.map((r) => r.ms)),
    cpuMs: Math.min(...runs.map((r) => r.cpuMs)),
    maxRssMb: Math.min(...runs.map((r) => r.maxRssMb)),
    stats: runs[0]!.stats,
  };
}

/** Best wall time and best CPU time (ms) over the repeats. */
function best(fn: () => void): { ms: number; cpuMs: number } {
  let ms = Infinity;
  let cpuMs = Infinity;
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    fn();
    const cpu = process.cpuUsage(cpuStart);
    ms = Math.min(ms, performance.now() - start);
    cpuMs = Math.min(cpuMs, (cpu.user + cpu.system) / 1000);
  }
  return { ms, cpuMs };
}

const seconds = (ms: number, digits: number) => `${(ms / 1000).toFixed(digits)} s`;

console.log(
  `metrics benchmark, node ${process.version}, best of ${REPEATS} runs; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores\n`,
);

const bbox = prepareCoco('bbox', {
  seed: 1,
  images: 5000,
  categories: 80,
  gtPerImage: 7.2,
  detectionsPerImage: 27,
  segm: false,
});
const bboxResult = runCoco(bbox.gtPath, bbox.dtPath, 'bbox');
const bboxMeta = JSON.parse(
  await import('node:fs').then((fs) => fs.readFileSync(bbox.metaPath, 'utf8')),
);
console.log(
  `COCO bbox: 5,000 images, 80 categories, ${bboxMeta.numGt} boxes, ${bboxMeta.numDt} detections`,
);
line(
  '  load + evaluate + accumulate (wall)',
  seconds(bboxResult.ms, 2),
  '8 s',
  bboxResult.ms / 8000,
);
line(
  '  load + evaluate + accumulate (CPU)',
  seconds(bboxResult.cpuMs, 2),
  '8 s',
  bboxResult.cpuMs / 8000,
);
line(
  '  peak memory (process max RSS)',
  `${bboxResult.maxRssMb.toFixed(0)} MB`,
  '500 MB',
  bboxResult.maxRssMb / 500,
);
console.log(
  `  vs pycocotools (41 s, 1 GB): ${(41000 / bboxResult.ms).toFixed(1)}× faster; AP = ${bboxResult.stats[0]!.toFixed(4)}\n`,
);

const segm = prepareCoco('segm', {
  seed: 2,
  images: 500,
  categories: 20,
  gtPerImage: 7,
  detectionsPerImage: 15.5,
  segm: true,
});
const segmResult = runCoco(segm.gtPath, segm.dtPath, 'segm');
const segmMeta = JSON.parse(
  await import('node:fs').then((fs) => fs.readFileSync(segm.metaPath, 'utf8')),
);
console.log(
  `COCO segm: 500 images, 20 categories, ${segmMeta.numGt} polygon masks, ${segmMeta.numDt} RLE detections`,
);
line(
  '  load + evaluate + accumulate (wall)',
  seconds(segmResult.ms, 3),
  '0.4 s',
  segmResult.ms / 400,
);
line(
  '  load + evaluate + accumulate (CPU)',
  seconds(segmResult.cpuMs, 3),
  '0.4 s',
  segmResult.cpuMs / 400,
);
console.log(
  `  vs pycocotools (1.8 s): ${(1800 / segmResult.ms).toFixed(1)}× faster; AP = ${segmResult.stats[0]!.toFixed(4)}\n`,
);

const cls = classificationCase(3, 1_000_000, 10);
let accuracy = 0;
const clsTime = best(() => {
  accuracy = classificationReport({ numClasses: 10, ...cls }).accuracy;
});
console.log('Classification: 1,000,000 items × 10 classes (all metrics incl. one-vs-rest ROC AUC)');
line('  metrics (wall)', seconds(clsTime.ms, 3), '1 s', clsTime.ms / 1000);
line('  metrics (CPU)', seconds(clsTime.cpuMs, 3), '1 s', clsTime.cpuMs / 1000);
console.log(`  accuracy = ${accuracy.toFixed(4)}\n`);

const asr = asrCase(4, 100_000);
let wer = 0;
const werTime = best(() => {
  wer = corpusWordErrors(asr.references, asr.hypotheses).corpus.wer;
});
console.log('WER: 100,000 utterance pairs (word alignments kept)');
line('  metrics (wall)', seconds(werTime.ms, 3), '5 s', werTime.ms / 5000);
line('  metrics (CPU)', seconds(werTime.cpuMs, 3), '5 s', werTime.cpuMs / 5000);
console.log(`  corpus WER = ${wer.toFixed(4)}`);
