// Slows password guessing without letting anyone lock an account: each failure makes the next try
// wait longer, counted per (email, address), per address and, capped at a few seconds, per email
// across addresses. Kept in memory per API process (docs/scaling.md says what that means with
// several).
import { DAY, HOUR, MINUTE } from '../platform/clock.js';

const SECOND = 1000;

export interface DelayRule {
  /** Failures allowed before any wait. */
  free: number;
  /** The wait after the first failure past `free`; it doubles with each further one. */
  baseMs: number;
  capMs: number;
  /** A key with no failure for this long starts over. */
  forgetMs: number;
}

export const LOGIN_LIMITS = {
  /** One address guessing one account: the delay grows to a quarter of an hour. */
  perEmailAndAddress: { free: 3, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: HOUR },
  /** One address guessing many accounts. */
  perAddress: { free: 10, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: HOUR },
  /** Many addresses guessing one account: short, so its owner is never kept out for long. */
  perEmail: { free: 10, baseMs: SECOND, capMs: 5 * SECOND, forgetMs: 15 * MINUTE },
  /** Addresses that signed in to an account skip its per-email delay for this long. */
  knownAddressMs: 30 * DAY,
} as const;

export const RESET_LIMITS = {
  /** Wrong or expired reset tokens from one address. */
  perAddress: { free: 10, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: HOUR },
} as const;

const MAX_KEYS = 100_000;
const MAX_KNOWN_ADDRESSES_PER_EMAIL = 16;

/** Sets a key as the newest entry, dropping the oldest when the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V, max = MAX_KEYS): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/** Failures per key and the wait they impose on the key's next attempt. */
export class FailureDelays {
  private readonly entries = new Map<string, { failures: number; lastAt: number }>();

  constructor(private readonly rule: DelayRule) {}

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitFor(key: string, now: number): number {
    const entry = this.current(key, now);
    if (!entry || entry.failures <= this.rule.free) return 0;
    const delay = Math.min(
      this.rule.baseMs * 2 ** (entry.failures - this.rule.free - 1),
      this.rule.capMs,
    );
    return Math.max(0, entry.lastAt + delay - now);
  }

  failed(key: string, now: number): void {
    const failures = (this.current(key, now)?.failures ?? 0) + 1;
    remember(this.entries, key, { failures, lastAt: now });
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private current(key: string, now: number) {
    const entry = this.entries.get(key);
    return entry && now - entry.lastAt < this.rule.forgetMs ? entry : undefined;
  }
}

export class LoginLimiter {
  private readonly pairs = new FailureDelays(LOGIN_LIMITS.perEmailAndAddress);
  private readonly addresses = new FailureDelays(LOGIN_LIMITS.perAddress);
  private readonly emails = new FailureDelays(LOGIN_LIMITS.perEmail);
  private readonly known = new Map<string, Map<string, number>>();

  /** Milliseconds this address must wait before trying this email; 0 when it may now. */
  waitFor(address: string, email: string, now: number): number {
    return Math.max(
      this.pairs.waitFor(pairKey(address, email), now),
      this.addresses.waitFor(address, now),
      this.isKnown(address, email, now) ? 0 : this.emails.waitFor(email, now),
    );
  }

  failed(address: string, email: string, now: number): void {
    this.pairs.failed(pairKey(address, email), now);
    this.addresses.failed(address, now);
    this.emails.failed(email, now);
  }

  /** The address's failures on other accounts still count: signing in to one's own resets none. */
  succeeded(address: string, email: string, now: number): void {
    this.pairs.clear(pairKey(address, email));
    this.emails.clear(email);
    const addresses = this.known.get(email) ?? new Map<string, number>();
    remember(addresses, address, now, MAX_KNOWN_ADDRESSES_PER_EMAIL);
    remember(this.known, email, addresses);
  }

  private isKnown(address: string, email: string, now: number): boolean {
    const at = this.known.get(email)?.get(address);
    return at !== undefined && now - at < LOGIN_LIMITS.knownAddressMs;
  }
}

/** Bounds guessing of reset tokens per address; a redeemed token costs nothing. */
export class ResetLimiter {
  private readonly addresses = new FailureDelays(RESET_LIMITS.perAddress);

  waitFor(address: string, now: number): number {
    return this.addresses.waitFor(address, now);
  }

  failed(address: string, now: number): void {
    this.addresses.failed(address, now);
  }
}

function pairKey(address: string, email: string): string {
  return `${address}\n${email}`;
}
