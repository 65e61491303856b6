// Load benchmark (issue 14): a built server with a 100,000-item dataset (typed metadata, a few
// thousand items with images) browsed by 50 simulated explorer users for a bounded time, while
// a second process uploads 2,000 640×480 JPEGs through the TypeScript SDK. Prints latency
// percentiles, errors and requests/s per request type, the p95 against the 500 ms target, and
// the upload's images/s under the load. Never fails on time.
//   npx tsx --conditions=loupe-src bench/load/run.ts [--db sqlite|postgres] [--seconds N]
//     [--users N] [--samples N] [--browse-images N] [--images N] [--think MS] [--max-loops N]
//     [--timeout MS]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  ApiError,
  api,
  cookieJar,
  createClient,
  decodeIndices,
  type Filter,
  type SortEntry,
} from '@loupe/contracts';
import { LoupeClient, type SampleToUpload } from '@loupe/sdk';
import { cpuMs } from '../support/built-server.js';
import { startServer, type BenchServer } from '../upload/server.js';
import { makeJpegs } from './images.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    /** How long the users browse; the upload starts with them. */
    seconds: { type: 'string', default: '60' },
    users: { type: 'string', default: '50' },
    /** Items of the browsed dataset. */
    samples: { type: 'string', default: '100000' },
    /** Items of the browsed dataset that have an image (spread evenly; half get a WebP thumbnail). */
    'browse-images': { type: 'string', default: '2000' },
    /** 640×480 JPEGs uploaded during the load. */
    images: { type: 'string', default: '2000' },
    /** Mean pause of a user between two pages in ms (uniform over ±50 %); 0 for none. */
    think: { type: 'string', default: '1000' },
    /** Loops per user at most, whatever the time. */
    'max-loops': { type: 'string', default: '1000' },
    /** A request not answered by then counts as an error. */
    timeout: { type: 'string', default: '30000' },
  },
});
const DB = values.db as 'sqlite' | 'postgres';
const SECONDS = Number(values.seconds);
const USERS = Number(values.users);
const SAMPLES = Number(values.samples);
const BROWSE_IMAGES = Math.min(Number(values['browse-images']), SAMPLES);
const IMAGES = Number(values.images);
const THINK_MS = Number(values.think);
const MAX_LOOPS = Number(values['max-loops']);
const TIMEOUT_MS = Number(values.timeout);
const PAGE = 120; // one batch of cards (apps/web/src/features/explore/gridRules.ts, ITEMS_BATCH)
const THUMBNAILS_IN_FLIGHT = 6; // a browser's connections per host over HTTP/1.1
const HEALTH_EVERY_MS = 500;
const TARGET_P95_MS = 500;
const KINDS = ['item_ids', 'items', 'histogram', 'thumbnail'] as const;
type Kind = (typeof KINDS)[number] | 'health';
// The admin packages/sdk/src/testing/local-server.ts sets up; the users share its session.
const ADMIN = { email: 'admin@example.com', password: 'local password' };

// ---- data

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WEATHER = ['sunny', 'rain', 'fog', 'snow', 'cloudy'];
const CAMERAS = Array.from({ length: 20 }, (_, i) => `cam_${String(i).padStart(2, '0')}`);
const METADATA_TYPES = {
  score: 'numeric',
  brightness: 'numeric',
  weather: 'string',
  camera: 'string',
  night: 'boolean',
  has_image: 'boolean',
  captured_at: 'timestamp',
} as const;

/** The browsed dataset's samples; every `SAMPLES / BROWSE_IMAGES`-th has one of `images`. */
function* browsedSamples(images: Uint8Array[]): Generator<SampleToUpload> {
  const random = mulberry32(7);
  const every = images.length > 0 ? Math.floor(SAMPLES / images.length) : Infinity;
  for (let i = 0; i < SAMPLES; i++) {
    const image = i % every === 0 ? images[i / every] : undefined;
    yield {
      id: `item-${String(i).padStart(6, '0')}`,
      split: i % 10 < 8 ? 'train' : i % 10 === 8 ? 'val' : 'test',
      label: `class_${i % 10}`,
      ...(image ? { image } : {}),
      metadata: {
        score: Math.round(random() * 10_000) / 100,
        brightness: Math.floor(random() * 256),
        weather: WEATHER[Math.floor(random() * WEATHER.length)]!,
        camera: CAMERAS[Math.floor(random() * CAMERAS.length)]!,
        night: random() < 0.3,
        has_image: image !== undefined,
        captured_at: 1_600_000_000_000 + Math.floor(random() * 100_000_000_000),
      },
    };
  }
}

/** What a user looks at in one loop: a filter and a sort, as the explorer's toolbar builds them. */
function query(random: () => number, variant: number): { filter: Filter; sort: SortEntry[] } {
  const pick = <T>(from: T[], count: number) =>
    [...from].sort(() => random() - 0.5).slice(0, count);
  switch (variant % 4) {
    case 0:
      return {
        filter: {
          type: 'and',
          children: [
            { type: 'numeric', metadata_id: 'score', op: 'between', value: [random() * 50, null] },
            { type: 'string', metadata_id: 'weather', op: 'in', value: pick(WEATHER, 3) },
          ],
        },
        sort: [{ name: 'score', direction: 'descending' }],
      };
    case 1:
      return {
        filter: {
          type: 'not',
          child: { type: 'boolean', metadata_id: 'night', op: 'bool_equals', value: true },
        },
        sort: [
          { name: 'captured_at', direction: 'ascending' },
          { name: 'brightness', direction: 'descending' },
        ],
      };
    case 2: // the items with an image: every card of a page has a thumbnail
      return {
        filter: { type: 'boolean', metadata_id: 'has_image', op: 'bool_equals', value: true },
        sort: [
          { name: 'camera', direction: 'ascending' },
          { name: 'score', direction: 'descending' },
        ],
      };
    default: {
      const low = Math.floor(random() * 128);
      return {
        filter: {
          type: 'and',
          children: [
            { type: 'numeric', metadata_id: 'brightness', op: 'between', value: [low, low + 120] },
            { type: 'string', metadata_id: 'camera', op: 'in', value: pick(CAMERAS, 8) },
          ],
        },
        sort: [{ name: 'brightness', direction: 'ascending' }],
      };
    }
  }
}

const HISTOGRAM_FIELDS = ['score', 'brightness', 'weather', 'camera', 'captured_at', 'night'];

// ---- measuring

const latencies = new Map<Kind, number[]>();
const errors = new Map<Kind, number>();
const firstErrors: string[] = [];

function record(kind: Kind, ms: number, error?: string): void {
  let list = latencies.get(kind);
  if (!list) latencies.set(kind, (list = []));
  list.push(ms);
  if (error === undefined) return;
  errors.set(kind, (errors.get(kind) ?? 0) + 1);
  if (firstErrors.length < 5) firstErrors.push(`${error.slice(0, 400)}`);
}

/** Nearest-rank percentile of unsorted values. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** CPU seconds of the whole machine so far, busy and total (/proc/stat). */
function machineCpu(): { busy: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const numbers = ticks.map(Number);
  const total = numbers.reduce((a, b) => a + b, 0);
  return { busy: (total - numbers[3]! - numbers[4]!) / 100, total: total / 100 };
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, Math.max(0, ms)));

// ---- the run

async function waitForJobs(server: BenchServer, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    const activities = await createClient({
      baseUrl: server.url,
      headers: { 'X-API-Key': server.apiKey },
    }).call(api.activities.list, { query: { scope: 'all' } });
    if (activities.every((a) => a.status !== 'PENDING')) return;
    await sleep(500);
  }
  throw new Error(`The server's jobs did not finish within ${limitMs / 1000} s`);
}

/** The uploader process, its images generated; `go()` starts the upload. */
async function startUploader(server: BenchServer, datasetId: string) {
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      join(import.meta.dirname, 'upload.ts'),
      server.url,
      server.apiKey,
      datasetId,
      String(IMAGES),
      '640x480',
      '500', // the SDK batch and media concurrency of bench/upload/run.ts
      '8',
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const state = {
    done: 0,
    doneMs: 0,
    uploadedMs: NaN,
    uploaderCpuMs: NaN,
    error: undefined as string | undefined,
    exited: new Promise<void>((done) => child.once('exit', () => done())),
  };
  const ready = new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return console.log(`uploader: ${line}`);
      const message = JSON.parse(line) as {
        ready?: boolean;
        bytes?: number;
        done?: number;
        uploaded?: number;
        ms?: number;
        cpuMs?: number;
        error?: string;
      };
      if (message.ready) resolve(message.bytes!);
      if (message.done !== undefined)
        Object.assign(state, { done: message.done, doneMs: message.ms });
      if (message.uploaded !== undefined)
        Object.assign(state, { uploadedMs: message.ms, uploaderCpuMs: message.cpuMs });
      if (message.error) {
        state.error = message.error;
        reject(new Error(`The uploader failed: ${message.error}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`The uploader exited (${code})`)));
  });
  const bytes = await ready;
  return {
    state,
    bytes,
    go: () => child.stdin!.end('go\n'),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}

async function main(): Promise<void> {
  console.log(
    `Load benchmark: ${DB}, ${USERS} users for ${SECONDS} s (think ${THINK_MS} ms), ${SAMPLES.toLocaleString()} items (${BROWSE_IMAGES.toLocaleString()} with images), ${IMAGES.toLocaleString()} images uploaded meanwhile; ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const setupStarted = performance.now();
  // Half the browsed images are their own thumbnail (640×480 JPEG), half get a WebP made.
  const small = await makeJpegs(Math.ceil(BROWSE_IMAGES / 2), 640, 480);
  const large = await makeJpegs(Math.floor(BROWSE_IMAGES / 2), 800, 600, 1 << 14);
  const browseImages = Array.from({ length: BROWSE_IMAGES }, (_, i) =>
    i % 2 === 0 ? small[i / 2]! : large[(i - 1) / 2]!,
  );
  const server = await startServer(DB);
  let uploader: Awaited<ReturnType<typeof startUploader>> | undefined;
  try {
    const client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
    const browsed = await client.createDataset({
      name: 'load-browse',
      task_type: 'classification',
    });
    await browsed.uploadSamples(browsedSamples(browseImages), {
      batchSize: 5000,
      metadataTypes: { ...METADATA_TYPES },
    });
    await waitForJobs(server, 15 * 60_000);
    // The users share one signed-in session, as browser tabs do.
    const cookies = cookieJar();
    const browser = createClient({ baseUrl: server.url, cookies });
    await browser.call(api.auth.login, { body: ADMIN });
    const params = { id: browsed.id };

    // The explorer's first open builds the item table: timed, but not part of the load.
    const coldStarted = performance.now();
    await browser.call(api.explore.itemIds, {
      params,
      body: { data_level: 'image', format: 'rows' },
    });
    const coldMs = performance.now() - coldStarted;
    // Thumbnails to top pages up with, as a user scrolling through the items with images.
    const withImages = await browser.call(api.explore.itemIds, {
      params,
      body: {
        data_level: 'image',
        filter: { type: 'boolean', metadata_id: 'has_image', op: 'bool_equals', value: true },
        format: 'rows',
      },
    });
    const imageRows = decodeIndices(Buffer.from(withImages.rows!, 'base64'));
    const thumbnails: string[] = [];
    for (let start = 0; start < imageRows.indices.length; start += PAGE) {
      const { items } = await browser.call(api.explore.items, {
        params,
        body: {
          data_level: 'image',
          rows: [...imageRows.indices.subarray(start, start + PAGE)],
          version: imageRows.version,
        },
      });
      for (const item of items) if (item.thumbnail_src) thumbnails.push(item.thumbnail_src);
    }
    if (thumbnails.length === 0) throw new Error('No item of the browsed dataset has a thumbnail');

    if (IMAGES > 0) {
      const uploaded = await client.createDataset({
        name: 'load-upload',
        task_type: 'classification',
      });
      uploader = await startUploader(server, uploaded.id);
    }
    console.log(
      `(setup in ${((performance.now() - setupStarted) / 1000).toFixed(0)} s, not counted: ${SAMPLES.toLocaleString()} items uploaded and processed, ${thumbnails.length.toLocaleString()} thumbnails (${thumbnails.filter((url) => url.includes('/thumbnails/')).length.toLocaleString()} made as WebP, the others the uploaded files); the item table's cold build took ${coldMs.toFixed(0)} ms${uploader ? `; ${IMAGES.toLocaleString()} JPEGs of ${Math.round(uploader.bytes / IMAGES / 1024)} KB on average ready to upload` : ''})`,
    );

    // ---- the load
    /** One call of a user, timed until its answer is read; null when it failed (recorded). */
    const timed = async <T>(
      kind: Kind,
      what: string,
      call: (signal: AbortSignal) => Promise<T>,
    ): Promise<T | null> => {
      const started = performance.now();
      try {
        const answer = await call(AbortSignal.timeout(TIMEOUT_MS));
        record(kind, performance.now() - started);
        return answer;
      } catch (error) {
        const message =
          error instanceof ApiError
            ? `${error.status} ${error.description.slice(0, 300)}`
            : (error as Error).message;
        record(kind, performance.now() - started, `${what} → ${message}`);
        return null;
      }
    };
    /** A thumbnail as the browser loads it: the URL the item answered, with the session cookie. */
    const thumbnail = (url: string) =>
      timed('thumbnail', url, async (signal) => {
        const response = await fetch(`${server.url}${url}`, {
          headers: { cookie: cookies.header() },
          signal,
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${response.status}`);
      });
    const loadStarted = performance.now();
    const deadline = loadStarted + SECONDS * 1000;
    const user = async (index: number) => {
      const random = mulberry32(1000 + index);
      for (let loop = 0; loop < MAX_LOOPS && performance.now() < deadline; loop++) {
        const { filter, sort } = query(random, index + loop);
        const body = {
          data_level: 'image',
          filter,
          sort,
          include_missing: true,
          format: 'rows',
        } as const;
        const found = await timed(
          'item_ids',
          `item_ids ${JSON.stringify(body).slice(0, 300)}`,
          (signal) => browser.call(api.explore.itemIds, { params, body }, { signal }),
        );
        if (found !== null) {
          const { indices, version } = decodeIndices(Buffer.from(found.rows!, 'base64'));
          // The first page, then pages a user scrolls to (most stay near the top).
          const pages = Math.max(1, Math.ceil(indices.length / PAGE));
          const page = loop === 0 ? 0 : Math.floor(random() * Math.min(pages, 20));
          const metadataId = HISTOGRAM_FIELDS[(index + loop) % HISTOGRAM_FIELDS.length]!;
          const [pageItems] = await Promise.all([
            timed('items', `items page ${page}`, (signal) =>
              browser.call(
                api.explore.items,
                {
                  params,
                  body: {
                    data_level: 'image',
                    rows: [...indices.subarray(page * PAGE, page * PAGE + PAGE)],
                    version,
                  },
                },
                { signal },
              ),
            ),
            timed('histogram', `histogram of ${metadataId}`, (signal) =>
              browser.call(
                api.explore.histogram,
                {
                  params,
                  body: { data_level: 'image', metadata_id: metadataId, filter, max_num_bins: 20 },
                },
                { signal },
              ),
            ),
          ]);
          const own = pageItems
            ? pageItems.items.flatMap((item) => (item.thumbnail_src ? [item.thumbnail_src] : []))
            : [];
          const from = Math.floor(random() * thumbnails.length);
          const urls = [
            ...own,
            ...Array.from(
              { length: PAGE - own.length },
              (_, i) => thumbnails[(from + i) % thumbnails.length]!,
            ),
          ];
          let next = 0;
          await Promise.all(
            Array.from({ length: THUMBNAILS_IN_FLIGHT }, async () => {
              while (next < urls.length && performance.now() < deadline)
                await thumbnail(urls[next++]!);
            }),
          );
        }
        if (THINK_MS > 0)
          await sleep(Math.min(THINK_MS * (0.5 + random()), deadline - performance.now()));
        else if (found === null) await sleep(100); // a failing server is not hammered in a tight loop
      }
    };
    const health = async () => {
      while (performance.now() < deadline) {
        await timed('health', 'health', (signal) =>
          browser.call(api.state.health, undefined, { signal }),
        );
        await sleep(HEALTH_EVERY_MS);
      }
    };

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const serverCpu = cpuMs(server.pid);
    const clientCpu = process.cpuUsage();
    const machine = machineCpu();
    uploader?.go();
    await Promise.all([...Array.from({ length: USERS }, (_, i) => user(i)), health()]);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    delay.disable();
    const machineAfter = machineCpu();
    const serverCpuSeconds = (cpuMs(server.pid) - serverCpu) / 1000;
    const clientUsage = process.cpuUsage(clientCpu);
    const atEnd = uploader ? { ...uploader.state } : undefined;

    // ---- figures
    const row = (name: string, kinds: Kind[]) => {
      const all = kinds.flatMap((kind) => latencies.get(kind) ?? []);
      const failed = kinds.reduce((sum, kind) => sum + (errors.get(kind) ?? 0), 0);
      const p95 = percentile(all, 95);
      const fmt = (ms: number) => (Number.isNaN(ms) ? '–' : ms.toFixed(0)).padStart(7);
      console.log(
        `${name.padEnd(10)} ${String(all.length).padStart(7)} ${fmt(percentile(all, 50))} ${fmt(p95)} ${fmt(percentile(all, 99))} ${String(failed).padStart(7)} ${(all.length / loadSeconds).toFixed(1).padStart(8)}   ${(p95 / TARGET_P95_MS).toFixed(2)}×`,
      );
    };
    console.log(
      `\n${USERS} users browsed for ${loadSeconds.toFixed(1)} s (latency: request sent to last byte read, errors included)`,
    );
    console.log(
      `${'request'.padEnd(10)} ${'count'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'req/s'.padStart(8)}   p95 / ${TARGET_P95_MS} ms`,
    );
    for (const kind of KINDS) row(kind, [kind]);
    row('overall', [...KINDS]);
    row('health', ['health']);
    if (firstErrors.length > 0) {
      console.log(`first errors:`);
      for (const error of firstErrors) console.log(`  ${error}`);
    }

    console.log(
      !atEnd
        ? '\nno upload during the load (--images 0)'
        : !Number.isNaN(atEnd.uploadedMs)
          ? `\nupload during the load: ${IMAGES.toLocaleString()} images sent by the SDK in ${(atEnd.uploadedMs / 1000).toFixed(1)} s = ${((IMAGES * 1000) / atEnd.uploadedMs).toFixed(1)} images/s; the uploader process kept ${(atEnd.uploaderCpuMs / atEnd.uploadedMs).toFixed(2)} cores busy`
          : `\nupload during the load: ${atEnd.done.toLocaleString()} of ${IMAGES.toLocaleString()} images sent by the SDK when the load ended (${((atEnd.done * 1000) / Math.max(1, atEnd.doneMs)).toFixed(1)} images/s by its last finished batch, at ${(atEnd.doneMs / 1000).toFixed(1)} s)`,
    );
    const cores = (machineAfter.total - machine.total) / loadSeconds;
    console.log(
      `during the load: server ${(serverCpuSeconds / loadSeconds).toFixed(2)} cores, load generator ${((clientUsage.user + clientUsage.system) / 1e6 / loadSeconds).toFixed(2)} cores, whole machine ${((machineAfter.busy - machine.busy) / loadSeconds).toFixed(2)} of ${cores.toFixed(2)} busy; the load generator's event loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms; server peak memory (VmHWM) ${server.peakRssMb().toFixed(0)} MB; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    if (!uploader) return;
    // The rest of the upload and its processing, without the users.
    const rest = performance.now();
    let limit: NodeJS.Timeout | undefined;
    await Promise.race([
      uploader.state.exited,
      new Promise((wake) => (limit = setTimeout(wake, 10 * 60_000))),
    ]);
    clearTimeout(limit);
    if (uploader.state.error) throw new Error(`The upload failed: ${uploader.state.error}`);
    await waitForJobs(server, 10 * 60_000);
    console.log(
      `upload in all: sent in ${(uploader.state.uploadedMs / 1000).toFixed(1)} s; every image processed (thumbnails, metadata) ${((performance.now() - rest) / 1000 + loadSeconds).toFixed(1)} s after the load started`,
    );
  } finally {
    uploader?.stop();
    await server.stop();
  }
}

await main();
