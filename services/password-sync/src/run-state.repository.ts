import type { Redis } from 'ioredis';

/** newer: the target's password changed after the source's, so it is kept. */
export type TenantSyncStatus = 'source' | 'updated' | 'newer' | 'not_present' | 'retrying' | 'failed';

export interface TenantSyncState {
  status: TenantSyncStatus;
  attempts: number;
  error?: string;
  at: string;
}

export interface RunMeta {
  id: string;
  sourceTenantId: string;
  entityId: string;
  provider: string;
  startedAt: string;
  firstPassAt?: string;
  /** Counts over every database of the registry after the first parallel pass. */
  firstPass?: { databases: number; updated: number; failed: number; notPresent: number };
  error?: string;
}

/**
 * Run state in Redis: one hash per run with a `meta` field and a field per tenant, so parallel
 * tenant jobs update their own field without read-modify-write races. Recent runs in a sorted set.
 */
export class RunStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  private key(runId: string) {
    return `${this.prefix}:pwsync-run:${runId}`;
  }
  private get index() {
    return `${this.prefix}:pwsync-runs`;
  }

  async saveMeta(meta: RunMeta): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(meta.id), 'meta', JSON.stringify(meta))
      .expire(this.key(meta.id), this.ttlSeconds)
      .zadd(this.index, Date.parse(meta.startedAt), meta.id)
      .zremrangebyrank(this.index, 0, -501)
      .exec();
  }

  async setTenant(runId: string, tenantId: string, state: TenantSyncState): Promise<void> {
    await this.redis.hset(this.key(runId), `tenant:${tenantId}`, JSON.stringify(state));
  }

  async get(runId: string): Promise<{ meta: RunMeta; tenants: Record<string, TenantSyncState> } | undefined> {
    const all = await this.redis.hgetall(this.key(runId));
    if (!all.meta) return undefined;
    const tenants: Record<string, TenantSyncState> = {};
    for (const [field, value] of Object.entries(all)) {
      if (field.startsWith('tenant:')) tenants[field.slice(7)] = JSON.parse(value) as TenantSyncState;
    }
    return { meta: JSON.parse(all.meta) as RunMeta, tenants };
  }

  async recent(limit: number): Promise<string[]> {
    return this.redis.zrevrange(this.index, 0, limit - 1);
  }
}
