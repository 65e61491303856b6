// The built Loupe server in a child process for benchmarks that drive it like a user would
// (Chromium, HTTP): a free port, /api/health, first-run setup or sign-in of the bench admin,
// the session cookie, CPU time from /proc, and a clean stop.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { ApiError, api, cookieJar, createClient, type ApiClient } from '@loupe/contracts';
import { chromium, type Browser } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '../..');
export const MAIN_JS = join(ROOT, 'apps/server/dist/main.js');
export const WEB_DIR = join(ROOT, 'apps/web/dist');
/** The account bench/explore/server.ts sets up on the generated database. */
export const ADMIN = {
  username: 'Bench Admin',
  email: 'bench@example.com',
  password: 'bench password',
};

export function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? done(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** CPU time of a process so far in ms (utime + stime from /proc, 100 ticks a second on Linux). */
export function cpuMs(pid: number | undefined): number {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface Server {
  url: string;
  child: ChildProcess;
  /** `name=value` of the bench admin's session cookie, for a browser context. */
  cookie: string;
  /** The typed client, signed in as the bench admin. */
  call: ApiClient['call'];
  stop(): Promise<void>;
}

export async function startServer(
  dataDir: string,
  env: Record<string, string>,
  args: string[] = [],
) {
  // A given PORT keeps the origin across restarts (and with it the browser's cache).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let output = '';
  const child = spawn(process.execPath, [MAIN_JS, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOUPE_DATA_DIR: dataDir,
      LOUPE_ENV: 'production',
      LOUPE_WEB_DIR: WEB_DIR,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const cookies = cookieJar();
  const client = createClient({ baseUrl: url, cookies });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited:\n${output}`);
    const healthy = await client.call(api.state.health).then(
      () => true,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`The server did not become healthy:\n${output}`);
    await new Promise((wake) => setTimeout(wake, 200));
  }
  // First-run setup signs the admin in; on a database set up before, sign in instead.
  await client
    .call(api.setup.complete, { body: { company: 'Bench', user: ADMIN } })
    .catch(async (error: unknown) => {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      await client.call(api.auth.login, {
        body: { email: ADMIN.email, password: ADMIN.password },
      });
    });
  const server: Server = {
    url,
    child,
    cookie: cookies.header(),
    call: client.call,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
  return server;
}

export function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

/**
 * The SQLite file of `samples` samples that bench/explore/server.ts generates and keeps
 * (.bench-data/explore/loupe-N.db), generated through it when missing.
 */
export function exploreDatabase(samples: number): string {
  const path = join(ROOT, `.bench-data/explore/loupe-${samples}.db`);
  if (!existsSync(path)) {
    console.log(`${path} is missing: generating it through bench/explore/server.ts…`);
    execFileSync(
      'npx',
      [
        'tsx',
        '--conditions=loupe-src',
        join(ROOT, 'bench/explore/server.ts'),
        '--db',
        'sqlite',
        '--samples',
        String(samples),
        '--runs',
        '1',
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
  }
  return path;
}

/** Refuses to run against a stale or missing build. */
export function requireBuild(): void {
  if (!existsSync(MAIN_JS) || !existsSync(join(WEB_DIR, 'index.html'))) {
    throw new Error('Build first: node scripts/build.mjs');
  }
}

/**
 * Debian's Chromium, headless. WebGL (the embeddings map) runs in software (SwiftShader): this
 * machine has no GPU, so drawing figures are a worst case next to a user's browser.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}
