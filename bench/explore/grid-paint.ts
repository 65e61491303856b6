// First grid paint benchmark (issue 6): the built server with the built web app, Chromium opens
// /datasets/{id}/explore and reads the 'loupe:grid-first-paint' mark (ms after navigation start),
// cold (the server's item table not built yet) and warm (p50 of N navigations), on the generated
// large dataset and on the demo detection dataset. Prints figures; never fails on time.
//   node scripts/build.mjs   # the server and web app under test
//   npx tsx --conditions=loupe-src bench/explore/grid-paint.ts [--samples N] [--runs N]
//     [--skip-demo] [--db sqlite|postgres]
// The large dataset's explorer is opened after a first start (its tables are built, then written
// to their files) and again after a restart (the tables are read back: docs/explore-snapshots.md).
// The large dataset is the SQLite file bench/explore/server.ts keeps
// (.bench-data/explore/loupe-N.db, generated through it when missing); LOUPE_BENCH_EXPLORE_DB
// points at another copy of it. The server writes to that file (sessions): use a copy.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { api, type Dataset } from '@loupe/contracts';
import type { Browser, BrowserContext } from 'playwright-core';
import {
  cpuMs,
  exploreDatabase,
  freePort,
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
    runs: { type: 'string', default: '5' },
    'skip-demo': { type: 'boolean', default: false },
    db: { type: 'string', default: 'sqlite' },
  },
});
const SAMPLES = Number(values.samples);
if (values.db !== 'sqlite' && values.db !== 'postgres')
  throw new Error(`--db must be sqlite or postgres, got ${values.db}`);
// bench/explore/server.ts --db postgres generates the PostgreSQL data (schema loupe_bench_explore).
const PG_URL = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(values.runs);
const DATA_DIR = join(ROOT, '.bench-data/explore');
const TARGET_MS = 1500;
const DEMO_DATASETS = 7;
const MARK = 'loupe:grid-first-paint';

interface Paint {
  firstPaint: number;
  serverCpu: number;
}

/**
 * Opens the explorer `1 + RUNS` times: the first is the cold one. In `shared` (a browser context
 * kept across a server restart, as a returning user's browser) or in a context of its own.
 */
async function measure(
  browser: Browser,
  server: Server,
  datasetId: string,
  shared?: BrowserContext,
): Promise<Paint[]> {
  const context = shared ?? (await browser.newContext({ viewport: { width: 1440, height: 900 } }));
  const [name, value] = server.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  const paints: Paint[] = [];
  // The API calls of the last navigation, to say where the time goes.
  let calls: { name: string; ms: number }[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    const name = `${request.method()} ${url.pathname.replace(datasetId, ':id')}`;
    calls.push({ name, ms: request.timing().responseEnd });
  });
  try {
    for (let run = 0; run <= RUNS; run++) {
      calls = [];
      const cpu = cpuMs(server.child.pid);
      await page.goto(`${server.url}/datasets/${datasetId}/explore`);
      const handle = await page.waitForFunction(
        (mark) => performance.getEntriesByName(mark)[0]?.startTime ?? null,
        MARK,
        { timeout: 300_000 },
      );
      paints.push({
        firstPaint: (await handle.jsonValue()) as number,
        serverCpu: cpuMs(server.child.pid) - cpu,
      });
      if (run === 0) {
        const slow = calls.filter((call) => call.ms >= 100).sort((a, b) => b.ms - a.ms);
        console.log(
          `API calls of the first navigation taking ≥ 100 ms: ${slow.map((call) => `${call.name} ${call.ms.toFixed(0)} ms`).join('; ') || 'none'}`,
        );
      }
    }
    const slow = calls.filter((call) => call.ms >= 100).sort((a, b) => b.ms - a.ms);
    console.log(
      `API calls of the last navigation taking ≥ 100 ms: ${slow.map((call) => `${call.name} ${call.ms.toFixed(0)} ms`).join('; ') || 'none'}`,
    );
  } finally {
    if (!shared) await context.close();
    else await page.close();
  }
  return paints;
}

function report(label: string, paints: Paint[], coldName = 'cold (table built)'): void {
  const [cold, ...warm] = paints;
  const warmP50 = p50(warm.map((paint) => paint.firstPaint));
  const line = (name: string, ms: number, cpu: number) =>
    console.log(
      `${label.padEnd(28)} ${name.padEnd(22)} ${ms.toFixed(0).padStart(6)} ms after navigation` +
        `   server CPU ${cpu.toFixed(0).padStart(5)} ms   target ${TARGET_MS} ms   ratio ${(ms / TARGET_MS).toFixed(2)}`,
    );
  line(coldName, cold!.firstPaint, cold!.serverCpu);
  line(`warm p50 of ${warm.length}`, warmP50, p50(warm.map((paint) => paint.serverCpu)));
  console.log(
    `${''.padEnd(28)} warm runs: ${warm.map((paint) => paint.firstPaint.toFixed(0)).join(', ')} ms`,
  );
}

async function benchLarge(browser: Browser): Promise<void> {
  const env: Record<string, string> =
    values.db === 'postgres'
      ? { DATABASE_URL: PG_URL, LOUPE_DATABASE_SCHEMA: 'loupe_bench_explore' }
      : {
          DATABASE_URL: `sqlite:${process.env.LOUPE_BENCH_EXPLORE_DB ?? exploreDatabase(SAMPLES)}`,
        };
  const dataDir = join(DATA_DIR, `server-paint-${values.db}`);
  mkdirSync(dataDir, { recursive: true }); // keeps its secret key between runs
  // No table files of an earlier run: the first start builds its tables and writes them.
  rmSync(join(dataDir, 'explore-tables'), { recursive: true, force: true });
  // One browser across the restart, on one port: after it the app comes from the browser's
  // cache, as for a user who had it open before.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const port = String(await freePort());
  for (const start of ['first start', 'restart'] as const) {
    const server = await startServer(dataDir, { ...env, PORT: port });
    try {
      const datasets = await server.call(api.datasets.list);
      const dataset = datasets.find((candidate) => candidate.name === `explore-bench-${SAMPLES}`);
      if (!dataset) throw new Error(`No dataset explore-bench-${SAMPLES} in ${env.DATABASE_URL}`);
      console.log(`${start} (${values.db}), load before: ${uptime()}`);
      report(
        `${SAMPLES.toLocaleString()} samples, ${start}`,
        await measure(browser, server, dataset.id, context),
        start === 'first start' ? 'cold (table built)' : 'cold (table file read)',
      );
      console.log(`load after:  ${uptime()}`);
    } finally {
      // Stopping waits for the table files being written.
      await server.stop();
    }
  }
  await context.close();
}

async function benchDemo(browser: Browser): Promise<void> {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'loupe-grid-paint-'));
  const server = await startServer(dataDir, {}, ['--demo']);
  try {
    // The demo seeds in the background: wait until its datasets exist and no job is pending.
    const deadline = Date.now() + 300_000;
    let datasets: Dataset[] = [];
    for (;;) {
      datasets = await server.call(api.datasets.list);
      const activities = await server.call(api.activities.list, {
        query: { scope: 'all', limit: 1000 },
      });
      if (datasets.length >= DEMO_DATASETS && activities.every((a) => a.status !== 'PENDING'))
        break;
      if (Date.now() > deadline) throw new Error('The demo datasets did not settle in 5 minutes');
      await new Promise((wake) => setTimeout(wake, 1000));
    }
    const detection = datasets.find((dataset) => dataset.name === 'Demo · Shape detection')!;
    console.log(`load before: ${uptime()}`);
    report(
      `demo detection (${detection.samples_count ?? '?'})`,
      await measure(browser, server, detection.id),
    );
    console.log(`load after:  ${uptime()}`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `First grid paint benchmark — ${os.cpus().length} cores, node ${process.version}, ` +
    `${RUNS} warm navigations per dataset; figures are the '${MARK}' mark's time after ` +
    `navigation start; server CPU is the server process's CPU time during the navigation.`,
);
requireBuild();
const browser = await launchChromium();
try {
  await benchLarge(browser);
  if (!values['skip-demo']) await benchDemo(browser);
} finally {
  await browser.close();
}
