// Starts a built Loupe server for a benchmark: fresh data dir (and fresh PostgreSQL schema when
// asked), setup, a license from a throwaway key pair, and the admin's API key.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

export const root = resolve(import.meta.dirname, '../..');

export interface BenchServer {
  url: string;
  apiKey: string;
  pid: number;
  /** Peak resident memory of the server process so far, in MB (Linux). */
  peakRssMb(): number;
  stop(): Promise<void>;
}

function license(privateKey: ReturnType<typeof generateKeyPairSync>['privateKey']): string {
  const body = Buffer.from(
    JSON.stringify({
      license_id: 'bench',
      company_name: 'Bench',
      expiration_ts: Math.floor(Date.now() / 1000) + 86_400,
    }),
  ).toString('base64url');
  return `${body}.${sign(null, Buffer.from(body), privateKey).toString('base64url')}`;
}

export async function startServer(
  database: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const main = join(root, 'apps/server/dist/main.js');
  if (!existsSync(main)) throw new Error('Build first: npm run build');
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-bench-'));
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOUPE_DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    LOUPE_LICENSE_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ...env,
  };
  let schema: string | undefined;
  const pgUrl = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : 'postgres://postgres@127.0.0.1:5432/test';
  if (database === 'postgres') {
    schema = `loupe_bench_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    serverEnv.DATABASE_URL = pgUrl;
    serverEnv.LOUPE_DATABASE_SCHEMA = schema;
  } else delete serverEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', process.env.BENCH_LOG_LEVEL ? 'pipe' : 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (process.env.BENCH_LOG_FILE) appendFileSync(process.env.BENCH_LOG_FILE, chunk);
      out += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) resolveUrl(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  const setup = await fetch(`${url}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      company: 'Bench',
      user: { username: 'Bench', email: 'bench@example.com', password: 'bench password' },
    }),
  });
  const cookie = setup.headers.get('set-cookie')!.split(';')[0]!;
  await fetch(`${url}/api/settings/license`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ key: license(privateKey) }),
  });
  const { api_key } = (await (
    await fetch(`${url}/api/settings/key`, { headers: { cookie } })
  ).json()) as { api_key: string };
  return {
    url,
    apiKey: api_key,
    pid: child.pid!,
    peakRssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024;
    },
    stop: async () => {
      await new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      }
    },
  };
}
