// The load benchmark's uploader, a process of its own like a user's machine running the SDK:
// generates its JPEGs, says {"ready"} on stdout, waits for "go" on stdin, then uploads them
// through the TypeScript SDK and reports progress as JSON lines ({"done", "ms"}, then {"uploaded", "ms", "cpuMs"}).
//   npx tsx --conditions=loupe-src bench/load/upload.ts URL API_KEY DATASET_ID COUNT WxH BATCH CONCURRENCY
import { createInterface } from 'node:readline';
import { LoupeClient } from '@loupe/sdk';
import { makeJpegs } from './images.js';

const [url, apiKey, datasetId, count, size, batch, concurrency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const [width, height] = size.split('x').map(Number) as [number, number];
const say = (message: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify(message)}\n`);

try {
  // Offset 1 << 15: not one of the files the browsed dataset was given.
  const images = await makeJpegs(Number(count), width, height, 1 << 15);
  const bytes = images.reduce((sum, image) => sum + image.length, 0);
  say({ ready: true, bytes });
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;
  lines.close();
  const dataset = await new LoupeClient({ url, apiKey }).dataset(datasetId);
  const started = performance.now();
  const cpu = process.cpuUsage();
  await dataset.uploadSamples(
    images.map((image, i) => ({ id: `upload-${i}.jpg`, image, label: `class_${i % 10}` })),
    {
      batchSize: Number(batch),
      concurrency: Number(concurrency),
      onProgress: ({ done }) => say({ done, ms: performance.now() - started }),
    },
  );
  const { user, system } = process.cpuUsage(cpu);
  say({ uploaded: images.length, ms: performance.now() - started, cpuMs: (user + system) / 1000 });
} catch (error) {
  say({ error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
}
