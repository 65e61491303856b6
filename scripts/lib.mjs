// Helpers shared by the start, build and test scripts. Only Node built-ins here: these scripts
// run before dependencies are installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Node.js flags of the server and worker processes. A batch upload parses and validates megabytes
 * of JSON whose objects live for one request; with V8's default 16 MB semi-spaces most of them
 * survived into the old generation and garbage collection took 40 % of the server's time. 64 MB
 * semi-spaces cut the server's CPU per metadata-only sample by 40 % (docs/performance.md).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

/**
 * Runs a built server script (relative to the repository) with SERVER_NODE_FLAGS and the extra
 * arguments, passes SIGINT and SIGTERM on, and exits with its status.
 */
export function serveWithServerFlags(script, args) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(root, script), ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function runOrExit(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

/** Newest modification time under a path, skipping dependency and output folders. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

// Install and build output goes to stderr, so commands like `npm run -s license` keep stdout clean.
const quiet = { stdio: ['inherit', 2, 'inherit'] };

const manifests = [
  'package.json',
  'package-lock.json',
  ...['packages/contracts', 'packages/metrics', 'packages/analysis', 'packages/sdk']
    .concat(['apps/server', 'apps/web', 'e2e', 'bench'])
    .map((dir) => `${dir}/package.json`),
];

/** Installs dependencies when node_modules is missing or older than a manifest. */
export function ensureInstalled() {
  const marker = join(root, 'node_modules/.package-lock.json');
  const installedAt = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const stale = manifests.some((file) => newestMtime(join(root, file)) > installedAt);
  if (!stale) return;
  console.error('• Installing dependencies (npm install)…');
  runOrExit('npm', ['install', '--no-audit', '--no-fund'], quiet);
}

/** Builds the server, the packages and the web app when their sources changed. */
export function buildStale() {
  // tsc -b is incremental: it only rebuilds projects whose inputs changed.
  runOrExit('npx', ['tsc', '-b', 'tsconfig.json'], quiet);
  const webOut = join(root, 'apps/web/dist/index.html');
  const builtAt = existsSync(webOut) ? statSync(webOut).mtimeMs : 0;
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/public',
  ]
    .concat(['packages/contracts/src', 'packages/metrics/src'])
    .map((path) => newestMtime(join(root, path)));
  if (Math.max(...sources) > builtAt) {
    console.error('• Building the web app (vite build)…');
    runOrExit('npx', ['vite', 'build', '--logLevel', 'warn'], {
      ...quiet,
      cwd: join(root, 'apps/web'),
    });
  }
}
