// The built web app is served to signed-out visitors (it asks them to sign in itself), with an
// SPA fallback for client routes and long caching for fingerprinted assets.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from '../testing/test-app.js';

const webDir = mkdtempSync(join(tmpdir(), 'loupe-web-'));
mkdirSync(join(webDir, 'assets'));
writeFileSync(
  join(webDir, 'index.html'),
  '<!doctype html><script src="/assets/index-abc.js"></script>',
);
writeFileSync(join(webDir, 'assets', 'index-abc.js'), 'console.log("app")');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOUPE_WEB_DIR: webDir });
});
afterAll(() => t.close());

describe('the web app files', () => {
  it('are served without a session: index, assets, and the SPA fallback for client routes', async () => {
    const anonymous = new Client(t.app);
    const index = await anonymous.get('/');
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('/assets/index-abc.js');
    const asset = await anonymous.get('/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const deep = await anonymous.get('/datasets/123/overview?x=1');
    expect(deep.statusCode).toBe(200);
    expect(deep.headers['cache-control']).toBe('no-cache');
    expect(deep.body).toBe(index.body);
  });

  it('include files written after the server started (a rebuilt web app needs no restart)', async () => {
    writeFileSync(join(webDir, 'assets', 'index-new.js'), 'console.log("rebuilt")');
    const asset = await new Client(t.app).get('/assets/index-new.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("rebuilt")');
  });

  it('never answer for the API: unknown API routes stay 404 JSON and API routes still need a session', async () => {
    const anonymous = new Client(t.app);
    expect((await anonymous.get('/api/nope')).json()).toEqual({
      description: 'No route GET /api/nope.',
      retriable: false,
    });
    expect((await anonymous.get('/api/users')).statusCode).toBe(401);
  });
});
