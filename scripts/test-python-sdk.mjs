// The Python SDK's tests against a live, throwaway Loupe server.
//
//   node scripts/test-python-sdk.mjs [report.json]
//
// Starts `node apps/server/dist/main.js` (built beforehand by `npm test`) on a free port with a
// temporary data directory and a throwaway Ed25519 license key pair, completes first-run setup,
// reads the admin's API key, then runs `python3 -m unittest discover -s sdk/python/tests -v` with
// LOUPE_URL, LOUPE_API_KEY and LOUPE_TEST_LICENSE_KEY set. Prints the unittest output, writes
// `{"passed": N, "failed": N}` to the report path when given, and ends with `N passed, N failed`.
// Node built-ins only.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reportPath = process.argv[2];
const serverMain = join(root, 'apps/server/dist/main.js');
/** Small on purpose so that the tests can check that batches are split on 413. */
const BODY_LIMIT_MB = 2;

/** Writes the report (when asked) and prints the closing line. */
function finish(passed, failed, note) {
  if (note) console.error(`✖ ${note}`);
  if (reportPath) writeFileSync(reportPath, JSON.stringify({ passed, failed }) + '\n');
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A license key: base64url(JSON payload) + "." + base64url(Ed25519 signature of the first part). */
function makeLicense(privateKey) {
  const payload = {
    license_id: `test-${randomBytes(4).toString('hex')}`,
    company_name: 'Python SDK tests',
    expiration_ts: Math.floor(Date.now() / 1000) + 30 * 24 * 3600,
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(null, Buffer.from(body, 'ascii'), privateKey).toString('base64url')}`;
}

async function waitForHealth(base, server, deadlineMs) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the server did not answer GET /api/health within ${deadlineMs / 1000} s`);
}

async function call(base, method, path, body, cookie) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return { response, json: text ? JSON.parse(text) : null };
}

/** Counts from unittest's closing lines: "Ran N tests" and "OK" or "FAILED (failures=…, errors=…)". */
function parseCounts(output) {
  const ran = /^Ran (\d+) tests? in/m.exec(output);
  if (!ran) return null;
  const total = Number(ran[1]);
  let failed = 0;
  const verdict = /^(OK|FAILED)\b(?: \(([^)]*)\))?/m.exec(output.slice(ran.index));
  if (!verdict) return null;
  let skipped = 0;
  for (const part of (verdict[2] ?? '').split(',')) {
    const [key, value] = part.trim().split('=');
    if (key === 'failures' || key === 'errors' || key === 'unexpected successes')
      failed += Number(value);
    if (key === 'skipped') skipped += Number(value);
  }
  return { passed: total - failed - skipped, failed, skipped };
}

async function main() {
  if (!existsSync(serverMain)) {
    return [
      0,
      1,
      `${serverMain} is missing: build the server first (npm run build, or npx tsc -b apps/server).`,
    ];
  }
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const license = makeLicense(privateKey);
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-pysdk-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [serverMain], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOUPE_DATA_DIR: dataDir,
      LOUPE_LICENSE_PUBLIC_KEY: publicPem,
      LOUPE_BODY_LIMIT_MB: String(BODY_LIMIT_MB),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stopServer = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      const stopped = await Promise.race([
        new Promise((r) => server.once('exit', () => r(true))),
        sleep(10_000).then(() => false),
      ]);
      if (!stopped) server.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let tests = null;
  // Ctrl-C or a kill: stop the tests and the server, and remove its data before leaving.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      tests?.kill('SIGTERM');
      void stopServer().finally(() => process.exit(130));
    });
  }

  try {
    await waitForHealth(base, server, 30_000);
    const setup = await call(base, 'POST', '/api/setup', {
      company: 'Python SDK tests',
      user: { username: 'Ana Tester', email: 'ana@example.com', password: 'correct horse 42' },
    });
    const cookie = (setup.response.headers.getSetCookie?.() ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    if (!cookie) throw new Error('POST /api/setup did not set a session cookie');
    const { json: key } = await call(base, 'GET', '/api/settings/key', undefined, cookie);

    const python = process.env.PYTHON ?? 'python3';
    console.log(`• Python SDK tests against ${base} (${python})`);
    const child = (tests = spawn(
      python,
      ['-m', 'unittest', 'discover', '-s', 'sdk/python/tests', '-v'],
      {
        cwd: root,
        env: {
          ...process.env,
          LOUPE_URL: base,
          LOUPE_API_KEY: key.api_key,
          LOUPE_TEST_LICENSE_KEY: license,
          LOUPE_TEST_BODY_LIMIT_MB: String(BODY_LIMIT_MB),
          PYTHONPATH: [join(root, 'sdk/python/src'), process.env.PYTHONPATH]
            .filter(Boolean)
            .join(':'),
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONUNBUFFERED: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ));
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    const status = await new Promise((r) => {
      child.once('error', (error) => {
        output += `\n${error.message}`;
        r(-1);
      });
      child.once('close', (code) => r(code));
    });
    const counts = parseCounts(output);
    if (!counts) return [0, 1, `unittest ended (exit ${status}) without a summary`];
    if (counts.skipped) console.log(`(${counts.skipped} skipped)`);
    return [counts.passed, counts.failed];
  } catch (error) {
    return [0, 1, `the Python SDK tests could not run: ${error.message}`];
  } finally {
    await stopServer();
  }
}

finish(...(await main()));
