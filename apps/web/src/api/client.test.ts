// The web app's transport for the typed client: same-origin calls with the session cookie, the
// server's refusals as ApiError, and a server that does not answer reported as unreachable.
import { api } from '@loupe/contracts';
import { afterEach, expect, test, vi } from 'vitest';
import { ApiError, ServerUnreachableError, describeError } from './ApiError';
import { call } from './client';
import { serverUnreachable } from './unreachable';

afterEach(() => {
  vi.unstubAllGlobals();
  serverUnreachable.clear();
});

function answering(response: () => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

test('a status of 400 or above raises an error with status, description, URL and retriable', async () => {
  answering(() =>
    Response.json({ description: 'This user is disabled', retriable: false }, { status: 409 }),
  );
  const failure = await call(api.users.update, { params: { id: '1' }, body: { name: 'A' } }).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({
    status: 409,
    description: 'This user is disabled',
    url: '/api/users/1',
    retriable: false,
  });
  expect(describeError(failure)).toBe('This user is disabled');
  expect(serverUnreachable.get()).toBe(false);
});

test('without a JSON body the status text is the description', async () => {
  answering(() => new Response('no', { status: 418, statusText: "I'm a teapot" }));
  await expect(call(api.state.get)).rejects.toMatchObject({
    status: 418,
    description: "I'm a teapot",
  });
});

test('calls are same-origin with cookies; writes send JSON; reads pass the signal and encode the query', async () => {
  const fetchMock = answering(() => Response.json([]));
  await call(api.auth.login, { body: { email: 'a@b.c', password: 'pw' } });
  expect(fetchMock).toHaveBeenLastCalledWith('/api/login', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: '{"email":"a@b.c","password":"pw"}',
  });
  const controller = new AbortController();
  await expect(
    call(
      api.embeddings.settings,
      { params: { id: 'd 1' }, query: { data_level: 'image', predictions_id: undefined } },
      { signal: controller.signal },
    ),
  ).resolves.toEqual([]);
  const [url, init] = fetchMock.mock.lastCall!;
  expect(url).toBe('/api/datasets/d%201/embeddings/settings?data_level=image');
  expect(init).toMatchObject({ method: 'GET', credentials: 'include', signal: controller.signal });
  expect(init.body).toBeUndefined();
});

test('no answer, or a gateway answering for a stopped server, means the server is unreachable', async () => {
  answering(() => Promise.reject(new TypeError('Failed to fetch')));
  await expect(call(api.users.list)).rejects.toBeInstanceOf(ServerUnreachableError);
  expect(serverUnreachable.get()).toBe(true);
  serverUnreachable.clear();
  answering(() => new Response('Bad Gateway', { status: 502 }));
  await expect(call(api.users.list)).rejects.toBeInstanceOf(ServerUnreachableError);
  expect(serverUnreachable.get()).toBe(true);
});

test('a 503 with our error body is the server speaking, and an aborted call is no outage', async () => {
  answering(() =>
    Response.json({ description: 'Database busy', retriable: true }, { status: 503 }),
  );
  await expect(call(api.users.list)).rejects.toMatchObject({
    status: 503,
    description: 'Database busy',
    retriable: true,
  });
  const controller = new AbortController();
  answering(() => {
    controller.abort();
    return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
  });
  const aborted = await call(api.users.list, {}, { signal: controller.signal }).catch(
    (error: unknown) => error,
  );
  expect(aborted).toBeInstanceOf(DOMException);
  expect(serverUnreachable.get()).toBe(false);
});
