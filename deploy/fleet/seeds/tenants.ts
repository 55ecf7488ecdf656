import { parsePgPlacement, type PgPlacement, provisionTenant } from '@aplt/db';
import { demoTenants, secondServerTenants } from './demo-tenants';
import type { SeedContext } from './index';

/** The demo tenant ids this fleet has (FLEET_TENANTS, default all): the scopes of the tenants step. */
export function chosenDemoTenants(ctx: SeedContext): string[] {
  return demoTenants
    .filter((t) => ctx.tenantFilter.length === 0 || ctx.tenantFilter.includes(t.id))
    .map((t) => t.id);
}

/**
 * Where a demo tenant's databases go: FLEET_PG_SECOND (host:port, or a port on 127.0.0.1, of a second PostgreSQL server,
 * which deploy/lib.sh starts when set) takes the tenants of FLEET_PG_SECOND_TENANTS (a comma
 * list; default secondServerTenants); every other tenant stays on the default server. A tenant
 * already registered keeps its server (provisionTenant refuses to move one).
 */
export function demoPlacement(ctx: Pick<SeedContext, 'env'>, id: string): PgPlacement | undefined {
  const second = ctx.env.FLEET_PG_SECOND?.trim();
  if (!second) return undefined;
  const listed = ctx.env.FLEET_PG_SECOND_TENANTS?.trim();
  const ids =
    listed === undefined || listed === '' ? secondServerTenants : listed.split(',').map((s) => s.trim());
  if (!ids.includes(id)) return undefined;
  return parsePgPlacement(/^[0-9]+$/.test(second) ? `127.0.0.1:${second}` : second);
}

/** Registers and migrates the given demo tenants (those not provisioned yet, or all when forced). */
export async function seedTenants(ctx: SeedContext, pending: string[]): Promise<void> {
  const chosen = demoTenants.filter((t) => pending.includes(t.id));
  const placed: string[] = [];
  for (const t of chosen) {
    const placement = demoPlacement(ctx, t.id);
    const existing = await ctx.registry.get(t.id);
    if (placement && !existing) placed.push(t.id);
    await provisionTenant(
      ctx.registry,
      ctx.tenantServers,
      {
        ...t,
        // The tenant host (admin, store API) and its storefront's shop host (apps/storefront).
        hosts: [`${t.id}.${ctx.domain}`, `shop.${t.id}.${ctx.domain}`],
        // Links in e-mails (reset, verification) are built from these, never from a request's Host.
        adminBaseUrl: `http://${t.id}.${ctx.domain}:${ctx.proxyPort}`,
        // Customer links (verification, password reset) open the storefront on the shop host.
        storeBaseUrl: `http://shop.${t.id}.${ctx.domain}:${ctx.proxyPort}`,
      },
      // A tenant registered earlier stays where it is, second server configured or not.
      { databasePrefix: ctx.dbPrefix, ...(placement && !existing ? { placement } : {}) },
    );
  }
  ctx.log(
    `${chosen.length} tenants registered and migrated${placed.length ? ` (${placed.join(', ')} on ${ctx.env.FLEET_PG_SECOND})` : ''}`,
  );
}

/** The banner's line: which PostgreSQL server holds which tenants, from the registry. */
export async function tenantsNotes(ctx: SeedContext): Promise<void> {
  const byServer = new Map<string, string[]>();
  for (const t of await ctx.registry.list()) {
    const loc = t.apltDb;
    const d = ctx.tenantServers.aplt;
    const key = `${loc.host ?? d.host}:${loc.port ?? d.port}`;
    byServer.set(key, [...(byServer.get(key) ?? []), t.id]);
  }
  if (byServer.size > 1)
    ctx.notes.push(
      `PostgreSQL servers: ${[...byServer].map(([server, ids]) => `${server} (${ids.join(', ')})`).join('; ')}`,
    );
}
