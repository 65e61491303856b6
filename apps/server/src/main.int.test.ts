// The real process as `npm start` runs it: listens over HTTP, keeps its data across restarts,
// and shuts down cleanly on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabaseConfig, testDialect } from './testing/test-app.js';

const dataDir = mkdtempSync(join(tmpdir(), 'loupe-main-'));
const database = await freshDatabaseConfig(dataDir);
afterAll(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(
  extraEnv: NodeJS.ProcessEnv = { HOST: '127.0.0.1' },
): Promise<{ child: ChildProcess; url: string; banner: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    LOUPE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  delete env.HOST;
  if (extraEnv.HOST) env.HOST = extraEnv.HOST;
  if (database.database.kind === 'postgres') {
    env.DATABASE_URL = database.database.url;
    env.LOUPE_DATABASE_SCHEMA = database.database.schema;
  } else delete env.DATABASE_URL;
  const child = spawn(
    process.execPath,
    ['--conditions=loupe-src', '--import', 'tsx', join(import.meta.dirname, 'main.ts')],
    { env },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Loupe is running at (http:\/\/\S+)[\s\S]*Listening on .*\n/.exec(output);
      if (match) resolve({ child, url: match[1]!, banner: match[0] });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe(`the server process on ${testDialect}`, () => {
  it('serves over HTTP, keeps its data across a restart, and exits 0 on SIGTERM', async () => {
    const first = await start();
    expect(await (await fetch(`${first.url}/api/health`)).json()).toMatchObject({
      status: 'ok',
      database: testDialect,
    });
    const setup = await fetch(`${first.url}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        company: 'Acme',
        user: { username: 'Ana', email: 'ana@example.com', password: 'password1' },
      }),
    });
    expect(setup.status).toBe(201);
    expect(setup.headers.get('set-cookie')).toMatch(
      /loupe_session=.+; Path=\/; HttpOnly; SameSite=Lax/,
    );
    expect(await stop(first.child)).toBe(0);

    const second = await start();
    const state = (await (await fetch(`${second.url}/api/state`)).json()) as {
      setup_state: string;
    };
    expect(state.setup_state).toBe('COMPLETE');
    const login = await fetch(`${second.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ana@example.com', password: 'password1' }),
    });
    expect(login.status).toBe(200);
    expect(await stop(second.child)).toBe(0);
  });

  it('listens on loopback only unless HOST says otherwise, and says so', async () => {
    const server = await start({});
    expect(server.banner).toContain('Listening on 127.0.0.1 only');
    expect(server.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect((await fetch(server.url.replace('localhost', '127.0.0.1') + '/api/health')).status).toBe(
      200,
    );
    expect(await stop(server.child)).toBe(0);
  });
});
