// Starts a built Loupe server as a child process for tests and benchmarks: fresh data folder,
// setup done, licensed with a throwaway Ed25519 key pair, and the admin's API key at hand.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repositoryRoot = resolve(import.meta.dirname, '../../../..');

/** The Node.js flags `npm start` runs the server with (scripts/lib.mjs, SERVER_NODE_FLAGS). */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

export interface LocalServer {
  url: string;
  apiKey: string;
  pid: number;
  /** Peak resident memory of the server process so far, in MB (Linux). */
  peakRssMb(): number;
  stop(): Promise<void>;
}

export function licenseKey(
  privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'],
  days = 1,
): string {
  const body = Buffer.from(
    JSON.stringify({
      license_id: 'local',
      company_name: 'Local',
      expiration_ts: Math.floor(Date.now() / 1000) + days * 86_400,
    }),
  ).toString('base64url');
  return `${body}.${sign(null, Buffer.from(body), privateKey).toString('base64url')}`;
}

/**
 * `env` is added to the server's environment (e.g. DATABASE_URL); LOUPE_LOG_FILE copies its
 * stdout. `nodeArgs` go to Node.js before the script (e.g. `--cpu-prof` for a benchmark).
 */
export async function startLocalServer(
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<LocalServer> {
  const main = join(repositoryRoot, 'apps/server/dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-local-'));
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOUPE_DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOUPE_LOG_FILE ? 'info' : 'warn',
    LOUPE_LICENSE_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    DATABASE_URL: '',
    ...env,
  };
  if (!serverEnv.DATABASE_URL) delete serverEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, main], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (process.env.LOUPE_LOG_FILE) appendFileSync(process.env.LOUPE_LOG_FILE, chunk);
      out += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) resolveUrl(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  const setup = await fetch(`${url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      company: 'Local',
      user: { username: 'Local Admin', email: 'admin@example.com', password: 'local password' },
    }),
  });
  const cookie = setup.headers.get('set-cookie')!.split(';')[0]!;
  await fetch(`${url}/api/settings/license`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ key: licenseKey(privateKey) }),
  });
  const { api_key } = (await (
    await fetch(`${url}/api/settings/key`, { headers: { cookie } })
  ).json()) as { api_key: string };
  return {
    url,
    apiKey: api_key,
    pid: child.pid!,
    peakRssMb: () =>
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise<void>((done) => {
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
