import { seedAccessDemo } from '@aplt/service-access/seed';
import type { SeedContext } from './index';

/** The demo access/license administrator (the access service's own login, not a tenant admin). */
export const demoAccessAdmin = { email: 'access-admin@aplt.localhost', password: 'Demo-Access-2026!' };

/**
 * Access service demo data: its admin, a demo whitelist range, and licenses for every tenant in
 * the registry (from the catalog: 23 enabled, the 8 add-ons disabled), not only one tenant.
 */
export async function seedAccess(ctx: SeedContext): Promise<void> {
  const tenantIds = (await ctx.registry.list()).map((t) => t.id);
  const { adminCreated, licensed } = await seedAccessDemo(ctx.access, { tenantIds, admin: demoAccessAdmin });
  ctx.log(
    `access: admin ${adminCreated ? 'created' : 'kept'}, licenses seeded for ${licensed} of ${tenantIds.length} tenants`,
  );
  ctx.notes.push(
    `access/licenses login: ${demoAccessAdmin.email} / ${demoAccessAdmin.password} (the e-mailed one-time code shows in the fleet log as "mail to ...")`,
  );
}
