// One COCO benchmark run in a fresh process (so peak memory is this run's alone): load the two
// JSON files, evaluate, accumulate, summarise; prints {ms, maxRssMb, stats} as JSON.
import { readFileSync } from 'node:fs';
import { evaluateCoco, type CocoIouType } from '@loupe/metrics';

const [gtPath, dtPath, iouType] = process.argv.slice(2) as [string, string, CocoIouType];
const start = performance.now();
const gt = JSON.parse(readFileSync(gtPath, 'utf8'));
const dt = JSON.parse(readFileSync(dtPath, 'utf8'));
const { stats } = evaluateCoco(gt, dt, iouType);
const ms = performance.now() - start;
process.stdout.write(
  JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, stats }),
);
