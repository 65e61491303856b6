// Micro-benchmark of the media metadata and default features of @loupe/analysis: time per
// 640×480 image and per 5 s 16 kHz clip, on generated media. Prints figures, asserts nothing.
// Run: npx tsx --conditions=loupe-src bench/analysis-media/run.ts

import os from 'node:os';
import {
  analyzeAudio,
  analyzeImage,
  audioDescriptor,
  audioStatistics,
  decodeWav,
  encodeWav,
  imageDescriptor,
  imageStatistics,
  perceptualHash,
  syntheticImage,
  syntheticTone,
} from '@loupe/analysis';

/**
 * Milliseconds per call: the fastest of `rounds` rounds of `perRound` calls after a warm-up, by
 * wall clock and by this process's CPU time (which other jobs on a shared machine do not inflate).
 */
function time(
  label: string,
  perRound: number,
  rounds: number,
  run: (i: number) => unknown,
): number {
  for (let i = 0; i < perRound; i++) run(i);
  let bestWall = Infinity;
  let bestCpu = Infinity;
  for (let r = 0; r < rounds; r++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < perRound; i++) run(i);
    bestWall = Math.min(bestWall, (performance.now() - start) / perRound);
    const used = process.cpuUsage(cpu);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1000 / perRound);
  }
  console.log(
    `${label.padEnd(40)} ${bestWall.toFixed(2).padStart(7)} ms wall ${bestCpu.toFixed(2).padStart(7)} ms CPU  (${(1000 / bestWall).toFixed(0)}/s)`,
  );
  return bestWall;
}

const cpus = os.cpus();
console.log(`Node ${process.version}, ${cpus.length} cores (${cpus[0]?.model ?? '?'}), one thread`);
console.log(`load average at start: ${os.loadavg()[0]!.toFixed(2)}`);

const images = Array.from({ length: 8 }, (_, i) => syntheticImage(i + 1, 640, 480));
const pick = (i: number) => images[i % images.length]!;
console.log('\n640×480 RGB image');
time('imageStatistics', 8, 20, (i) => imageStatistics(pick(i)));
time('perceptualHash', 8, 20, (i) => perceptualHash(pick(i)));
time('imageDescriptor', 8, 20, (i) => imageDescriptor(pick(i)));
const image = time('analyzeImage (all three)', 8, 20, (i) => analyzeImage(pick(i)));

const clips = Array.from({ length: 4 }, (_, i) =>
  syntheticTone(i + 1, 16000, 5, { classIndex: i }),
);
const wavs = clips.map((clip) => encodeWav([clip], 16000));
const clip = (i: number) => [clips[i % clips.length]!];
console.log('\n5 s mono clip at 16 kHz');
time('decodeWav (16-bit PCM)', 4, 20, (i) => decodeWav(wavs[i % wavs.length]!));
time('audioStatistics', 4, 20, (i) => audioStatistics(clip(i), 16000));
time('audioDescriptor', 4, 20, (i) => audioDescriptor(clip(i), 16000));
const audio = time('analyzeAudio (statistics + descriptor)', 4, 20, (i) =>
  analyzeAudio(clip(i), 16000),
);

console.log(
  `\nanalyzeImage uses ${((image / 20) * 100).toFixed(0)} % of the 20 ms per image per core that 100 images/s on 2 cores allow`,
);
console.log(`analyzeAudio runs ${(5000 / audio).toFixed(0)}× faster than real time on one core`);
