import type { AccessDb } from '../db';
import { type Identity, liveDeviceToken, liveSession } from '../auth/session.repository';
import { tokenHash } from '../auth/tokens';

interface Entry {
  /** The stored id (sha256 of the token), by which revocations name it. */
  id: string;
  identity: Identity | null;
  until: number;
}

/** What one replica tells the others to drop (see access-cache-events.ts). */
export type IdentityDrop = { token: string } | { user: number };

/**
 * Session and device-token lookups for /api/validate, cached briefly in memory: forward auth runs
 * on every request, and a query each time would make the proxy as slow as Postgres. Revocations
 * through this service drop the entry at once, in this replica and (through `announce`, Redis
 * pub/sub) in every other; the TTL bounds staleness for everything else, including a replica
 * that missed the announcement.
 * Entries are keyed by the token itself, so a hit costs no hashing; the token is in this
 * process's memory for the request anyway.
 */
export class IdentityCache {
  private readonly sessions = new Map<string, Entry>();
  private readonly devices = new Map<string, Entry>();
  /** Tells the other replicas; set by AccessCacheEvents, a no-op for a single process. */
  announce: (drop: IdentityDrop) => Promise<void> = async () => {};

  constructor(
    private readonly db: AccessDb,
    private readonly ttlMs: number,
    private readonly idleMinutes = 120,
  ) {}

  session(token: string): Promise<Identity | null> {
    return this.lookup(this.sessions, token, (id) => liveSession(this.db, id, this.idleMinutes));
  }

  device(token: string): Promise<Identity | null> {
    return this.lookup(this.devices, token, (id) => liveDeviceToken(this.db, id));
  }

  /** A cached answer (identity, or null for a dead token), or undefined when it must be loaded. */
  sessionNow(token: string): Identity | null | undefined {
    return this.peek(this.sessions, token);
  }

  deviceNow(token: string): Identity | null | undefined {
    return this.peek(this.devices, token);
  }

  private peek(map: Map<string, Entry>, token: string): Identity | null | undefined {
    const hit = map.get(token);
    return hit && hit.until > Date.now() ? hit.identity : undefined;
  }

  /**
   * Drops the entry of a stored id here and in every other replica; resolves once the others
   * were told, so the revoking request answers only after no replica will accept the token.
   */
  async forget(id: string): Promise<void> {
    this.drop({ token: id });
    await this.announce({ token: id });
  }

  /** Drops every entry of a user (roles changed, disabled, password reset), in every replica. */
  async forgetUser(userId: number): Promise<void> {
    this.drop({ user: userId });
    await this.announce({ user: userId });
  }

  /** Drops entries in this process only (revocation is rare: a scan is fine). */
  drop(what: IdentityDrop): void {
    for (const map of [this.sessions, this.devices])
      for (const [k, v] of map)
        if ('token' in what ? v.id === what.token : v.identity?.userId === what.user) map.delete(k);
  }

  /** Drops everything in this process (a replica that may have missed announcements). */
  clear(): void {
    this.sessions.clear();
    this.devices.clear();
  }

  private async lookup(
    map: Map<string, Entry>,
    token: string,
    load: (id: string) => Promise<Identity | undefined>,
  ): Promise<Identity | null> {
    const now = Date.now();
    const hit = map.get(token);
    if (hit && hit.until > now) return hit.identity;
    const id = tokenHash(token);
    const identity = (await load(id)) ?? null;
    if (map.size > 50_000) map.clear();
    map.set(token, { id, identity, until: now + this.ttlMs });
    return identity;
  }
}
