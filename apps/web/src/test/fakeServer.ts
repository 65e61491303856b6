// A fake of the API for component tests: routes "METHOD /path" to handlers, records calls and
// stands in for window.fetch.
import type { AppState, User } from '@loupe/contracts';
import { vi } from 'vitest';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** A JSON `body`, or `bytes` (application/octet-stream) with their `headers`. */
export type Reply =
  | { status?: number; body?: unknown; bytes?: Uint8Array; headers?: Record<string, string> }
  | 'network-error';
export type Handler = (call: Call) => Reply | Promise<Reply>;

export const adminUser: User = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'cleo@acme.test',
  name: 'Cleo Admin',
  role: 'admin',
  enabled: true,
  company_name: 'Acme Inc.',
  auth_type: 'local',
};

export const memberUser: User = {
  id: '22222222-2222-4222-8222-222222222222',
  email: 'ben@acme.test',
  name: 'Ben Member',
  role: 'member',
  enabled: true,
  company_name: 'Acme Inc.',
  auth_type: 'local',
};

export function appState(change: Partial<AppState> = {}): AppState {
  return {
    setup_state: 'COMPLETE',
    error_monitoring_enabled: false,
    analytics_enabled: false,
    thumbnails_enabled: true,
    deployment_id: 'deployment-1',
    auth_state: { type: 'local', oauth_provider_display_name: '', is_oauth_logged_in: false },
    version: '1.4.0',
    environment: 'production',
    ...change,
  };
}

/** What an instance without datasets answers, unless a test says otherwise. */
const defaults: Record<string, Handler> = {
  'GET /api/datasets': () => ({ body: [] }),
  'GET /api/models': () => ({ body: [] }),
  'GET /api/dataset/models': () => ({ body: [] }),
  'GET /api/activities': () => ({ body: [] }),
};

export function fakeServer(testRoutes: Record<string, Handler>) {
  const routes = { ...defaults, ...testRoutes };
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://loupe.test');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, path: url.pathname, body };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    const reply: Reply = handler
      ? await handler(call)
      : {
          status: 404,
          body: { description: `No route ${method} ${url.pathname}.`, retriable: false },
        };
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    if (reply.bytes)
      return new Response(new Uint8Array(reply.bytes), {
        status: reply.status ?? 200,
        headers: { 'content-type': 'application/octet-stream', ...reply.headers },
      });
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
