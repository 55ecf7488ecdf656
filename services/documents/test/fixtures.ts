import type { ApltDatabase, CommerceDatabase, Kysely } from '@aplt/db';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { type TestFleet, testSecrets } from '@aplt/testing';

/** A fleet tenant's two query handles; a tenant the fleet lacks fails here, not at first use. */
export function tenantDbs(
  fleet: TestFleet,
  tenant: string,
): { aplt: Kysely<ApltDatabase>; commerce: Kysely<CommerceDatabase> } {
  const dbs = fleet.tenantDbs.get(tenant);
  if (!dbs) throw new Error(`No tenant ${tenant} in the test fleet`);
  return { aplt: dbs.aplt.db, commerce: dbs.commerce.db };
}

/** Settings every documents app of a test is built with: this process's fleet secrets. */
export const testEnv = (extra: Record<string, string | undefined> = {}) => ({
  ...process.env,
  ...testSecrets(),
  LOG_LEVEL: 'silent',
  ...extra,
});

export function adminToken(tenantId: string) {
  return signActorToken(
    tenantJwtSecret(testSecrets().JWT_SECRET, tenantId),
    {
      actor_id: 'user_x',
      actor_type: 'user',
      auth_identity_id: 'authid_x',
      app_metadata: { user_id: 'user_x' },
    },
    3600,
  );
}

export function customerToken(tenantId: string, customerId: string) {
  return signActorToken(
    tenantJwtSecret(testSecrets().JWT_SECRET, tenantId),
    {
      actor_id: customerId,
      actor_type: 'customer',
      auth_identity_id: `authid_${customerId}`,
      app_metadata: { customer_id: customerId },
    },
    3600,
  );
}

/** A small catalog: a product with tiered prices, a technique with a scale price and setup costs, customers. */
export async function seedCatalog(db: Kysely<ApltDatabase>) {
  await db.insertInto('aplt_suppliers').values({ code: '01', name: 'Supplier one' }).execute();
  const product = await db
    .insertInto('aplt_products')
    .values({ sku: '100-01', supplier_code: '01', name_nl: 'Balpen Classic', retail_price_100: '1.5000' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('aplt_product_prices')
    .values([
      { product_id: product.id, min_quantity: 1, price: '2.0000' },
      { product_id: product.id, min_quantity: 100, price: '1.5000' },
      { product_id: product.id, min_quantity: 500, price: '1.2000' },
    ])
    .execute();
  const technique = await db
    .insertInto('aplt_techniques')
    .values({ code: 'TAMPO', name_nl: 'Tampondruk' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('aplt_technique_pricing')
    .values([
      { technique_id: technique.id, min_quantity: 1, price_per_unit: '0.6000' },
      { technique_id: technique.id, min_quantity: 100, price_per_unit: '0.4000' },
    ])
    .execute();
  await db
    .insertInto('aplt_opstartkosten')
    .values({
      technique_id: technique.id,
      description: 'Cliché tampondruk',
      setup_cost: '45.00',
      per_colour: true,
    })
    .execute();
  const nl = await db
    .insertInto('aplt_customers')
    .values({
      email: 'inkoop@bakker.nl',
      company: 'Bakker BV',
      first_name: 'Jan',
      last_name: 'Bakker',
      country: 'NL',
      vat_number: 'NL001234567B01',
      city: 'Utrecht',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const de = await db
    .insertInto('aplt_customers')
    .values({
      email: 'einkauf@mueller.de',
      company: 'Müller GmbH',
      country: 'DE',
      vat_number: 'DE123456789',
      city: 'Köln',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    productId: Number(product.id),
    techniqueId: Number(technique.id),
    customerNl: Number(nl.id),
    customerDe: Number(de.id),
  };
}
