import path from 'node:path';
import { packageDir } from '@aplt/config';
import { isUniqueViolation, sql } from '@aplt/db';
import { createRun, findConnector, runConnector, supplierCodes } from '@aplt/service-catalog/connectors';
import { copyCatalog, recordTenantUpdate, syncCommerceCatalog } from '@aplt/service-catalog/sync';
import type { SeedContext } from './index';

const fixtures =
  path.join(packageDir(import.meta.url), '..', 'services', 'catalog', 'test', 'fixtures') + path.sep;

/** Demo suppliers, each with its sample feeds (services/catalog/test/fixtures/<code>/) in its own format. */
const suppliers: Record<string, { name: string; format: string; ext: string }> = {
  '01': { name: 'Midocean (demo)', format: 'json', ext: 'json' },
  '02': { name: 'XD Connects (demo)', format: 'tsv', ext: 'tsv' },
  '03': { name: 'Makito (demo)', format: 'xml', ext: 'xml' },
  '04': { name: 'Supplier 04 (demo, Midocean-style JSON)', format: 'json', ext: 'json' },
  '05': { name: 'Supplier 05 (demo, XD-style TSV)', format: 'tsv', ext: 'tsv' },
  '06': { name: 'PF Concept (demo)', format: 'strings_json', ext: 'json' },
  '07': { name: 'Supplier 07 (demo, Makito-style XML)', format: 'xml', ext: 'xml' },
  '09': { name: 'Supplier 09 (demo, Midocean-style JSON)', format: 'json', ext: 'json' },
};

async function masterDb(ctx: SeedContext) {
  const master = (await ctx.registry.list()).find((t) => t.kind === 'master');
  if (!master) throw new Error('catalog seed: no master tenant registered');
  return ctx.databases.aplt(master);
}

/**
 * The demo catalog's master part: suppliers and a category tree in the master aplt DB and the
 * sample feeds of every supplier imported through the real connectors (32 connector runs).
 * Idempotent (upserts); the start command runs it once per fleet (seed markers).
 */
export async function seedCatalogImport(ctx: SeedContext): Promise<void> {
  const db = await masterDb(ctx);
  for (const code of supplierCodes) {
    const s = suppliers[code]!;
    const feeds = Object.fromEntries(
      ['products', 'stock', 'prices', 'printdata'].map((k) => [k, `${fixtures}${code}/${k}.${s.ext}`]),
    );
    await sql`INSERT INTO aplt_suppliers (code, name, feed_format, settings)
      VALUES (${code}, ${s.name}, ${s.format}, ${JSON.stringify({ feeds, margin_percent: '40' })}::jsonb)
      ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, feed_format = EXCLUDED.feed_format, settings = EXCLUDED.settings`.execute(
      db,
    );
  }
  await sql`INSERT INTO aplt_categories (code, slug, name_nl, name_en, name_de, sort_order) VALUES
      ('writing', 'schrijfwaren', 'Schrijfwaren', 'Writing', 'Schreibwaren', 1),
      ('drinkware', 'drinkwaren', 'Drinkwaren', 'Drinkware', 'Trinkgeschirr', 2),
      ('office', 'kantoor', 'Kantoor', 'Office', 'Büro', 3),
      ('bags', 'tassen', 'Tassen', 'Bags', 'Taschen', 4),
      ('tech', 'elektronica', 'Elektronica', 'Technology', 'Technik', 5),
      ('umbrellas', 'paraplus', 'Paraplu''s', 'Umbrellas', 'Regenschirme', 6)
    ON CONFLICT (code) DO UPDATE SET name_nl = EXCLUDED.name_nl, name_en = EXCLUDED.name_en, name_de = EXCLUDED.name_de`.execute(
    db,
  );
  await sql`INSERT INTO aplt_categories (code, slug, name_nl, name_en, name_de, parent_id)
    SELECT 'pens', 'pennen', 'Pennen', 'Pens', 'Kugelschreiber', id FROM aplt_categories WHERE code = 'writing'
    ON CONFLICT (code) DO NOTHING`.execute(db);

  let imported = 0;
  for (const code of Object.keys(suppliers)) {
    for (const kind of ['products', 'stock', 'prices', 'printdata']) {
      const connector = findConnector(`${code}_${kind}`)!;
      try {
        const run = await createRun(db, {
          connector: connector.name,
          supplierCode: code,
          triggeredBy: 'seed',
        });
        await runConnector(db, run.id, connector, { batchSize: 500, defaultMarginPercent: '40' });
        imported++;
      } catch (err) {
        // A run of this connector is already queued or running (a fleet worker): it imports the same feed.
        if (!isUniqueViolation(err)) throw err;
      }
    }
  }
  const count = (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_products WHERE is_sellable`.execute(db)
  ).rows[0]?.n;
  ctx.log(`catalog: ${imported} connector runs, ${count} sellable products in the master`);
}

/**
 * The demo catalog's tenant part, for the given tenants (those not seeded yet, or all when
 * forced): a first tenant update (catalog copy from the master) into every non-master one and
 * a commerce sync per tenant, so each demo shop shows products. Idempotent.
 */
export async function seedCatalogTenants(ctx: SeedContext, pending: string[]): Promise<void> {
  const db = await masterDb(ctx);
  const tenants = (await ctx.registry.list()).filter((t) => pending.includes(t.id));
  const targets = tenants.filter((t) => t.kind !== 'master');
  for (const t of targets) {
    await copyCatalog(db, ctx.databases.aplt(t));
    await recordTenantUpdate(db, t);
  }
  for (const t of tenants) {
    await syncCommerceCatalog(ctx.databases.aplt(t), ctx.databases.commerce(t));
  }
  ctx.log(
    `catalog: tenant update into ${targets.length} tenants, commerce sync of ${tenants.map((t) => t.id).join(', ')}`,
  );
}

/** The whole demo catalog at once (master import, then every registered tenant): for tests. */
export async function seedCatalog(ctx: SeedContext): Promise<void> {
  await seedCatalogImport(ctx);
  await seedCatalogTenants(
    ctx,
    (await ctx.registry.list()).map((t) => t.id),
  );
}
