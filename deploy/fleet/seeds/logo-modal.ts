import { upsertDemoCatalog } from '@aplt/service-logo-modal/demo';
import type { SeedContext } from './index';

/** Demo products for the logo modal (SKUs 900-xx) in the master tenant's aplt DB, and where to try it. */
export async function seedLogoModal(ctx: SeedContext): Promise<void> {
  const master = (await ctx.registry.list()).find((t) => t.kind === 'master');
  if (!master) throw new Error('logo-modal seed: no master tenant registered');
  await upsertDemoCatalog(ctx.databases.aplt(master));
  ctx.log('logo modal demo products 900-01..900-03 ready');
}

/** The banner's line for the logo modal's demo webshop. */
export function logoModalNotes(ctx: SeedContext): void {
  ctx.notes.push(`Logo modal demo webshop: http://modal.${ctx.domain}:${ctx.proxyPort}/demo-shop/`);
}
