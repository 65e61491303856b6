// Upload benchmark (issue 4): 1,000,000 metadata-only samples with 20 metadata fields, and
// 10,000 images of 640×480 including thumbnails and default metadata, through the TypeScript
// SDK, on SQLite and PostgreSQL. Prints throughput, ratios to the targets and the server's peak
// memory. Never fails on time.
//   npx tsx --conditions=loupe-src bench/upload/run.ts [--samples N] [--images N] [--db sqlite|postgres|both]
//     [--size WIDTHxHEIGHT] [--profile DIR]
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { syntheticImage } from '@loupe/analysis';
import { api, createClient } from '@loupe/contracts';
import { LoupeClient, type SampleToUpload } from '@loupe/sdk';
import sharp from 'sharp';
import { startServer, type BenchServer } from './server.js';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '1000000' },
    images: { type: 'string', default: '10000' },
    db: { type: 'string', default: 'both' },
    /**
     * Image size, WIDTHxHEIGHT. The target is for 640x480, which uploads are their own grid
     * thumbnail at; e.g. 1280x960 measures images that get a WebP thumbnail made.
     */
    size: { type: 'string', default: '640x480' },
    /** Samples per batch of the image upload (the SDK's `batchSize`). */
    batch: { type: 'string', default: '500' },
    /** Media uploads in flight (the SDK's `concurrency`). */
    concurrency: { type: 'string', default: '8' },
    /** A folder for the server's CPU profile (node --cpu-prof), written when it stops. */
    profile: { type: 'string' },
  },
});
const SAMPLES = Number(values.samples);
const [WIDTH, HEIGHT] = values.size.split('x').map(Number) as [number, number];
const IMAGES = Number(values.images);
const TARGET_SAMPLES_PER_S = 10_000;
const TARGET_IMAGES_PER_S = 100;
const TARGET_RSS_MB = 1024;

function* metadataSamples(count: number): Generator<SampleToUpload> {
  const weather = ['sunny', 'rain', 'fog', 'snow', 'cloudy'];
  for (let i = 0; i < count; i++) {
    const metadata: Record<string, number | string | boolean> = {};
    for (let f = 0; f < 20; f++) {
      if (f % 5 === 0) metadata[`text_${f}`] = weather[(i + f) % weather.length]!;
      else if (f % 5 === 1) metadata[`flag_${f}`] = (i + f) % 3 === 0;
      else metadata[`value_${f}`] = ((i * 2654435761 + f * 40503) % 100_000) / 100;
    }
    yield {
      id: `sample-${i}`,
      split: i % 10 < 8 ? 'train' : 'test',
      label: `class_${i % 10}`,
      metadata,
    };
  }
}

async function makeImages(count: number): Promise<Uint8Array[]> {
  // A handful of rendered scenes, each made unique per image by a stamped 8×8 code block.
  const bases = Array.from(
    { length: 16 },
    (_, seed) => syntheticImage(seed + 1, WIDTH, HEIGHT, { minObjects: 2, maxObjects: 5 }).data,
  );
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const data = Buffer.from(bases[i % bases.length]!);
    for (let bit = 0; bit < 16; bit++) {
      const on = (i >> bit) & 1;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++)
          data.fill(
            on ? 255 : 0,
            ((y + (bit >> 2) * 8) * WIDTH + x + (bit & 3) * 8) * 3,
            ((y + (bit >> 2) * 8) * WIDTH + x + (bit & 3) * 8) * 3 + 3,
          );
    }
    out.push(
      await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return out;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, i.e. 12 and 13 after "pid (comm) ".
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds by thread: "main" (JavaScript), libvips workers, "node" (libuv's pool, V8's helpers)… */
function threadCpuSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // The main thread (JavaScript) has the process's id; the others share names by kind.
    const name =
      task === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return out;
}

/**
 * CPU seconds of every PostgreSQL process (the server's backends do the database's work),
 * including processes that have ended: their time moves to their parent's cutime and cstime.
 */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      // utime, stime, cutime and cstime are fields 14 to 17 of stat, 11 to 14 after "pid (comm) ".
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** Busy and total CPU seconds of the whole machine so far (/proc/stat). */
function machineCpuSeconds(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const ticks = fields.map(Number);
  const idle = ticks[3]! + ticks[4]!; // idle + iowait
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / 100, total: total / 100 };
}

/** Average cores the server and this client have kept busy since the call. */
function coresBusySince(serverPid: number) {
  const cpu = () => processCpuSeconds(serverPid) + clientCpuSeconds();
  const startCpu = cpu();
  const start = performance.now();
  return () => (cpu() - startCpu) / ((performance.now() - start) / 1000);
}

const clientCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * Writes the page cache's dirty pages out before a timed part, so that files the previous part
 * wrote (a 1 GB SQLite database, say) are not flushed while the next part is measured.
 */
function settle(): void {
  const dirtyMb = () =>
    Number(/^Dirty:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024;
  const before = dirtyMb();
  const started = performance.now();
  execFileSync('sync');
  console.log(
    `(wrote ${before.toFixed(0)} MB of dirty pages to disk in ${((performance.now() - started) / 1000).toFixed(1)} s, not counted)`,
  );
}

async function waitForJobs(server: BenchServer): Promise<void> {
  const client = createClient({ baseUrl: server.url, headers: { 'X-API-Key': server.apiKey } });
  for (;;) {
    const activities = await client.call(api.activities.list, { query: { scope: 'all' } });
    if (activities.every((a) => a.status !== 'PENDING')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function bench(database: 'sqlite' | 'postgres', images: Uint8Array[]): Promise<void> {
  console.log(`\n== ${database} ==`);
  const server = await startServer(
    database,
    {},
    values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [],
  );
  try {
    const client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
    if (SAMPLES > 0) {
      const dataset = await client.createDataset({
        name: 'metadata-only',
        task_type: 'classification',
      });
      settle();
      const started = performance.now();
      const cpuBefore = {
        server: processCpuSeconds(server.pid),
        client: clientCpuSeconds(),
        postgres: database === 'postgres' ? postgresCpuSeconds() : 0,
      };
      const result = await dataset.uploadSamples(metadataSamples(SAMPLES), { batchSize: 5000 });
      const seconds = (performance.now() - started) / 1000;
      const rate = SAMPLES / seconds;
      const perThousand = (after: number, before: number) =>
        (((after - before) * 1000) / SAMPLES) * 1000;
      console.log(
        `metadata-only: ${SAMPLES.toLocaleString()} samples × 20 fields in ${seconds.toFixed(1)} s = ${Math.round(rate).toLocaleString()} samples/s (target ≥ ${TARGET_SAMPLES_PER_S.toLocaleString()}: ${(rate / TARGET_SAMPLES_PER_S).toFixed(2)}×); created ${result.created}`,
      );
      console.log(
        `  CPU per 1,000 samples: server ${perThousand(processCpuSeconds(server.pid), cpuBefore.server).toFixed(0)} ms, client ${perThousand(clientCpuSeconds(), cpuBefore.client).toFixed(0)} ms${database === 'postgres' ? `, PostgreSQL's processes ${perThousand(postgresCpuSeconds(), cpuBefore.postgres).toFixed(0)} ms` : ''}`,
      );
      const again = performance.now();
      const repeat = await dataset.uploadSamples(metadataSamples(Math.min(SAMPLES, 100_000)), {
        batchSize: 5000,
      });
      const repeatRate = Math.min(SAMPLES, 100_000) / ((performance.now() - again) / 1000);
      console.log(
        `re-sending ${Math.min(SAMPLES, 100_000).toLocaleString()} unchanged samples: ${Math.round(repeatRate).toLocaleString()} samples/s, unchanged ${repeat.unchanged}`,
      );
      await waitForJobs(server);
    }
    if (images.length > 0) {
      const dataset = await client.createDataset({ name: 'images', task_type: 'classification' });
      settle();
      const serverCpu = processCpuSeconds(server.pid);
      const serverThreads = threadCpuSeconds(server.pid);
      const clientCpu = clientCpuSeconds();
      const started = performance.now();
      const coresBusy = coresBusySince(server.pid);
      const machineBefore = machineCpuSeconds();
      const postgresBefore = database === 'postgres' ? postgresCpuSeconds() : 0;
      await dataset.uploadSamples(
        images.map((bytes, i) => ({
          id: `image-${i}.jpg`,
          image: bytes,
          label: `class_${i % 10}`,
        })),
        { batchSize: Number(values.batch), concurrency: Number(values.concurrency) },
      );
      const uploaded = (performance.now() - started) / 1000;
      const uploadCores = coresBusy();
      await waitForJobs(server);
      const seconds = (performance.now() - started) / 1000;
      const totalCores = coresBusy();
      const machineAfter = machineCpuSeconds();
      const postgresMs =
        database === 'postgres'
          ? ((postgresCpuSeconds() - postgresBefore) * 1000) / images.length
          : 0;
      const rate = images.length / seconds;
      console.log(
        `images: ${images.length.toLocaleString()} × ${WIDTH}×${HEIGHT} JPEG (${Math.round(images.reduce((sum, image) => sum + image.length, 0) / images.length / 1024)} KB on average) uploaded in ${uploaded.toFixed(1)} s; with thumbnails and default metadata done in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} images/s (target ≥ ${TARGET_IMAGES_PER_S}: ${(rate / TARGET_IMAGES_PER_S).toFixed(2)}×)`,
      );
      // Wall time depends on what else runs on the machine; CPU time per image does not (much).
      const serverMs = ((processCpuSeconds(server.pid) - serverCpu) * 1000) / images.length;
      const clientMs = ((clientCpuSeconds() - clientCpu) * 1000) / images.length;
      const cores = (await import('node:os')).cpus().length;
      // Threads that ended during the run (libvips makes and retires workers) count as "ended".
      const byThread = [...threadCpuSeconds(server.pid)].map(
        ([name, seconds]) => [name, seconds - (serverThreads.get(name) ?? 0)] as const,
      );
      const ended =
        (processCpuSeconds(server.pid) - serverCpu) * 1000 -
        byThread.reduce((sum, [, seconds]) => sum + seconds * 1000, 0);
      console.log(
        `server CPU per image by thread: ${[...byThread, ['ended threads', ended / 1000] as const]
          .filter(([, seconds]) => seconds > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([name, seconds]) => `${name} ${((seconds * 1000) / images.length).toFixed(1)} ms`)
          .join(', ')}`,
      );
      // How much of the machine Loupe kept busy: below the core count, something waited.
      const tailSeconds = seconds - uploaded;
      const tailCores =
        tailSeconds > 0 ? (totalCores * seconds - uploadCores * uploaded) / tailSeconds : 0;
      console.log(
        `cores busy (server + client): ${uploadCores.toFixed(2)} while uploading (${uploaded.toFixed(1)} s), ${tailCores.toFixed(2)} while processing after it (${tailSeconds.toFixed(1)} s), ${totalCores.toFixed(2)} overall`,
      );
      console.log(
        `whole machine: ${((machineAfter.busy - machineBefore.busy) / seconds).toFixed(2)} of ${((machineAfter.total - machineBefore.total) / seconds).toFixed(2)} cores busy${database === 'postgres' ? `; PostgreSQL's processes ${postgresMs.toFixed(1)} ms of CPU per image` : ''}`,
      );
      console.log(
        `CPU per image: server ${serverMs.toFixed(1)} ms + client ${clientMs.toFixed(1)} ms = ${(serverMs + clientMs).toFixed(1)} ms; ${cores} cores fully used would give ${Math.round((cores * 1000) / (serverMs + clientMs))} images/s; load average ${(
          await import('node:os')
        )
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
    }
    const rss = server.peakRssMb();
    console.log(
      `server peak memory (VmHWM): ${rss.toFixed(0)} MB (target < ${TARGET_RSS_MB}: ${(rss / TARGET_RSS_MB).toFixed(2)}× of the limit)`,
    );
  } finally {
    await server.stop();
  }
}

console.log(
  `Upload benchmark: ${SAMPLES.toLocaleString()} metadata-only samples, ${IMAGES.toLocaleString()} images; machine: ${(await import('node:os')).cpus().length} cores, Node ${process.version}`,
);
const prepared = performance.now();
const images = IMAGES > 0 ? await makeImages(IMAGES) : [];
if (IMAGES > 0)
  console.log(
    `(generated ${IMAGES} JPEGs in ${((performance.now() - prepared) / 1000).toFixed(1)} s, not counted)`,
  );
for (const database of values.db === 'both'
  ? (['sqlite', 'postgres'] as const)
  : [values.db as 'sqlite' | 'postgres'])
  await bench(database, images);
