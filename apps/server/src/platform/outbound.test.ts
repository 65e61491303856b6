// The outbound module: which addresses are public, the operator's allow-list, and fetches from a
// local server that must be refused, bounded in size and time, or followed only where allowed.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowList, Outbound, OutboundError, OUTBOUND_FAILED, addressProblem } from './outbound.js';

describe('addressProblem', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback (127.0.0.1 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (127.0.0.1 inside IPv6)'],
    ['::ffff:a9fe:a9fe', 'link-local (169.254.169.254 inside IPv6)'],
    ['64:ff9b::10.0.0.1', 'private (10.0.0.1 inside IPv6)'],
    ['2002:7f00:1::', 'loopback (127.0.0.1 inside IPv6)'],
    ['2001:db8::1', 'documentation'],
    ['::127.0.0.1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['localhost', 'not an address'],
  ])('%s is %s', (address, problem) => {
    expect(addressProblem(address)).toBe(problem);
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(addressProblem(address)).toBeUndefined();
    },
  );
});

describe('AllowList', () => {
  it('matches host names, addresses (IPv4-mapped too) and CIDR ranges', () => {
    const allow = new AllowList(['Media.Internal.', '10.0.0.0/8', '::1', '192.168.1.5']);
    expect(allow.hasHost('media.internal')).toBe(true);
    expect(allow.hasHost('other.internal')).toBe(false);
    expect(allow.hasAddress('10.20.30.40')).toBe(true);
    expect(allow.hasAddress('::ffff:10.0.0.1')).toBe(true);
    expect(allow.hasAddress('11.0.0.1')).toBe(false);
    expect(allow.hasAddress('::1')).toBe(true);
    expect(allow.hasAddress('192.168.1.5')).toBe(true);
    expect(allow.hasAddress('192.168.1.6')).toBe(false);
  });

  it('refuses an entry that is none of these', () => {
    expect(() => new AllowList(['10.0.0.0/33'])).toThrow(/'10.0.0.0\/33'/);
    expect(() => new AllowList(['999.1.1.1'])).toThrow(/is not a host name/);
    expect(() => new AllowList(['http://x'])).toThrow(/is not a host name/);
  });
});

describe('Outbound.get', () => {
  const paths: string[] = [];
  let port = 0;
  const server = http.createServer((request, response) => {
    paths.push(request.url!);
    const url = new URL(request.url!, 'http://x');
    if (url.pathname === '/ok') response.end('fetched');
    else if (url.pathname === '/to-secret')
      response.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
    else if (url.pathname === '/hop') response.writeHead(302, { location: '/ok' }).end();
    else if (url.pathname === '/loop') response.writeHead(302, { location: '/loop' }).end();
    else if (url.pathname === '/big') {
      // No Content-Length: the limit must hold while the body streams.
      response.write(Buffer.alloc(600));
      response.end(Buffer.alloc(600));
    } else if (url.pathname === '/big-declared')
      response.writeHead(200, { 'content-length': '5000000' }).end('x'.repeat(10));
    else if (url.pathname === '/never') response.flushHeaders();
    else response.writeHead(404).end();
  });

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** An outbound client whose DNS says every `.example` name is the test server's loopback. */
  const outbound = (allow: string[] = [], timeoutMs = 5_000) =>
    new Outbound({
      allow,
      timeoutMs,
      maxBytes: 1000,
      resolve: async (host) => (host.endsWith('.example') ? ['127.0.0.1'] : ['203.0.113.7']),
    });

  const refusal = async (promise: Promise<unknown>): Promise<OutboundError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as Error).message).toBe(OUTBOUND_FAILED);
    return error as OutboundError;
  };

  it('never connects to a name that resolves to loopback', async () => {
    paths.length = 0;
    const error = await refusal(outbound().get(`http://media.example:${port}/ok`));
    expect(error.reason).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(paths).toEqual([]);
  });

  it('refuses schemes other than http(s)', async () => {
    expect((await refusal(outbound().get('file:///etc/passwd'))).reason).toMatch(/file:/);
    expect((await refusal(outbound().get('gopher://a.example/'))).reason).toMatch(/gopher:/);
  });

  it('fetches an allowed host, and re-checks every redirect', async () => {
    paths.length = 0;
    const allowed = outbound(['public.example']);
    expect((await allowed.get(`http://public.example:${port}/hop`)).bytes.toString()).toBe(
      'fetched',
    );
    // The allowed name redirects to a loopback address the allow-list does not name.
    const error = await refusal(allowed.get(`http://public.example:${port}/to-secret`));
    expect(error.reason).toMatch(/loopback/);
    expect(paths).toEqual(['/hop', '/ok', '/to-secret']);
    expect((await refusal(allowed.get(`http://public.example:${port}/loop`))).reason).toMatch(
      /redirected more than 3 times/,
    );
  });

  it('refuses a body over the limit, declared or streamed', async () => {
    const allowed = outbound(['127.0.0.1']);
    expect((await refusal(allowed.get(`http://127.0.0.1:${port}/big`))).reason).toMatch(
      /larger than 1000 bytes/,
    );
    expect((await refusal(allowed.get(`http://127.0.0.1:${port}/big-declared`))).reason).toMatch(
      /larger than 1000 bytes/,
    );
  });

  it('gives up after the time limit', async () => {
    const error = await refusal(outbound(['127.0.0.1'], 300).get(`http://127.0.0.1:${port}/never`));
    expect(error.reason).toMatch(/took longer than 300 ms/);
  });
});
