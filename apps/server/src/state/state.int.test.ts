// The app state names a versions file only when the operator configured one: no call home.
import { api } from '@loupe/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

describe('GET /api/state', () => {
  it('has no versions_url, and the CSP allows no other origin, without LOUPE_VERSIONS_URL', async () => {
    t = await startTestApp();
    expect(await new Client(t.app).call(api.state.get)).not.toHaveProperty('versions_url');
    // Raw: the headers of the answer are under test.
    const response = await new Client(t.app).get('/api/state');
    expect(response.headers['content-security-policy']).toMatch(/connect-src 'self'(;|$)/);
  });

  it('names the configured versions file, whose origin the CSP lets the web app reach', async () => {
    t = await startTestApp({
      LOUPE_VERSIONS_URL: 'https://releases.example.com/loupe/versions.json',
    });
    expect((await new Client(t.app).call(api.state.get)).versions_url).toBe(
      'https://releases.example.com/loupe/versions.json',
    );
    const response = await new Client(t.app).get('/api/state');
    expect(response.headers['content-security-policy']).toContain(
      "connect-src 'self' https://releases.example.com",
    );
  });
});
