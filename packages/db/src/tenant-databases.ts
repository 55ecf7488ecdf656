import type { Kysely } from 'kysely';
import type { ApltDatabase, CommerceDatabase } from './types';
import { createPgDb, type PgServer } from './connection';
import type { DbLocation, TenantRecord } from './registry';

/**
 * One pool per tenant database, created on first use and shared by every request of that tenant.
 * The registry says which database; the service's own defaults fill in the server when the
 * registry row does not name one (APLT_DB_* / SYNC_DB_* in the spec's terms).
 */
export class TenantDatabases {
  // One pool serves whichever table types its caller names: the kind is known here, its tables
  // are the caller's business (see aplt() and commerce()).
  private readonly pools = new Map<string, Kysely<unknown>>();

  constructor(
    private readonly defaults: { commerce: PgServer; aplt: PgServer },
    private readonly opts: { poolMax?: number; applicationName?: string } = {},
  ) {}

  aplt<DB = ApltDatabase>(tenant: TenantRecord): Kysely<DB> {
    return this.pool('aplt', tenant.apltDb) as Kysely<DB>;
  }

  commerce<DB = CommerceDatabase>(tenant: TenantRecord): Kysely<DB> {
    return this.pool('commerce', tenant.commerceDb) as Kysely<DB>;
  }

  private pool(kind: 'aplt' | 'commerce', loc: DbLocation): Kysely<unknown> {
    const d = this.defaults[kind];
    const address = {
      host: loc.host ?? d.host,
      port: loc.port ?? d.port,
      user: loc.user ?? d.user,
      password: loc.password ?? d.password,
      database: loc.database,
    };
    const key = `${address.user}@${address.host}:${address.port}/${address.database}`;
    let db = this.pools.get(key);
    if (!db) {
      db = createPgDb<unknown>(address, {
        max: this.opts.poolMax ?? 4,
        applicationName: this.opts.applicationName ?? 'aplt',
      });
      this.pools.set(key, db);
    }
    return db;
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(all.map((db) => db.destroy()));
  }
}
