import { normaliseHost, type TenantRecord } from '@aplt/db';

/** A forwarded host as forward auth sees it: normalised, with the tenant the registry gives it. */
export interface HostEntry {
  /** Lower case, no port, no trailing dot (the assertion's `host` claim). */
  readonly host: string;
  /** The registry's tenant of this host; null for a host it does not know. */
  readonly tenant: string | null;
  /**
   * A registered tenant's storefront host: `shop.<that tenant's id>.<anything>`, the shape the
   * proxy routes to the storefront (route table host kind `shop`). Never true for a host the
   * registry does not know or gives another tenant, nor for a tenant's backend host.
   */
  readonly shop: boolean;
}

/** `shop.<tenant>.` starts the host and the registry gives it that very tenant. */
export const isShopHost = (host: string, tenant: string | null): boolean =>
  tenant !== null && host.startsWith(`shop.${tenant}.`);

interface TenantList {
  reload(): Promise<TenantRecord[]>;
}

/**
 * Which tenant a forwarded host belongs to, from memory: forward auth needs it on every request
 * (tenant binding, the assertion's `tenant` claim) and must not wait for the registry. The map is
 * reloaded in the background when it is older than `ttlMs`, or (at most once a second) when a host
 * is not in it, so a new tenant is seen at once. Only the very first request waits for a load.
 * Entries are kept per raw X-Forwarded-Host value, so a known host costs one map lookup.
 */
export class HostTenants {
  private tenantOf = new Map<string, string>();
  private signature = '';
  private entries = new Map<string, HostEntry>();
  private loadedAt = -1;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly registry: TenantList,
    private readonly ttlMs: number,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  /** The entry from memory, or undefined before the first load (then `entry`). */
  entryNow(rawHost: string): HostEntry | undefined {
    if (this.loadedAt < 0) return undefined;
    const now = Date.now();
    if (now - this.loadedAt > this.ttlMs) void this.reload();
    let entry = this.entries.get(rawHost);
    if (entry === undefined) {
      const host = normaliseHost(rawHost);
      const tenant = this.tenantOf.get(host) ?? null;
      entry = { host, tenant, shop: isShopHost(host, tenant) };
      if (this.entries.size >= 10_000) this.entries.clear();
      this.entries.set(rawHost, entry);
    }
    // A host nobody registered may be a tenant added a moment ago: look again, once a second at most.
    if (entry.tenant === null && now - this.loadedAt > 1000) void this.reload();
    return entry;
  }

  async entry(rawHost: string): Promise<HostEntry> {
    if (this.loadedAt < 0) await this.reload();
    return this.entryNow(rawHost)!;
  }

  /** One load at a time. A failure keeps the last map (and is retried after `ttlMs`). */
  private reload(): Promise<void> {
    this.loading ??= this.registry
      .reload()
      .then(
        (tenants) => {
          const next = new Map<string, string>();
          for (const t of tenants) for (const h of t.hosts) next.set(normaliseHost(h), t.id);
          const signature = [...next].map(([h, t]) => `${h}=${t}`).join(',');
          // Unchanged: the entries stay, and so does everything cached per entry (assertions).
          if (signature !== this.signature) {
            this.tenantOf = next;
            this.signature = signature;
            this.entries = new Map();
          }
          this.loadedAt = Date.now();
        },
        (err: unknown) => {
          if (this.loadedAt < 0) throw err;
          this.log.warn({ err: String(err) }, 'tenant registry unreachable; keeping the known hosts');
          this.loadedAt = Date.now();
        },
      )
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}
