import { afterEach, expect, test, vi } from 'vitest';
import { ApiError, ServerUnreachableError } from './ApiError';
import { buildUrl, http } from './client';
import { serverUnreachable } from './unreachable';

afterEach(() => {
  vi.unstubAllGlobals();
  serverUnreachable.clear();
});

test('query parameters: strings as they are, others JSON-encoded, undefined skipped', () => {
  expect(buildUrl('/api/x', { a: 'b c', n: 3, list: [1, 2], flag: true, skip: undefined })).toBe(
    '/api/x?a=b+c&n=3&list=%5B1%2C2%5D&flag=true',
  );
  expect(buildUrl('/api/x', { skip: undefined })).toBe('/api/x');
});

test('a status of 400 or above raises an error with status, description, URL and retriable', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      Response.json({ description: 'This user is disabled', retriable: false }, { status: 409 }),
    ),
  );
  const failure = await http.put('/api/users/1', { name: 'A' }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({
    status: 409,
    description: 'This user is disabled',
    url: '/api/users/1',
    retriable: false,
  });
});

test('without a JSON body the status text is the description', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('no', { status: 418, statusText: "I'm a teapot" })),
  );
  await expect(http.get('/api/tea')).rejects.toMatchObject({
    status: 418,
    description: "I'm a teapot",
  });
});

test('writes send JSON with credentials; reads parse JSON', async () => {
  const fetchMock = vi.fn(async () => Response.json({ ok: true }));
  vi.stubGlobal('fetch', fetchMock);
  await expect(http.post('/api/login', { email: 'a@b.c' })).resolves.toEqual({ ok: true });
  expect(fetchMock).toHaveBeenCalledWith('/api/login', {
    method: 'POST',
    credentials: 'include',
    signal: undefined,
    headers: { 'Content-Type': 'application/json' },
    body: '{"email":"a@b.c"}',
  });
});

test('no answer, or a gateway answering for a stopped server, means the server is unreachable', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
  await expect(http.get('/api/users')).rejects.toBeInstanceOf(ServerUnreachableError);
  expect(serverUnreachable.get()).toBe(true);
  serverUnreachable.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('Bad Gateway', { status: 502 })),
  );
  await expect(http.get('/api/users')).rejects.toBeInstanceOf(ServerUnreachableError);
  expect(serverUnreachable.get()).toBe(true);
});
