import type { ControlDatabase } from './types';
import { type Kysely, sql } from 'kysely';

export const tenantKinds = ['master', 'pim', 'tenant'] as const;
export type TenantKind = (typeof tenantKinds)[number];

/** Where a tenant database lives; fields left out come from the reading service's defaults. */
export interface DbLocation {
  database: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
}

export interface TenantRecord {
  id: string;
  kind: TenantKind;
  name: string;
  hosts: string[];
  commerceDb: DbLocation;
  apltDb: DbLocation;
  adminBaseUrl: string | null;
  /** The storefront's public origin, for customer links; null when the tenant has none. */
  storeBaseUrl: string | null;
}

/**
 * The control-plane list of tenants. It is the only list: services resolve hosts through it and
 * workers fan out over it, so adding a tenant is one insert, not an edit in every service.
 * Reads are cached briefly; an unknown host forces one reload so a new tenant is seen at once.
 */
export class TenantRegistry {
  private cache: { at: number; tenants: TenantRecord[]; byHost: Map<string, TenantRecord> } | undefined;
  private loading: Promise<TenantRecord[]> | undefined;

  constructor(
    private readonly control: Kysely<ControlDatabase>,
    private readonly ttlMs = 5_000,
  ) {}

  async list(): Promise<TenantRecord[]> {
    if (this.cache && Date.now() - this.cache.at < this.ttlMs) return this.cache.tenants;
    return this.reload();
  }

  async get(id: string): Promise<TenantRecord | undefined> {
    const found = (await this.list()).find((t) => t.id === id);
    if (found) return found;
    return (await this.reload()).find((t) => t.id === id);
  }

  async byHost(rawHost: string): Promise<TenantRecord | undefined> {
    const host = normaliseHost(rawHost);
    await this.list();
    const hit = this.cache?.byHost.get(host);
    if (hit) return hit;
    await this.reload();
    return this.cache?.byHost.get(host);
  }

  /** One reload at a time: a burst of unknown hosts costs one query, not one each. */
  reload(): Promise<TenantRecord[]> {
    this.loading ??= this.fetchAll().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async fetchAll(): Promise<TenantRecord[]> {
    const rows = await this.control
      .selectFrom('tenants')
      .select([
        'id',
        'kind',
        'name',
        'commerce_db',
        'aplt_db',
        'admin_base_url',
        'store_base_url',
        sql<
          string[]
        >`coalesce((select array_agg(h.host order by h.host) from tenant_hosts h where h.tenant_id = tenants.id), '{}')`.as(
          'hosts',
        ),
      ])
      .orderBy('id')
      .execute();
    // The table's check constraint holds `kind` to tenantKinds, and only add() writes the
    // locations, from DbLocation values.
    const tenants: TenantRecord[] = rows.map((r) => ({
      id: r.id,
      kind: r.kind as TenantKind,
      name: r.name,
      hosts: r.hosts,
      commerceDb: r.commerce_db as unknown as DbLocation,
      apltDb: r.aplt_db as unknown as DbLocation,
      adminBaseUrl: r.admin_base_url,
      storeBaseUrl: r.store_base_url,
    }));
    const byHost = new Map<string, TenantRecord>();
    for (const t of tenants) for (const h of t.hosts) byHost.set(h, t);
    this.cache = { at: Date.now(), tenants, byHost };
    return tenants;
  }

  async add(
    tenant: Omit<TenantRecord, 'adminBaseUrl' | 'storeBaseUrl'> & {
      adminBaseUrl?: string | null;
      storeBaseUrl?: string | null;
    },
  ): Promise<void> {
    await this.control.transaction().execute(async (trx) => {
      await trx
        .insertInto('tenants')
        .values({
          id: tenant.id,
          kind: tenant.kind,
          name: tenant.name,
          commerce_db: JSON.stringify(tenant.commerceDb),
          aplt_db: JSON.stringify(tenant.apltDb),
          admin_base_url: tenant.adminBaseUrl ?? null,
          store_base_url: tenant.storeBaseUrl ?? null,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            kind: eb.ref('excluded.kind'),
            name: eb.ref('excluded.name'),
            commerce_db: eb.ref('excluded.commerce_db'),
            aplt_db: eb.ref('excluded.aplt_db'),
            admin_base_url: eb.ref('excluded.admin_base_url'),
            store_base_url: eb.ref('excluded.store_base_url'),
          })),
        )
        .execute();
      await trx.deleteFrom('tenant_hosts').where('tenant_id', '=', tenant.id).execute();
      if (tenant.hosts.length > 0) {
        await trx
          .insertInto('tenant_hosts')
          .values(tenant.hosts.map((host) => ({ host: normaliseHost(host), tenant_id: tenant.id })))
          .execute();
      }
    });
    this.cache = undefined;
  }

  async remove(id: string): Promise<void> {
    await this.control.deleteFrom('tenants').where('id', '=', id).execute();
    this.cache = undefined;
  }
}

/**
 * The one spelling of a host for every lookup, key and comparison: lower case, no port, no
 * trailing dot. `STARK.LOCALHOST`, `Stark.localhost.` and `stark.localhost:8080` are one host, so
 * a rate limit, a lockout or an identity assertion keyed on it cannot be dodged by respelling.
 */
export function normaliseHost(raw: string | undefined): string {
  if (!raw) return '';
  let h = raw.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(0, end + 1);
  }
  const colon = h.lastIndexOf(':');
  // One colon: host:port. More than one without brackets: a bare IPv6 address, kept whole.
  if (colon > -1 && h.indexOf(':') === colon) h = h.slice(0, colon);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}
