import { newId, sql } from '@aplt/db';
import { seedEmailpassIdentity } from './emailpass-identity';
import type { SeedContext } from './index';

export const demoCustomer = { email: 'customer@aplt.localhost', password: 'Demo-Customer-2026' };

/**
 * One verified storefront customer per tenant (Medusa v2 rows: customer with has_account,
 * auth_identity linked by app_metadata.customer_id, emailpass provider_identity), so the
 * storefront login and the 2FA settings can be tried at once. Existing identities are kept.
 */
export async function seedAuthCustomers(ctx: SeedContext): Promise<void> {
  const created = await seedEmailpassIdentity(ctx, demoCustomer.email, demoCustomer.password, async (trx) => {
    const customerId = newId('cus');
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
    return { customer_id: customerId };
  });
  ctx.log(`storefront customers: ${created} created`);
}

/** The banner's line for the demo storefront customer. */
export function authNotes(ctx: SeedContext): void {
  ctx.notes.push(`Storefront customer (every tenant): ${demoCustomer.email} / ${demoCustomer.password}`);
}
