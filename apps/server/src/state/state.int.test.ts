// The app state names a versions file only when the operator configured one: no call home.
import { afterEach, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

describe('GET /api/state', () => {
  it('has no versions_url, and the CSP allows no other origin, without LOUPE_VERSIONS_URL', async () => {
    t = await startTestApp();
    const response = await new Client(t.app).get('/api/state');
    expect(response.json()).not.toHaveProperty('versions_url');
    expect(response.headers['content-security-policy']).toMatch(/connect-src 'self'(;|$)/);
  });

  it('names the configured versions file, whose origin the CSP lets the web app reach', async () => {
    t = await startTestApp({
      LOUPE_VERSIONS_URL: 'https://releases.example.com/loupe/versions.json',
    });
    const response = await new Client(t.app).get('/api/state');
    expect(response.json().versions_url).toBe('https://releases.example.com/loupe/versions.json');
    expect(response.headers['content-security-policy']).toContain(
      "connect-src 'self' https://releases.example.com",
    );
  });
});
