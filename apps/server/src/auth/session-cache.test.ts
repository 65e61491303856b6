// The per-process session cache: trusted for its moment only, and forgotten by session or user.
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../users/users.repository.js';
import { SessionCache } from './session-cache.js';

const user = (id: string) => ({ id, enabled: true }) as UserRecord;

describe('SessionCache', () => {
  it('answers a remembered user until its time is up, then asks again', () => {
    let now = 1000;
    const cache = new SessionCache(() => now, 2000);
    cache.set('s1', user('u1'));
    now += 1999;
    expect(cache.get('s1')?.id).toBe('u1');
    now += 1;
    expect(cache.get('s1')).toBeUndefined();
  });

  it('forgets one session, or every session of a user', () => {
    const cache = new SessionCache(() => 0);
    cache.set('a1', user('a'));
    cache.set('a2', user('a'));
    cache.set('b1', user('b'));
    cache.forget('a1');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')?.id).toBe('a');
    cache.forgetUser('a');
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.id).toBe('b');
  });
});
