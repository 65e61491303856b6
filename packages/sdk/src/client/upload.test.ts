// The upload protocol's rules (docs/sdk-protocol.md) against a fake server: bodies within the
// budget, a 413 halving it for the rest of the client's life, a single oversized row named,
// row errors numbered from the start, retries and their limits.
import { api, JsonText, type UploadSamplesRequest } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { LoupeError } from './errors.js';
import { Http } from './http.js';
import { upload, type Row } from './upload.js';

const DATASET = '00000000-0000-4000-8000-000000000001';

interface TextRow extends Row {
  text: string;
}

/** Rows `r<start>`… whose JSON `{"id":"r<i>","n":"xx…"}` is about `size` bytes. */
function rowsOf(sizes: number[], start = 0): TextRow[] {
  return sizes.map((size, i) => {
    const text = JSON.stringify({ id: `r${start + i}`, n: 'x'.repeat(Math.max(0, size - 20)) });
    return { index: start + i, id: `r${start + i}`, text, size: Buffer.byteLength(text) + 1 };
  });
}

/** A server in memory that answers 413 to bodies over `limit` and 400 to rows it is told to refuse. */
function fakeServer(limit: number, refuse: string[] = []) {
  const bodies: { bytes: number; ids: string[] }[] = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    const text = String(init!.body);
    const rows = (JSON.parse(text) as { samples: { id: string }[] }).samples;
    bodies.push({ bytes: Buffer.byteLength(text), ids: rows.map((row) => row.id) });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (Buffer.byteLength(text) > limit)
      return json(413, {
        description: 'The request body is larger than the limit.',
        retriable: false,
      });
    const bad = rows.flatMap((row, i) => (refuse.includes(row.id) ? [i] : []));
    if (bad.length)
      return json(400, {
        description: 'The batch was rejected.',
        retriable: false,
        errors: bad.map((i) => ({ row: i, id: rows[i]!.id, field: 'label', message: 'no' })),
      });
    return json(200, { created: rows.length, updated: 0, unchanged: 0 });
  };
  return { bodies, fetch };
}

async function send(http: Http, batches: TextRow[][]): Promise<number> {
  let landed = 0;
  await upload(http, batches, {
    envelope: Buffer.byteLength('{"samples":[]}'),
    maxRows: 20_000,
    post: (rows) =>
      http.call(
        api.samples.upload,
        {
          params: { id: DATASET },
          body: new JsonText<UploadSamplesRequest>(
            `{"samples":[${rows.map((r) => r.text).join(',')}]}`,
          ),
        },
        { splittable: true },
      ),
    landed: (rows) => void (landed += rows.length),
  });
  return landed;
}

describe('the upload engine', () => {
  it('keeps every body within the budget and sends each row once, in order', async () => {
    const server = fakeServer(1e9);
    const http = new Http({
      url: 'http://loupe.test',
      fetch: server.fetch,
      bodyBudgetBytes: 5_000,
    });
    const rows = rowsOf(Array<number>(50).fill(1000));
    expect(await send(http, [rows])).toBe(50);
    expect(server.bodies.every((body) => body.bytes <= 5_000)).toBe(true);
    expect(server.bodies).toHaveLength(13); // four rows of ~1 kB per body, two in the last
    const sent = [...server.bodies].sort((a, b) =>
      a.ids[0]!.localeCompare(b.ids[0]!, 'en', { numeric: true }),
    );
    expect(sent.flatMap((body) => body.ids)).toEqual(rows.map((row) => row.id));
  });

  it('halves the budget on a 413 and keeps it lowered for the next uploads', async () => {
    const server = fakeServer(20_000);
    const http = new Http({
      url: 'http://loupe.test',
      fetch: server.fetch,
      bodyBudgetBytes: 40_000,
    });
    const batches = Array.from({ length: 6 }, (_, b) =>
      rowsOf(Array<number>(60).fill(1000), b * 60),
    );
    expect(await send(http, batches)).toBe(360);
    const refused = server.bodies.filter((body) => body.bytes > 20_000);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(2); // the two in flight at the first refusal
    expect(http.bodyBudget).toBeLessThanOrEqual(20_000);
    server.bodies.length = 0;
    expect(await send(http, [rowsOf(Array<number>(60).fill(1000))])).toBe(60);
    expect(server.bodies.every((body) => body.bytes <= 20_000)).toBe(true);
  });

  it('names a single row over the limit and sends nothing after it', async () => {
    const server = fakeServer(20_000);
    const http = new Http({ url: 'http://loupe.test', fetch: server.fetch });
    const error = (await send(http, [rowsOf([100, 100, 100, 50_000, 100])]).catch(
      (e: unknown) => e,
    )) as LoupeError;
    expect(error).toBeInstanceOf(LoupeError);
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/^Row 3 \(id r3\) cannot be sent: this row alone is larger/);
    expect(error.errors).toEqual([
      {
        row: 3,
        id: 'r3',
        field: '(row)',
        message: "this row alone is larger than the server's request body limit",
      },
    ]);
    expect(server.bodies.at(-1)!.ids).toEqual(['r3']);
  });

  it('numbers row errors from the start of the upload', async () => {
    const server = fakeServer(1e9, ['r7']);
    const http = new Http({ url: 'http://loupe.test', fetch: server.fetch });
    const error = (await send(http, [
      rowsOf([100, 100, 100, 100, 100]),
      rowsOf([100, 100, 100, 100, 100], 5),
    ]).catch((e: unknown) => e)) as LoupeError;
    expect(error.errors).toEqual([{ row: 7, id: 'r7', field: 'label', message: 'no' }]);
  });

  it('takes a connection closed while a body is being sent for a 413', async () => {
    let calls = 0;
    const closing: typeof fetch = async (_input, init) => {
      calls++;
      const rows = (JSON.parse(String(init!.body)) as { samples: unknown[] }).samples;
      if (rows.length > 2)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
        });
      return new Response(JSON.stringify({ created: rows.length, updated: 0, unchanged: 0 }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const http = new Http({ url: 'http://loupe.test', fetch: closing, backoffMs: 1 });
    expect(await send(http, [rowsOf([100, 100, 100, 100, 100, 100, 100, 100])])).toBe(8);
    // 8 rows refused, then 3; the budget is then under two rows, so one row at a time
    expect(calls).toBe(10);
  });
});

describe('retries', () => {
  function scripted(answers: (Response | Error)[]) {
    const seen: number[] = [];
    const fetch: typeof globalThis.fetch = async () => {
      seen.push(Date.now());
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return next;
    };
    return { fetch, seen };
  }
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const refused = () =>
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });

  it('retries connection failures and answers marked retriable, then succeeds', async () => {
    const { fetch, seen } = scripted([
      refused(),
      json(503, { description: 'busy', retriable: true }),
      json(429, { description: 'slow down', retriable: true }, { 'retry-after': '0' }),
      json(200, []),
    ]);
    const http = new Http({ url: 'http://loupe.test', fetch, backoffMs: 1 });
    expect(await http.call(api.datasets.list)).toEqual([]);
    expect(seen).toHaveLength(4);
  });

  it('retries a proxy 502 without JSON but not a 500 the server marks final', async () => {
    const proxy = scripted([new Response('Bad gateway', { status: 502 }), json(200, [])]);
    await new Http({ url: 'http://loupe.test', fetch: proxy.fetch, backoffMs: 1 }).call(
      api.datasets.list,
    );
    expect(proxy.seen).toHaveLength(2);
    const gone = scripted([
      new Response('<html>Not here</html>', { status: 404, statusText: 'Not Found' }),
    ]);
    const notFound = (await new Http({ url: 'http://loupe.test', fetch: gone.fetch, backoffMs: 1 })
      .call(api.datasets.list)
      .catch((e: unknown) => e)) as LoupeError;
    expect(notFound).toMatchObject({
      status: 404,
      description: '404 Not Found: <html>Not here</html>',
      retriable: false,
      url: 'http://loupe.test/api/datasets',
    });
    expect(gone.seen).toHaveLength(1);
    const final = scripted([json(500, { description: 'bug', retriable: false })]);
    const error = (await new Http({ url: 'http://loupe.test', fetch: final.fetch, backoffMs: 1 })
      .call(api.datasets.list)
      .catch((e: unknown) => e)) as LoupeError;
    expect(error.description).toBe('bug');
    expect(final.seen).toHaveLength(1);
  });

  it('never retries input errors, and gives up after the retries', async () => {
    for (const status of [400, 401, 403, 404, 409, 413]) {
      const { fetch, seen } = scripted([json(status, { description: 'no', retriable: false })]);
      const error = (await new Http({ url: 'http://loupe.test', fetch, backoffMs: 1 })
        .call(api.media.missing, { params: { id: DATASET }, body: { keys: [] } })
        .catch((e: unknown) => e)) as LoupeError;
      expect(error.status).toBe(status);
      expect(seen).toHaveLength(1);
    }
    const { fetch, seen } = scripted([refused(), refused(), refused()]);
    const error = (await new Http({ url: 'http://loupe.test', fetch, retries: 2, backoffMs: 1 })
      .call(api.datasets.list)
      .catch((e: unknown) => e)) as LoupeError;
    expect(seen).toHaveLength(3);
    expect(error.message).toMatch(/^Cannot reach http:\/\/loupe\.test: .*\(after 3 attempts\)$/);
  });
});
