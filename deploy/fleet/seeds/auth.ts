import { newId, sql } from '@aplt/db';
import { hashPassword } from '@aplt/passwords';
import type { SeedContext } from './index';

export const demoCustomer = { email: 'customer@aplt.localhost', password: 'Demo-Customer-2026' };

/**
 * One verified storefront customer per tenant (Medusa v2 rows: customer with has_account,
 * auth_identity linked by app_metadata.customer_id, emailpass provider_identity), so the
 * storefront login and the 2FA settings can be tried at once. Existing identities are kept.
 */
export async function seedAuthCustomers(ctx: SeedContext): Promise<void> {
  const hash = await hashPassword(demoCustomer.password);
  let created = 0;
  for (const tenant of await ctx.registry.list()) {
    const db = ctx.databases.commerce(tenant);
    await db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('provider_identity')
        .select('id')
        .where('entity_id', '=', demoCustomer.email)
        .where('provider', '=', 'emailpass')
        .executeTakeFirst();
      if (existing) return;
      const customerId = newId('cus');
      const authId = newId('authid');
      await trx
        .insertInto('customer')
        .values({
          id: customerId,
          email: demoCustomer.email,
          first_name: 'Demo',
          last_name: 'Customer',
          has_account: true,
          metadata: sql`jsonb_build_object('email_verified_at', now())`,
        })
        .execute();
      await trx
        .insertInto('auth_identity')
        .values({ id: authId, app_metadata: sql`${JSON.stringify({ customer_id: customerId })}::jsonb` })
        .execute();
      await trx
        .insertInto('provider_identity')
        .values({
          id: newId(),
          entity_id: demoCustomer.email,
          provider: 'emailpass',
          auth_identity_id: authId,
          provider_metadata: sql`${JSON.stringify({ password: hash })}::jsonb`,
        })
        .execute();
      created++;
    });
  }
  ctx.log(`storefront customers: ${created} created`);
  ctx.notes.push(`Storefront customer (every tenant): ${demoCustomer.email} / ${demoCustomer.password}`);
}
