// Starts the built Loupe server as a child process on a free port with a fresh data directory,
// waits for /api/health, and stops it; it can be stopped and started again on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { api, createClient } from '@loupe/contracts';
import { createLicenseIssuer, type LicenseIssuer } from './license';

const root = resolve(import.meta.dirname, '../..');
// LOUPE_E2E_SERVER_MAIN runs the journeys against another build of the server.
const mainJs = process.env.LOUPE_E2E_SERVER_MAIN ?? join(root, 'apps/server/dist/main.js');

export interface ServerOptions {
  environment?: 'production' | 'development';
  env?: Record<string, string>;
  /** Extra command-line arguments for the server, e.g. `--demo`. */
  args?: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export class LoupeServer {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'loupe-e2e-'));
  readonly license: LicenseIssuer = createLicenseIssuer();
  private child: ChildProcess | undefined;
  private port = 0;
  private output = '';

  constructor(private readonly options: ServerOptions = {}) {}

  /** The API server itself. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Where the browser opens the app: the server itself, or (LOUPE_E2E_WEB_URL, with
   * LOUPE_E2E_PORT) a Vite dev or preview server that forwards /api to it, for fast iteration.
   */
  get url(): string {
    return process.env.LOUPE_E2E_WEB_URL ?? this.apiUrl;
  }

  /** Starts the server (on the same port and data when restarted) and waits until it is healthy. */
  async start(): Promise<void> {
    if (!this.port) this.port = Number(process.env.LOUPE_E2E_PORT) || (await freePort());
    const child = spawn(process.execPath, [mainJs, ...(this.options.args ?? [])], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        LOUPE_DATA_DIR: this.dataDir,
        LOUPE_LICENSE_PUBLIC_KEY: this.license.publicKeyPem,
        LOUPE_ENV: this.options.environment ?? 'production',
        LOUPE_VERSIONS_URL: 'https://releases.loupe.test/versions.json',
        LOUPE_WEB_DIR: join(root, 'apps/web/dist'),
        LOG_LEVEL: 'warn',
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    await this.waitUntilHealthy(child);
  }

  private async waitUntilHealthy(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        throw new Error(`The server exited (${child.exitCode}):\n${this.output}`);
      }
      const healthy = await createClient({ baseUrl: this.apiUrl })
        .call(api.state.health)
        .then(
          () => true,
          () => false, // not listening yet
        );
      if (healthy) break;
      await new Promise((wake) => setTimeout(wake, 100));
    }
    if (Date.now() >= deadline) {
      throw new Error(`The server did not become healthy in 30 s:\n${this.output}`);
    }
    await this.checkWebApp();
  }

  /** Fails fast, with the reason, when the server does not serve the built web app to visitors. */
  private async checkWebApp(): Promise<void> {
    if (process.env.LOUPE_E2E_WEB_URL) return;
    const index = await fetch(`${this.apiUrl}/login`);
    const html = await index.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (index.status !== 200 || !script) {
      throw new Error(
        `GET /login did not answer the web app (status ${index.status}); run npm run build.`,
      );
    }
    const asset = await fetch(`${this.apiUrl}${script}`);
    if (asset.status !== 200) {
      throw new Error(
        `GET ${script} answered ${asset.status} to a signed-out visitor: the server must serve ` +
          'the web app files without a session (apps/server: static routes need auth "public").',
      );
    }
  }

  /** Stops the server (SIGTERM) and waits for the process to end. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((done) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        done();
      });
      child.kill('SIGTERM');
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Completes setup through the API, for journeys that start from a set-up instance. */
  async setUp(admin: { name: string; email: string; password: string }, company = 'Acme Inc.') {
    await createClient({ baseUrl: this.apiUrl }).call(api.setup.complete, {
      body: {
        company,
        user: { username: admin.name, email: admin.email, password: admin.password },
      },
    });
  }
}
