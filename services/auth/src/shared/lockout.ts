import { createHash } from 'node:crypto';
import { tooManyRequests } from '@aplt/http';
import type { Redis } from 'ioredis';

// One atomic step per attempt: count it and start the window on the first one. A key left
// without expiry (it cannot happen through these scripts, but an operator may touch Redis) gets one.
const COUNT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;
// A successful attempt is not a failure: take it back, never below zero, never creating the key.
const UNCOUNT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return n`;

export const ACCOUNT_LOCKED = 'Too many failed sign-in attempts for this account.';

/**
 * Account lockout of emailpass logins, per tenant and e-mail address (admin and customer share
 * it: in Medusa one identity carries both). Every attempt is counted in Redis before the password
 * is checked, so concurrent guesses cannot all pass a check made before any of them was
 * recorded; a correct password takes its own count back. Unknown addresses are counted the same
 * way and locked the same way, so the answer never tells whether an account exists.
 */
export class AccountLockout {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly opts: { maxFailures: number; windowSeconds: number },
  ) {
    if (opts.maxFailures < 1 || opts.windowSeconds < 1)
      throw new Error('AUTH_LOCKOUT_MAX_FAILURES and AUTH_LOCKOUT_WINDOW_SECONDS must be at least 1');
  }

  /** The address as typed, only case and surrounding blanks folded; hashed so no address sits in Redis. */
  private key(tenantId: string, email: string): string {
    const account = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
    return `${this.prefix}:auth-lockout:${tenantId}:${account}`;
  }

  /**
   * Counts an attempt; throws 429 when the account already failed `maxFailures` times in the
   * window. Returns the function to call when the password turned out right.
   */
  async attempt(tenantId: string, email: string): Promise<() => Promise<void>> {
    const key = this.key(tenantId, email);
    const [count, ttlMs] = (await this.redis.eval(COUNT, 1, key, String(this.opts.windowSeconds * 1000))) as [
      number,
      number,
    ];
    if (count > this.opts.maxFailures) {
      const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
      throw tooManyRequests(`${ACCOUNT_LOCKED} Try again in ${seconds} seconds.`, seconds);
    }
    return async () => {
      await this.redis.eval(UNCOUNT, 1, key);
    };
  }
}
