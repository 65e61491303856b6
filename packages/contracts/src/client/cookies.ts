// A cookie jar for callers outside a browser (SDK-like scripts, e2e, benchmarks, the server's
// tests): keeps the cookies the server sets, sends them back.
export interface CookieJar {
  /** `Cookie` header value of the cookies kept; empty when none. */
  header(): string;
  /** Reads the Set-Cookie headers of an answer; an empty value removes the cookie. */
  store(setCookies: readonly string[]): void;
  get(name: string): string | undefined;
}

export function cookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    store(setCookies) {
      for (const line of setCookies) {
        const pair = line.split(';', 1)[0] ?? '';
        const at = pair.indexOf('=');
        if (at <= 0) continue;
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (value) cookies.set(name, value);
        else cookies.delete(name);
      }
    },
    get: (name) => cookies.get(name),
  };
}
