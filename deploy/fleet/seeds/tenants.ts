import { provisionTenant } from '@aplt/db';
import { demoTenants } from './demo-tenants';
import type { SeedContext } from './index';

export async function seedTenants(ctx: SeedContext): Promise<void> {
  for (const t of demoTenants) {
    await provisionTenant(ctx.registry, ctx.server, {
      ...t,
      hosts: [`${t.id}.${ctx.domain}`],
      adminBaseUrl: `http://${t.id}.${ctx.domain}:${ctx.proxyPort}`,
    });
  }
  ctx.log(`${demoTenants.length} tenants registered and migrated`);
}
