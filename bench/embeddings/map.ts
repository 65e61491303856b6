// Embeddings map benchmark (issue 7): the built server and web app with a stored layout of
// 1,000,000 points, Chromium opens the Explore page's embeddings view and the benchmark reads
// (1) the time from navigation until the map has drawn every point, (2) the frame times while
// the user zooms with the wheel and pans by dragging, from requestAnimationFrame in the page.
// Prints figures; never fails on time.
//   node scripts/build.mjs   # the server and web app under test
//   npx tsx --conditions=loupe-src bench/embeddings/map.ts [--samples N] [--runs N]
// The dataset is the one bench/explore/server.ts generates (.bench-data/explore/loupe-N.db,
// generated through it when missing), copied to .bench-data/embeddings/map-N.db, where a
// feature and its UMAP layout (Gaussian blobs) are stored as the EmbeddingsComputation job
// would store them. Headless Chromium here has no GPU: WebGL runs in software (SwiftShader) on
// the same 2 cores as the server, so drawing figures are a worst case.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRandom } from '@loupe/analysis';
import { DEFAULT_REDUCTION, api } from '@loupe/contracts';
import { migrateToLatest, openDatabase } from '@loupe/server/embedded';
import { createRepositories } from '@loupe/server/embeddings-bench';
import type { CDPSession, Page } from 'playwright-core';
import {
  cpuMs,
  exploreDatabase,
  launchChromium,
  p50,
  requireBuild,
  ROOT,
  startServer,
  uptime,
  type Server,
} from '../support/built-server.js';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
  },
});
const SAMPLES = Number(values.samples);
const RUNS = Number(values.runs);
const DATA_DIR = join(ROOT, '.bench-data/embeddings');
const DB_PATH = join(DATA_DIR, `map-${SAMPLES}.db`);
const FEATURE = 'bench.embedding';
/** Fixed, so a stored layout stays current across runs (points compare it with the feature's). */
const VERSION = 1_700_000_000_000;
const CLUSTERS = 40;
const TARGET_MS = 1000; // the points endpoint's target; the map's own has no number

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** The bench dataset with a feature and a stored layout of its samples. */
async function prepare(): Promise<void> {
  const source = exploreDatabase(SAMPLES);
  mkdirSync(DATA_DIR, { recursive: true });
  if (!existsSync(DB_PATH)) copyFileSync(source, DB_PATH);
  const database = openDatabase({ kind: 'sqlite', path: DB_PATH });
  try {
    await migrateToLatest(database);
    const { db } = database;
    const dataset = await db
      .selectFrom('datasets')
      .select('id')
      .where('name', '=', `explore-bench-${SAMPLES}`)
      .executeTakeFirstOrThrow();
    const repos = createRepositories(db, database.dialect);
    const key = {
      dataset_id: dataset.id,
      prediction_set_id: '',
      data_level: 'image',
      feature_name: FEATURE,
      method_key: `UMAP:${DEFAULT_REDUCTION.method === 'UMAP' ? DEFAULT_REDUCTION.num_neighbors : 15}`,
    };
    const state = await repos.embeddings.state(key);
    if (state?.status === 'ready' && Number(state.source_version) === VERSION) return;
    const rows = await db
      .selectFrom('samples')
      .select('id')
      .where('dataset_id', '=', dataset.id)
      .where('deleted', '=', 0)
      .orderBy('seq')
      .execute();
    const random = createRandom(11);
    const centres = Array.from({ length: CLUSTERS }, () => [
      random.normal() * 8,
      random.normal() * 8,
    ]);
    const coords = new Float32Array(rows.length * 2);
    for (let i = 0; i < rows.length; i++) {
      const [cx, cy] = centres[Math.floor(random.next() * CLUSTERS)]!;
      coords[2 * i] = cx! + random.normal() * 0.8;
      coords[2 * i + 1] = cy! + random.normal() * 0.8;
    }
    await repos.features.upsert({
      dataset_id: dataset.id,
      data_level: 'image',
      name: FEATURE,
      dimension: 128,
      source: 'uploaded',
      created_at: VERSION,
      updated_at: VERSION,
    });
    await repos.embeddings.saveResult(key, {
      source_version: VERSION,
      input_hash: 'bench',
      ids: rows.map((row) => row.id),
      coords,
      updated_at: VERSION,
    });
    console.log(`stored a layout of ${rows.length.toLocaleString()} points`);
  } finally {
    await database.destroy();
  }
}

interface Run {
  drawnMs: number;
  points: number;
  serverCpu: number;
}

/** Navigates to the map and waits until every point is drawn. */
async function openMap(page: Page, server: Server, datasetId: string): Promise<Run> {
  const cpu = cpuMs(server.child.pid);
  await page.goto(`${server.url}/datasets/${datasetId}/explore?view=embeddings`);
  const canvas = page.getByTestId('embeddings-canvas');
  await canvas.and(page.locator('[data-drawn-points]')).waitFor({ timeout: 600_000 });
  const drawnMs = (await page.evaluate('performance.now()')) as number;
  return {
    drawnMs,
    points: Number(await canvas.getAttribute('data-drawn-points')),
    serverCpu: cpuMs(server.child.pid) - cpu,
  };
}

// In-page scripts as text: tsx would wrap functions passed to page.evaluate in its own helpers,
// which do not exist in the page.
const START_FRAMES = `(() => {
  window.__frames = [];
  window.__framing = true;
  window.__longTasks = 0;
  window.__observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks += entry.duration;
  });
  window.__observer.observe({ type: 'longtask' });
  const tick = (at) => {
    window.__frames.push(at);
    if (window.__framing) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;
const STOP_FRAMES = `(() => {
  window.__framing = false;
  window.__observer.disconnect();
  return { frames: window.__frames, longTasks: window.__longTasks };
})()`;

interface Frames {
  intervals: number[];
  /** Time the page's main thread spent in tasks over 50 ms (JavaScript, layout). */
  longTasks: number;
}

/** Frame intervals (ms) while `act` runs, from requestAnimationFrame, and long tasks. */
async function frames(page: Page, act: () => Promise<void>): Promise<Frames> {
  await page.evaluate(START_FRAMES);
  await act();
  const { frames: stamps, longTasks } = (await page.evaluate(STOP_FRAMES)) as {
    frames: number[];
    longTasks: number;
  };
  return { intervals: stamps.slice(1).map((at, i) => at - stamps[i]!), longTasks };
}

/** Stops the CDP profiler and prints the page's top functions by self time. */
async function printProfile(profiler: CDPSession, label: string): Promise<void> {
  const { profile } = await profiler.send('Profiler.stop');
  const self = new Map<string, number>();
  const { nodes, samples = [], timeDeltas = [] } = profile;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
    self.set(name, (self.get(name) ?? 0) + (timeDeltas[i] ?? 0) / 1000);
  });
  console.log(`  ${label} profile, self time:`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`    ${ms.toFixed(0).padStart(7)} ms  ${name}`);
}

function describeFrames(label: string, { intervals, longTasks }: Frames): void {
  const total = intervals.reduce((sum, v) => sum + v, 0);
  console.log(
    `  ${label.padEnd(34)} ${intervals.length} frames in ${(total / 1000).toFixed(1)} s = ${((intervals.length / total) * 1000).toFixed(1)} fps;` +
      ` frame p50 ${p50(intervals).toFixed(0)} ms, p95 ${percentile(intervals, 0.95).toFixed(0)} ms, max ${Math.max(...intervals).toFixed(0)} ms; main-thread long tasks ${(longTasks / 1000).toFixed(1)} s`,
  );
}

console.log(
  `Embeddings map benchmark — ${SAMPLES.toLocaleString()} points; Chromium with software WebGL; load ${uptime()}`,
);
requireBuild();
await prepare();
const server = await startServer(join(DATA_DIR, 'server-map'), {
  DATABASE_URL: `sqlite:${DB_PATH}`,
});
const browser = await launchChromium();
try {
  const datasets = await server.call(api.datasets.list);
  const dataset = datasets.find((candidate) => candidate.name === `explore-bench-${SAMPLES}`)!;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const [name, value] = server.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  const runs: Run[] = [];
  const profiler = process.env.PROFILE === '1' ? await context.newCDPSession(page) : null;
  if (profiler) await profiler.send('Profiler.enable');
  for (let run = 0; run <= RUNS; run++) {
    if (profiler && run === RUNS) await profiler.send('Profiler.start');
    runs.push(await openMap(page, server, dataset.id));
  }
  if (profiler) await printProfile(profiler, 'last navigation');
  const [cold, ...warm] = runs;
  console.log(
    `  drawn, cold (server tables built): ${cold!.drawnMs.toFixed(0)} ms after navigation, ${cold!.points.toLocaleString()} points, server CPU ${cold!.serverCpu.toFixed(0)} ms`,
  );
  console.log(
    `  drawn, warm p50 of ${warm.length}: ${p50(warm.map((r) => r.drawnMs)).toFixed(0)} ms after navigation (runs ${warm.map((r) => r.drawnMs.toFixed(0)).join(', ')}), server CPU ${p50(warm.map((r) => r.serverCpu)).toFixed(0)} ms; the points endpoint's own target is ${TARGET_MS} ms`,
  );

  const box = (await page.getByTestId('embeddings-canvas').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  describeFrames('idle (nothing moves)', await frames(page, () => page.waitForTimeout(1000)));
  // PROFILE=1: where the page's main thread spends a navigation and a zoom, by self time (CDP).
  if (profiler) await profiler.send('Profiler.start');
  describeFrames(
    'wheel zoom in and out (20 steps)',
    await frames(page, async () => {
      for (let step = 0; step < 20; step++) {
        await page.mouse.wheel(0, step < 10 ? -240 : 240);
        await page.waitForTimeout(50);
      }
      await page.waitForTimeout(300);
    }),
  );
  if (profiler) await printProfile(profiler, 'zoom');
  describeFrames(
    'drag to pan (40 moves)',
    await frames(page, async () => {
      await page.mouse.down();
      for (let step = 1; step <= 40; step++) {
        await page.mouse.move(cx + step * 6, cy + Math.sin(step / 6) * 60);
        await page.waitForTimeout(25);
      }
      await page.mouse.up();
      await page.waitForTimeout(300);
    }),
  );
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
console.log(`  load after: ${uptime()}`);
