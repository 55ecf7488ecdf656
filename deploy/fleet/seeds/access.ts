import { defaultDisabledFeatures, seedAccessDemo, seedTenantLicenses } from '@aplt/service-access/seed';
import type { SeedContext } from './index';

/** The demo access/license administrator (the access service's own login, not a tenant admin). */
export const demoAccessAdmin = { email: 'access-admin@aplt.localhost', password: 'Demo-Access-2026!' };

/**
 * The demo shop's tenant (README: `http://shop.acme.localhost:8080/`). Its licence also has the
 * logo configurator add-on (`designer_external`), so "Customize with your logo" shows in the
 * demo shop without a trip to the licenses UI; every other tenant keeps spec 2's seeded state.
 */
export const demoShopTenant = 'acme';
export const demoShopAddOns = ['designer_external'] as const;

/**
 * Access service demo data: its admin, a demo whitelist range, and licenses for every tenant in
 * the registry (from the catalog: 23 enabled, the 8 add-ons disabled; the demo shop's tenant
 * 24, with the logo configurator), not only one tenant. Existing licence rows are never
 * overwritten, so a fleet seeded before keeps what it has (and what staff changed).
 */
export async function seedAccess(ctx: SeedContext): Promise<void> {
  const tenantIds = (await ctx.registry.list()).map((t) => t.id);
  // The demo shop's licence first: seedAccessDemo then finds its rows and leaves them alone.
  const shop = tenantIds.includes(demoShopTenant)
    ? await seedTenantLicenses(
        ctx.access,
        [demoShopTenant],
        defaultDisabledFeatures.filter((f) => !(demoShopAddOns as readonly string[]).includes(f)),
      )
    : 0;
  const { adminCreated, licensed } = await seedAccessDemo(ctx.access, { tenantIds, admin: demoAccessAdmin });
  ctx.log(
    `access: admin ${adminCreated ? 'created' : 'kept'}, licenses seeded for ${licensed + shop} of ${tenantIds.length} tenants`,
  );
}

/** The banner's line for the access service's demo login (shown on every start, seeded or not). */
export function accessNotes(ctx: SeedContext): void {
  ctx.notes.push(
    `access/licenses login: ${demoAccessAdmin.email} / ${demoAccessAdmin.password} (the e-mailed one-time code shows in the fleet log as "mail to ...")`,
  );
}
