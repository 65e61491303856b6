// Who a session cookie belongs to, remembered for a moment per process. A page of the explorer
// asks for 120 thumbnails at once, and each used to ask the database the same question first:
// on PostgreSQL that round trip was the largest cost of serving a thumbnail (docs/performance.md,
// Load). Whatever ends or changes a session in this process forgets it at once; other processes
// see the change within SESSION_CACHE_MS (docs/security.md).
import type { Clock } from '../platform/clock.js';
import type { UserRecord } from '../users/users.repository.js';

/** How long a looked-up session is trusted without asking the database again. */
export const SESSION_CACHE_MS = 2000;
const MAX_ENTRIES = 10_000;

export class SessionCache {
  private readonly entries = new Map<string, { user: UserRecord; until: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = SESSION_CACHE_MS,
  ) {}

  /** The user of a session digest looked up within the last ttlMs, if any. */
  get(sessionDigest: string): UserRecord | undefined {
    const entry = this.entries.get(sessionDigest);
    if (!entry) return undefined;
    if (entry.until > this.clock()) return entry.user;
    this.entries.delete(sessionDigest);
    return undefined;
  }

  set(sessionDigest: string, user: UserRecord): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(sessionDigest, { user, until: this.clock() + this.ttlMs });
  }

  forget(sessionDigest: string): void {
    this.entries.delete(sessionDigest);
  }

  /** Forgets every session of a user (signed out elsewhere, disabled, role or password changed). */
  forgetUser(userId: string): void {
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key);
  }
}
