// Outbound HTTP for whatever the server fetches on a user's behalf (media by URL, integrations):
// http(s) only, public addresses only unless the operator allows a host, no DNS rebinding, and
// bounded in size and time. Callers show one neutral text; the reason is for the server log.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

/** What every refusal and failure says to the caller: which one it was would be an oracle. */
export const OUTBOUND_FAILED = 'The URL could not be fetched.';

export class OutboundError extends Error {
  constructor(
    /** The precise reason, for the server log only. */
    readonly reason: string,
  ) {
    super(OUTBOUND_FAILED);
  }
}

// ---- addresses

interface Range {
  version: 4 | 6;
  base: bigint;
  bits: number;
}

/** An address as a number (32 bits for IPv4, 128 for IPv6), or undefined when it is not one. */
function parseAddress(text: string): { version: 4 | 6; value: bigint } | undefined {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(address);
  if (version === 4) {
    return {
      version,
      value: address.split('.').reduce((sum, part) => (sum << 8n) | BigInt(part), 0n),
    };
  }
  if (version !== 6) return undefined;
  let text6 = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text6);
  if (dotted) {
    const v4 = parseAddress(dotted[1]!)!.value;
    text6 = `${text6.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text6.split('::') as [string, string | undefined];
  const words = (part: string | undefined) => (part ? part.split(':') : []);
  const missing = 8 - words(head).length - words(tail).length;
  const all =
    tail === undefined
      ? words(head)
      : [...words(head), ...Array<string>(missing).fill('0'), ...words(tail)];
  return { version, value: all.reduce((sum, word) => (sum << 16n) | BigInt(`0x${word}`), 0n) };
}

function parseRange(cidr: string): Range | undefined {
  const [address, bits, extra] = cidr.split('/');
  if (extra !== undefined || address === undefined) return undefined;
  const parsed = parseAddress(address);
  if (!parsed) return undefined;
  const width = parsed.version === 4 ? 32 : 128;
  const length = bits === undefined ? width : Number(bits);
  if (!/^\d+$/.test(bits ?? String(width)) || length > width) return undefined;
  return { version: parsed.version, base: parsed.value >> BigInt(width - length), bits: length };
}

function inRange(address: { version: 4 | 6; value: bigint }, range: Range): boolean {
  const width = address.version === 4 ? 32 : 128;
  return (
    address.version === range.version && address.value >> BigInt(width - range.bits) === range.base
  );
}

const table = (rows: [string, string][]) =>
  rows.map(([cidr, kind]) => [parseRange(cidr)!, kind] as const);

// IANA's special-purpose registries: none of these is a public host on the internet.
const SPECIAL_IPV4 = table([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

const SPECIAL_IPV6 = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'multicast'],
  ['64:ff9b:1::/48', 'reserved'],
  ['100::/64', 'reserved'],
  ['2001::/23', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
]);

/** IPv6 ranges that carry an IPv4 address, and where: it is judged as that IPv4 address. */
const EMBEDDING_IPV6 = [
  { range: parseRange('::ffff:0:0/96')!, shift: 0n }, // IPv4-mapped
  { range: parseRange('64:ff9b::/96')!, shift: 0n }, // NAT64
  { range: parseRange('2002::/16')!, shift: 80n }, // 6to4
];
const GLOBAL_UNICAST_IPV6 = parseRange('2000::/3')!;

/**
 * Why an address is not a public internet host ('loopback', 'private', 'link-local', …), or
 * undefined when it is one. Anything that does not parse as an address is 'not an address'.
 */
export function addressProblem(text: string): string | undefined {
  const address = parseAddress(text);
  if (!address) return 'not an address';
  if (address.version === 4) return SPECIAL_IPV4.find(([range]) => inRange(address, range))?.[1];
  for (const { range, shift } of EMBEDDING_IPV6) {
    if (inRange(address, range)) {
      const v4 = (address.value >> shift) & 0xffffffffn;
      const dotted = [24n, 16n, 8n, 0n].map((s) => (v4 >> s) & 0xffn).join('.');
      const problem = addressProblem(dotted);
      return problem && `${problem} (${dotted} inside IPv6)`;
    }
  }
  const special = SPECIAL_IPV6.find(([range]) => inRange(address, range))?.[1];
  if (special) return special;
  return inRange(address, GLOBAL_UNICAST_IPV6) ? undefined : 'reserved';
}

/** Host names, addresses and CIDR ranges the operator lets outbound requests reach anyway. */
export class AllowList {
  private readonly hosts = new Set<string>();
  private readonly ranges: Range[] = [];

  /** Throws naming the entry when one is neither a host name, an address nor a CIDR range. */
  constructor(entries: string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase().replace(/\.$/, '');
      if (!entry) continue;
      const range = parseRange(entry);
      if (range) this.ranges.push(range);
      else if (/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(entry) && !/^[\d.]+$/.test(entry))
        this.hosts.add(entry);
      else throw new Error(`'${raw.trim()}' is not a host name, an IP address or a CIDR range`);
    }
  }

  hasHost(hostname: string): boolean {
    return this.hosts.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  hasAddress(text: string): boolean {
    const address = parseAddress(text);
    if (!address) return false;
    // An IPv4-mapped IPv6 address is the IPv4 host it maps.
    const mapped = EMBEDDING_IPV6[0]!.range;
    const v4 =
      address.version === 6 && inRange(address, mapped)
        ? { version: 4 as const, value: address.value & 0xffffffffn }
        : undefined;
    return this.ranges.some((range) => inRange(address, range) || (v4 && inRange(v4, range)));
  }
}

// ---- requests

export interface OutboundOptions {
  /** LOUPE_MEDIA_URL_ALLOW's entries. */
  allow: string[];
  /** For the whole request: name resolution, connection, every redirect and the body. */
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed, each re-checked like the first URL. */
  maxRedirects?: number;
  /** Name resolution (every address of a host); DNS unless a test replaces it. */
  resolve?: (hostname: string) => Promise<string[]>;
}

export interface Fetched {
  bytes: Buffer;
  contentType: string | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class Outbound {
  private readonly allow: AllowList;
  private readonly resolve: (hostname: string) => Promise<string[]>;

  constructor(private readonly options: OutboundOptions) {
    this.allow = new AllowList(options.allow);
    this.resolve =
      options.resolve ??
      (async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address));
  }

  /** GETs a URL's body; any refusal or failure throws an OutboundError. */
  async get(url: string): Promise<Fetched> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      let current = url;
      for (let redirects = 0; ; redirects++) {
        const target = this.target(current);
        const address = await abortable(this.address(target.hostname), signal);
        const response = await this.request(target, address, signal);
        if (REDIRECTS.has(response.statusCode ?? 0)) {
          response.destroy();
          const location = response.headers.location;
          if (!location) throw new OutboundError(`${current} redirected without a Location`);
          if (redirects >= (this.options.maxRedirects ?? 3))
            throw new OutboundError(`${url} redirected more than ${redirects} times`);
          current = new URL(location, target).href;
          continue;
        }
        if (response.statusCode! < 200 || response.statusCode! >= 300) {
          response.destroy();
          throw new OutboundError(`${current} answered ${response.statusCode}`);
        }
        return {
          bytes: await this.body(response, current),
          contentType: response.headers['content-type'],
        };
      }
    } catch (error) {
      if (signal.aborted)
        throw new OutboundError(`${url} took longer than ${this.options.timeoutMs} ms`);
      if (error instanceof OutboundError) throw error;
      throw new OutboundError(`${url}: ${(error as Error).message}`);
    }
  }

  /** The URL, parsed the way a browser would (so case, decimal and hex IPv4 forms are normalised). */
  private target(url: string): URL {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new OutboundError(`'${url}' is not a URL`);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new OutboundError(`${target.protocol} URLs are not fetched`);
    return target;
  }

  /**
   * The address to connect to: every address the host has must be public (or allowed), and the
   * connection goes to the one checked here, so a second DNS answer cannot change it.
   */
  private async address(hostname: string): Promise<string> {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const named = this.allow.hasHost(host);
    const addresses = isIP(host) ? [host] : await this.resolve(host);
    if (addresses.length === 0) throw new OutboundError(`${host} has no address`);
    for (const address of addresses) {
      const problem = addressProblem(address);
      if (problem && !named && !this.allow.hasAddress(address))
        throw new OutboundError(
          `${host} is ${address}, a ${problem} address (LOUPE_MEDIA_URL_ALLOW can allow it)`,
        );
    }
    return addresses[0]!;
  }

  private request(target: URL, address: string, signal: AbortSignal) {
    const secure = target.protocol === 'https:';
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = (secure ? https : http).request(
        {
          host: address,
          port: target.port || (secure ? 443 : 80),
          path: `${target.pathname}${target.search}`,
          method: 'GET',
          headers: { host: target.host, accept: '*/*', 'user-agent': 'Loupe' },
          // The certificate is checked against the URL's host name, not the address.
          ...(secure && !isIP(host) ? { servername: host } : {}),
          agent: false,
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end();
    });
  }

  /** The body, refused as soon as it is larger than the limit (whatever Content-Length said). */
  private async body(response: http.IncomingMessage, url: string): Promise<Buffer> {
    const limit = this.options.maxBytes;
    const tooLarge = () => new OutboundError(`${url} is larger than ${limit} bytes`);
    if (Number(response.headers['content-length'] ?? 0) > limit) {
      response.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        response.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    if (!response.complete) throw new OutboundError(`${url} closed before the whole body`);
    return Buffer.concat(chunks);
  }
}

/** A promise that also settles when the signal aborts (name resolution cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
