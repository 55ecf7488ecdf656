import { provisionTenant } from '@aplt/db';
import { demoTenants } from './demo-tenants';
import type { SeedContext } from './index';

/** The demo tenant ids this fleet has (FLEET_TENANTS, default all): the scopes of the tenants step. */
export function chosenDemoTenants(ctx: SeedContext): string[] {
  return demoTenants
    .filter((t) => ctx.tenantFilter.length === 0 || ctx.tenantFilter.includes(t.id))
    .map((t) => t.id);
}

/** Registers and migrates the given demo tenants (those not provisioned yet, or all when forced). */
export async function seedTenants(ctx: SeedContext, pending: string[]): Promise<void> {
  const chosen = demoTenants.filter((t) => pending.includes(t.id));
  for (const t of chosen) {
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
      { databasePrefix: ctx.dbPrefix },
    );
  }
  ctx.log(`${chosen.length} tenants registered and migrated`);
}
