// Media by URL and by path, attacked: loopback in every spelling, redirects, port probing, huge and
// slow bodies, and symbolic links out of a media root.
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectKeptAnswering, healthDuring } from '../testing/health-probe.js';
import { testImage } from '../testing/media.js';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';
import { MEDIA_URL_FAILED } from './media.js';

/**
 * A loopback HTTP server of the test's own, on 127.0.0.1 and ::1 at one port, counting the
 * requests it gets. `/slow` answers after 1.5 s; `/huge` declares more than the media limit.
 */
async function mediaServer(image: Buffer, host = '127.0.0.1') {
  const requests: string[] = [];
  let redirect = '';
  const handle: http.RequestListener = (request, response) => {
    requests.push(request.url!);
    if (request.url === '/redirect') response.writeHead(302, { location: redirect }).end();
    else if (request.url === '/huge')
      response.writeHead(200, { 'content-length': String(300 * 1024 * 1024) }).end('x');
    else if (request.url === '/slow') setTimeout(() => response.end(image), 1500);
    else response.end(image);
  };
  const servers = [http.createServer(handle)];
  servers[0]!.listen(0, host);
  await once(servers[0]!, 'listening');
  const port = (servers[0]!.address() as AddressInfo).port;
  if (host === '127.0.0.1') {
    servers.push(http.createServer(handle));
    servers[1]!.listen(port, '::1');
    await once(servers[1]!, 'listening');
  }
  return {
    port,
    requests,
    redirectTo(url: string) {
      redirect = url;
    },
    close() {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let t: TestApp;
let admin: Client;
let image: Buffer;
let server: Awaited<ReturnType<typeof mediaServer>>;

beforeAll(async () => {
  image = (await testImage(7)).bytes;
});
afterEach(async () => {
  server?.close();
  await t?.close();
});

async function datasetWith(samples: { id: string; image: string }[]): Promise<string> {
  const created = await admin.post('/api/datasets', {
    name: 'Remote',
    task_type: 'classification',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const uploaded = await admin.post(`/api/datasets/${id}/samples`, { samples });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  return id;
}

async function computedErrors(): Promise<Record<string, unknown>> {
  const rows = await t.database.db.selectFrom('samples').select(['id', 'computed']).execute();
  return Object.fromEntries(rows.map((row) => [row.id, JSON.parse(row.computed!).error]));
}

const media = (id: string, sample: string) =>
  admin.get(`/api/datasets/${id}/samples/media?sample_id=${encodeURIComponent(sample)}`);

describe('media by URL', () => {
  it('never fetches a loopback URL, however it is written, and says the same for every refusal', async () => {
    ({ t, admin } = await startLicensedApp());
    server = await mediaServer(image);
    const { port } = server;
    const urls = [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `HTTP://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://127.0.0.1:${await closedPort()}/`,
    ];
    const id = await datasetWith(urls.map((url, i) => ({ id: `s${i}`, image: url })));
    await t.runner.drain();
    expect(server.requests).toEqual([]);
    // An open port and a closed one look the same, in the computed metadata and when viewed.
    expect(Object.values(await computedErrors())).toEqual(urls.map(() => MEDIA_URL_FAILED));
    for (let i = 0; i < urls.length; i++) {
      const answer = await media(id, `s${i}`);
      expect(answer.statusCode).toBe(404);
      expect(answer.json().description).toBe(
        `The media URL of sample 's${i}' could not be fetched.`,
      );
    }
    expect(server.requests).toEqual([]);
  });

  it('re-checks a redirect from an allowed host: it may not lead to another loopback address', async () => {
    ({ t, admin } = await startLicensedApp({ LOUPE_MEDIA_URL_ALLOW: '127.0.0.1' }));
    server = await mediaServer(image);
    // Linux answers on all of 127/8: this one is loopback, but not the address the operator allowed.
    const inside = await mediaServer(image, '127.0.0.2');
    try {
      server.redirectTo(`http://127.0.0.2:${inside.port}/secret`);
      const id = await datasetWith([
        { id: 'r', image: `http://127.0.0.1:${server.port}/redirect` },
      ]);
      await t.runner.drain();
      expect(server.requests).toEqual(['/redirect']);
      expect(inside.requests).toEqual([]);
      expect((await computedErrors()).r).toBe(MEDIA_URL_FAILED);
      expect((await media(id, 'r')).statusCode).toBe(404);
    } finally {
      inside.close();
    }
  });

  it('fetches an allowed host once, while processing, and serves the stored bytes after', async () => {
    ({ t, admin } = await startLicensedApp({ LOUPE_MEDIA_URL_ALLOW: '127.0.0.1' }));
    server = await mediaServer(image);
    const id = await datasetWith([{ id: 'slow', image: `http://127.0.0.1:${server.port}/slow` }]);
    // Before processing has fetched it, viewing does not fetch it either.
    const early = await media(id, 'slow');
    expect(early.statusCode).toBe(409);
    expect(early.json().description).toMatch(
      /^The media of sample 'slow' has not been fetched yet/,
    );
    expect(server.requests).toEqual([]);

    expectKeptAnswering(await healthDuring(t.app, () => t.runner.drain()));
    for (let i = 0; i < 3; i++) {
      const answer = await media(id, 'slow');
      expect(answer.statusCode).toBe(200);
      expect(answer.rawPayload).toEqual(image);
    }
    expect(server.requests).toEqual(['/slow']);
    expect((await computedErrors()).slow).toBeUndefined();
  });

  it('refuses a body larger than the media limit', async () => {
    ({ t, admin } = await startLicensedApp({ LOUPE_MEDIA_URL_ALLOW: '127.0.0.1' }));
    server = await mediaServer(image);
    const id = await datasetWith([{ id: 'huge', image: `http://127.0.0.1:${server.port}/huge` }]);
    await t.runner.drain();
    expect(server.requests).toEqual(['/huge']);
    expect((await computedErrors()).huge).toBe(MEDIA_URL_FAILED);
    expect((await media(id, 'huge')).statusCode).toBe(404);
  });
});

describe('media under LOUPE_MEDIA_ROOTS', () => {
  let folder: string;
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('refuses a symbolic link that leads out of the root, at upload and when read', async () => {
    folder = mkdtempSync(join(tmpdir(), 'loupe-roots-'));
    const root = join(folder, 'root');
    mkdirSync(root);
    writeFileSync(join(folder, 'secret.txt'), 'TOP SECRET');
    writeFileSync(join(root, 'cat.png'), image);
    writeFileSync(join(root, 'later.png'), image);
    symlinkSync(join(folder, 'secret.txt'), join(root, 'escape.png'));
    symlinkSync(join(root, 'cat.png'), join(root, 'alias.png'));
    ({ t, admin } = await startLicensedApp({ LOUPE_MEDIA_ROOTS: root }));

    const created = await admin.post('/api/datasets', {
      name: 'Local',
      task_type: 'classification',
    });
    const id = created.json().id as string;
    const refused = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [{ id: 'escape', image: join(root, 'escape.png') }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      expect.objectContaining({
        id: 'escape',
        field: 'image',
        message: expect.stringContaining(`the server may not read '${join(root, 'escape.png')}'`),
      }),
    ]);

    // A link that stays inside is fine; a file that becomes a link after upload is not read.
    const accepted = await admin.post(`/api/datasets/${id}/samples`, {
      samples: [
        { id: 'alias', image: join(root, 'alias.png') },
        { id: 'later', image: join(root, 'later.png') },
      ],
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    unlinkSync(join(root, 'later.png'));
    symlinkSync(join(folder, 'secret.txt'), join(root, 'later.png'));
    await t.runner.drain();

    const alias = await media(id, 'alias');
    expect(alias.statusCode).toBe(200);
    expect(alias.rawPayload).toEqual(image);
    const later = await media(id, 'later');
    expect(later.statusCode).toBe(404);
    expect(later.body).not.toContain('TOP SECRET');
    expect((await computedErrors()).later).toMatch(/the server may not read/);
  });
});
