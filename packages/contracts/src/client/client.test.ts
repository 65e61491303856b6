import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Activity } from '../activities.js';
import type { User } from '../users.js';
import { api } from '../routes/index.js';
import { ApiError } from './api-error.js';
import { createClient, type FetchLike } from './client.js';
import { cookieJar } from './cookies.js';
import { JsonText } from './json-text.js';
import { queryString, routePath } from './url.js';

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records each request and answers the next queued response. */
function fakeFetch(...answers: Response[]): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: async (url, init) => {
      sent.push({ url, init });
      const answer = answers.shift();
      if (!answer) throw new Error('no answer queued');
      return answer;
    },
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

const USER: User = {
  id: 'u1',
  email: 'ana@example.com',
  name: 'Ana',
  role: 'admin',
  enabled: true,
  company_name: 'Acme',
  auth_type: 'local',
};

describe('createClient().call', () => {
  it('sends the method, the encoded path, JSON body and transport headers; answers the JSON', async () => {
    const { fetch, sent } = fakeFetch(json(200, USER));
    const client = createClient({
      baseUrl: 'http://loupe.test',
      headers: { 'X-API-Key': 'lp_secret' },
      fetch,
    });
    const user = await client.call(api.users.update, {
      params: { id: 'a/b c' },
      body: { name: 'Ana B' },
    });
    expect(user).toEqual(USER);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('http://loupe.test/api/users/a%2Fb%20c');
    expect(sent[0]!.init.method).toBe('PUT');
    expect(sent[0]!.init.body).toBe('{"name":"Ana B"}');
    expect(sent[0]!.init.headers).toEqual({
      'X-API-Key': 'lp_secret',
      'content-type': 'application/json',
    });
  });

  it('encodes the query as the server reads it: strings as they are, other values as JSON', async () => {
    const { fetch, sent } = fakeFetch(json(200, []));
    const activities = await createClient({ fetch }).call(api.activities.list, {
      query: { scope: 'all', limit: 5 },
    });
    expect(activities).toEqual([]);
    expect(sent[0]!.url).toBe('/api/activities?scope=all&limit=5');
    expect(sent[0]!.init.body).toBeUndefined();
    expect(sent[0]!.init.headers).toEqual({});
    expect(queryString({ a: 'x y', b: true, c: undefined, d: [1, 2] })).toBe(
      '?a=x+y&b=true&d=%5B1%2C2%5D',
    );
    expect(queryString({ c: undefined })).toBe('');
  });

  it('throws one ApiError with the status, description, retriable flag and URL', async () => {
    const { fetch } = fakeFetch(
      json(409, { description: 'A user with the email b@x.io already exists.', retriable: false }),
      json(429, { description: 'Too many attempts.', retriable: true }),
    );
    const client = createClient({ fetch });
    const conflict = await client
      .call(api.users.create, { body: { email: 'b@x.io', name: 'B' } })
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ApiError);
    expect(conflict).toMatchObject({
      status: 409,
      description: 'A user with the email b@x.io already exists.',
      retriable: false,
      url: '/api/users',
    });
    await expect(
      client.call(api.auth.login, { body: { email: 'a@x.io', password: 'p' } }),
    ).rejects.toMatchObject({ status: 429, retriable: true });
  });

  it('keeps the whole error body (a batch names its bad rows)', async () => {
    const body = {
      description: 'row 0, label: unknown class',
      retriable: false,
      errors: [{ row: 0, field: 'label', message: 'unknown class' }],
    };
    const { fetch } = fakeFetch(json(400, body));
    await expect(
      createClient({ fetch }).call(api.samples.upload, {
        params: { id: 'd1' },
        body: { samples: [{ id: 'a' }] },
      }),
    ).rejects.toMatchObject({ status: 400, body });
  });

  it("describes an answer without the server's error body by its status, and keeps its start", async () => {
    const page = `<html>Bad gateway${' '.repeat(100_000)}</html>`;
    const { fetch } = fakeFetch(
      new Response(page, {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'content-type': 'text/html' },
      }),
    );
    await expect(createClient({ fetch }).call(api.state.get)).rejects.toMatchObject({
      status: 502,
      description: 'Bad Gateway',
      retriable: false,
      body: '<html>Bad gateway',
    });
  });

  it('gives the headers of a refusal (when to try again)', async () => {
    const { fetch } = fakeFetch(
      json(429, { description: 'Too many attempts.', retriable: true }, { 'retry-after': '7' }),
    );
    const error = await createClient({ fetch })
      .call(api.state.get)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).headers.get('retry-after')).toBe('7');
  });

  it('sends JSON its caller serialised already as it is', async () => {
    const { fetch, sent } = fakeFetch(json(200, { created: 1, updated: 0, unchanged: 0 }));
    const text = '{"samples":[{"id":"a"}]}';
    await createClient({ fetch }).call(api.samples.upload, {
      params: { id: 'd1' },
      body: new JsonText(text),
    });
    expect(sent[0]!.init.body).toBe(text);
    expect(sent[0]!.init.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('answers the Response of a raw route, and sends a raw body with its content type', async () => {
    const zip = new Response(new Uint8Array([80, 75, 3, 4]), {
      headers: { 'content-type': 'application/zip' },
    });
    const stored = json(200, { key: 'blob:abc', size: 3 });
    const { fetch, sent } = fakeFetch(zip, stored);
    const client = createClient({ fetch });
    const response = await client.call(api.support.bundle);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]));
    const bytes = new Uint8Array([1, 2, 3]);
    const uploaded = await client.call(api.media.upload, {
      params: { id: 'd1' },
      body: bytes,
      contentType: 'image/png',
    });
    expect(uploaded).toEqual({ key: 'blob:abc', size: 3 });
    expect(sent[1]!.init.body).toBe(bytes);
    expect(sent[1]!.init.headers).toEqual({ 'content-type': 'image/png' });
  });

  it('keeps the session cookie in a jar: sent back, and forgotten when the server clears it', async () => {
    const jar = cookieJar();
    const { fetch, sent } = fakeFetch(
      json(200, { user: USER }, { 'set-cookie': 'loupe_session=tok1; Path=/; HttpOnly' }),
      json(200, { ok: true }, { 'set-cookie': 'loupe_session=; Path=/; Expires=Thu, 01 Jan 1970' }),
      json(200, { setup_state: 'COMPLETE' }),
    );
    const client = createClient({ fetch, cookies: jar });
    await client.call(api.auth.login, { body: { email: 'ana@example.com', password: 'pw' } });
    expect(jar.get('loupe_session')).toBe('tok1');
    await client.call(api.auth.logout);
    expect((sent[1]!.init.headers as Record<string, string>).cookie).toBe('loupe_session=tok1');
    expect(jar.get('loupe_session')).toBeUndefined();
    await client.call(api.state.get);
    expect(sent[2]!.init.headers).toEqual({});
  });

  it('passes the abort signal and per-call headers on', async () => {
    const { fetch, sent } = fakeFetch(json(200, { ok: true }));
    const controller = new AbortController();
    await createClient({ fetch, headers: () => ({ a: '1' }) }).call(api.auth.logout, undefined, {
      signal: controller.signal,
      headers: { b: '2' },
    });
    expect(sent[0]!.init.signal).toBe(controller.signal);
    expect(sent[0]!.init.headers).toEqual({ a: '1', b: '2' });
  });

  it("lets the transport's fetch stand between it and the network (the browser's outage report)", async () => {
    const outage = new Error('the server is unreachable');
    const sent: Sent[] = [];
    const client = createClient({
      credentials: 'include',
      fetch: async (url, init) => {
        sent.push({ url, init });
        throw outage;
      },
    });
    await expect(client.call(api.users.list)).rejects.toBe(outage);
    expect(sent[0]!.init.credentials).toBe('include');
  });

  it('refuses to call a path with a missing parameter', async () => {
    const { fetch, sent } = fakeFetch();
    await expect(
      createClient({ fetch }).call(api.users.update, {
        params: { id: '' },
        body: { name: 'X' },
      }),
    ).rejects.toThrow('the path parameter id is missing');
    expect(sent).toHaveLength(0);
    expect(routePath(api.media.file, { id: 'd', sha: 'ab' })).toBe('/api/datasets/d/media/ab');
  });

  it('builds URLs for links', () => {
    const client = createClient({ baseUrl: 'http://h' });
    expect(
      client.url(api.media.thumbnail, { params: { id: 'd', base: 'b' }, query: { size: 'grid' } }),
    ).toBe('http://h/api/datasets/d/thumbnails/b?size=grid');
  });

  it('types inputs and answers from the table', () => {
    // Calls that never answer: only their types matter here.
    const client = createClient({ fetch: () => new Promise<Response>(() => {}) });
    expectTypeOf(client.call(api.users.list)).resolves.toEqualTypeOf<User[]>();
    expectTypeOf(client.call(api.activities.list)).resolves.toEqualTypeOf<Activity[]>();
    expectTypeOf(client.call(api.support.bundle)).resolves.toEqualTypeOf<Response>();
    // @ts-expect-error: the dataset id is required
    void (() => client.call(api.datasets.get));
    // @ts-expect-error: a wrong body field
    void (() => client.call(api.auth.login, { body: { email: 'a', pass: 'b' } }));
    // @ts-expect-error: a route without a body takes none
    void (() => client.call(api.users.list, { body: {} }));
  });
});
