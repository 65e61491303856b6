// `npm test`: install what is missing, then run every suite and print one closing line
// `N passed, N failed` summing them all.
//   --static      first run the static gate (format check, lint with the import boundaries, type
//                 check), each counted as one check in the closing line (`npm run check`, CI)
//   --unit-only   skip the browser journeys (`npm run check:quick`)
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { buildStale, ensureInstalled, root, run } from './lib.mjs';

const unitOnly = process.argv.includes('--unit-only');
const staticGate = process.argv.includes('--static');
const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

ensureInstalled();

/** True when something accepts TCP connections at host:port within a second. */
function answers(host, port) {
  return new Promise((resolvePromise) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once('error', () => resolvePromise(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolvePromise(false);
    });
  });
}

function ensureChromium() {
  const path = process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium';
  if (existsSync(path)) return true;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log("• Installing Debian's chromium for the browser journeys (apt-get)…");
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (existsSync(path)) return true;
  }
  console.error(
    `✖ Chromium was not found at ${path}. Install Debian's package as root ` +
      '(apt-get install chromium) or set LOUPE_CHROMIUM to a Chromium binary, then run npm test again.',
  );
  return false;
}

const totals = { passed: 0, failed: 0, skipped: 0 };

/** Runs one vitest invocation and adds its counts; a runner that crashed counts as one failure. */
function vitest(name, args, env = {}) {
  const report = join(resultsDir, `${name}.json`);
  rmSync(report, { force: true });
  console.log(`\n━━ ${name} ━━`);
  const status = run(
    'npx',
    [
      'vitest',
      'run',
      ...args,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { env: { ...process.env, ...env } },
  );
  if (!existsSync(report)) {
    totals.failed += 1;
    console.error(`✖ ${name}: the test runner ended (exit ${status}) without a report`);
    return;
  }
  const result = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += result.numPassedTests;
  totals.skipped += result.numPendingTests + (result.numTodoTests ?? 0);
  totals.failed += result.numFailedTests;
  if (status !== 0 && result.numFailedTests === 0) {
    totals.failed += 1;
    console.error(`✖ ${name}: the test runner failed (exit ${status}) outside any test`);
  }
}

/** One step of the static gate: a passed or failed check, whatever its exit status says. */
function gate(name, command, args) {
  console.log(`\n━━ ${name} ━━`);
  const status = run(command, args);
  if (status === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    console.error(`✖ ${name} failed (exit ${status}): ${command} ${args.join(' ')}`);
  }
}

if (staticGate) {
  gate('format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']);
  gate('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
  gate('types', 'npm', ['run', '--silent', 'typecheck']);
}

const postgres =
  Boolean(process.env.DATABASE_URL?.startsWith('postgres')) || (await answers('127.0.0.1', 5432));
if (!postgres) console.log('• No PostgreSQL server answers: the PostgreSQL run is skipped.');

// The SDK, Python and browser suites drive the built server, so build first (incremental).
buildStale();
vitest('unit-and-integration', [], { LOUPE_TEST_POSTGRES: postgres ? '1' : '0' });

for (const suite of ['python-sdk']) {
  const script = join(root, `scripts/test-${suite}.mjs`);
  if (!existsSync(script)) continue;
  console.log(`\n━━ ${suite} ━━`);
  // Suites written in other languages print their own `N passed, N failed` line last.
  const status = run(process.execPath, [script, join(resultsDir, `${suite}.json`)]);
  const report = join(resultsDir, `${suite}.json`);
  if (existsSync(report)) {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += result.passed;
    totals.failed += result.failed;
  } else totals.failed += status === 0 ? 0 : 1;
}

if (!unitOnly) {
  if (ensureChromium()) {
    vitest('e2e', ['--config', 'e2e/vitest.config.ts']);
  } else totals.failed += 1;
}

console.log(
  `\n${totals.passed} passed, ${totals.failed} failed` +
    (totals.skipped ? `, ${totals.skipped} skipped` : ''),
);
process.exit(totals.failed > 0 ? 1 : 0);
