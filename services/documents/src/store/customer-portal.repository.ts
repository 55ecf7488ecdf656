import type { CommerceDatabase, Kysely } from '@aplt/db';

/** The commerce customer's e-mail: the key that links it to aplt_customers (spec 1). */
export async function commerceCustomerEmail(
  db: Kysely<CommerceDatabase>,
  customerId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('customer')
    .select('email')
    .where('id', '=', customerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.email ?? undefined;
}
