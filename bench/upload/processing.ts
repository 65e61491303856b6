// Per-image processing benchmark (issue 4): the metadata pass's work on one image — header,
// decode to the analysis size, statistics, pHash, descriptor and the thumbnail — with the
// server's own functions, in one process, on generated 640×480 JPEGs. No HTTP, no database:
// the CPU it prints is the floor under bench/upload/run.ts's CPU per image. It runs twice: as an
// uploaded file (which is its own grid thumbnail) and as a file read from a path (which gets a
// WebP thumbnail). Never fails on time.
//   npx tsx --conditions=loupe-src bench/upload/processing.ts [--images N] [--parallel N]
//     [--vips-threads N]
import os from 'node:os';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { syntheticImage } from '@loupe/analysis';
import { computeImageMetadata, thumbnailFromComputed } from '@loupe/server/embedded';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '400' },
    parallel: { type: 'string', default: '4' },
    'vips-threads': { type: 'string' },
  },
});
const IMAGES = Number(values.images);
const PARALLEL = Number(values.parallel);
if (values['vips-threads'] !== undefined) sharp.concurrency(Number(values['vips-threads']));

const bases = Array.from(
  { length: 16 },
  (_, seed) => syntheticImage(seed + 1, 640, 480, { minObjects: 2, maxObjects: 5 }).data,
);
const files = await Promise.all(
  Array.from({ length: IMAGES }, (_, i) => {
    const data = Buffer.from(bases[i % bases.length]!);
    data.fill(i & 255, 0, 64 * 3); // distinct files
    return sharp(data, { raw: { width: 640, height: 480, channels: 3 } })
      .jpeg({ quality: 85 })
      .toBuffer();
  }),
);

async function round(media: string): Promise<{ wall: number; cpu: number }> {
  const startCpu = process.cpuUsage();
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < files.length) {
        const computed = await computeImageMetadata(files[next++]!, sharp);
        await thumbnailFromComputed(media, computed);
      }
    }),
  );
  const cpu = process.cpuUsage(startCpu);
  return { wall: performance.now() - start, cpu: (cpu.user + cpu.system) / 1000 };
}

console.log(
  `${IMAGES} images of 640×480, ${PARALLEL} at a time, libvips threads ${sharp.concurrency()}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}`,
);
const cases = [
  // An uploaded JPEG of at most 640 px is its own grid thumbnail: nothing is encoded.
  ['uploaded file (its own thumbnail)', `blob:${'0'.repeat(64)}`],
  // A file the server reads from a path always gets a WebP thumbnail.
  ['file from a path (WebP thumbnail)', 'images/example.jpg'],
] as const;
for (const [name, media] of cases) {
  console.log(`${name}:`);
  await round(media); // warm-up
  for (let r = 0; r < 3; r++) {
    const { wall, cpu } = await round(media);
    console.log(
      `  round ${r + 1}: ${(wall / IMAGES).toFixed(2)} ms wall and ${(cpu / IMAGES).toFixed(2)} ms CPU per image (${((IMAGES / wall) * 1000).toFixed(0)} images/s)`,
    );
  }
}
