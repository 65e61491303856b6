// Slows password guessing: a sliding window of attempts per client address and of failures per
// email. Kept in memory per API process (docs/scaling.md says what that means with several).
import { MINUTE } from '../platform/clock.js';

interface Rule {
  limit: number;
  windowMs: number;
}

export const LOGIN_LIMITS = {
  perAddress: { limit: 30, windowMs: 5 * MINUTE },
  failuresPerEmail: { limit: 8, windowMs: 15 * MINUTE },
} satisfies Record<string, Rule>;

class Window {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly rule: Rule) {}

  /** Milliseconds until another hit is allowed, or 0 when one is allowed now. */
  waitFor(key: string, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < this.rule.limit) return 0;
    return recent[0]! + this.rule.windowMs - now;
  }

  hit(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 100_000) this.hits.delete(this.hits.keys().next().value!);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.hits.get(key) ?? []).filter((at) => at > now - this.rule.windowMs);
  }
}

export class LoginLimiter {
  private readonly addresses = new Window(LOGIN_LIMITS.perAddress);
  private readonly emails = new Window(LOGIN_LIMITS.failuresPerEmail);

  /** Records an attempt; answers the wait in ms when the address or email is over its limit. */
  attempt(address: string, email: string, now: number): number {
    const wait = Math.max(this.addresses.waitFor(address, now), this.emails.waitFor(email, now));
    if (wait === 0) this.addresses.hit(address, now);
    return wait;
  }

  failed(email: string, now: number): void {
    this.emails.hit(email, now);
  }

  succeeded(email: string): void {
    this.emails.clear(email);
  }
}
