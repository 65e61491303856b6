// One COCO benchmark run in a fresh process (so peak memory is this run's alone): load the two
// JSON files, evaluate, accumulate, summarise; prints {ms, cpuMs, maxRssMb, stats} as JSON.
// cpuMs is the process's CPU time (user + system), which other programs on the machine inflate
// much less than wall time.
import { readFileSync } from 'node:fs';
import { evaluateCoco, type CocoIouType } from '@loupe/metrics';

const [gtPath, dtPath, iouType] = process.argv.slice(2) as [string, string, CocoIouType];
const start = performance.now();
const cpuStart = process.cpuUsage();
const gt = JSON.parse(readFileSync(gtPath, 'utf8'));
const dt = JSON.parse(readFileSync(dtPath, 'utf8'));
const { stats } = evaluateCoco(gt, dt, iouType);
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
const maxRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(JSON.stringify({ ms, cpuMs, maxRssMb, stats }));
