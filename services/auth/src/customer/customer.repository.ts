import { type Kysely, sql, type Transaction } from '@aplt/db';

type Db = Kysely<any> | Transaction<any>;

export interface CustomerRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  metadata: Record<string, unknown> | null;
}

/** Storefront customers in the tenant's commerce DB (Medusa v2 `customer`). */
export async function insertCustomer(
  db: Db,
  c: {
    id: string;
    email: string;
    firstName?: string | undefined;
    lastName?: string | undefined;
    companyName?: string | undefined;
  },
): Promise<void> {
  await db
    .insertInto('customer')
    .values({
      id: c.id,
      email: c.email,
      first_name: c.firstName ?? null,
      last_name: c.lastName ?? null,
      company_name: c.companyName || null,
      has_account: true,
      metadata: sql`'{}'::jsonb`,
    })
    .execute();
}

export async function findCustomer(db: Db, id: string): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('customer')
    .select(['id', 'email', 'first_name', 'last_name', 'metadata'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst() as Promise<CustomerRow | undefined>;
}

export async function markEmailVerified(db: Db, id: string): Promise<void> {
  await db
    .updateTable('customer')
    .set({
      metadata: sql`jsonb_set(coalesce(metadata, '{}'::jsonb), '{email_verified_at}', to_jsonb(now()))`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}
