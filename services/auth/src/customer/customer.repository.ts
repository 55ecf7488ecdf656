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
    /** The language of the storefront page the customer signed up on (their account e-mails' language). */
    preferredLanguage?: string | undefined;
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
      metadata: c.preferredLanguage
        ? sql`jsonb_build_object('preferred_language', ${c.preferredLanguage}::text)`
        : sql`'{}'::jsonb`,
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

/** The tenant's language: its default brand's (aplt database), when it has one. */
export async function tenantDefaultLanguage(aplt: Db): Promise<string | undefined> {
  const row = await aplt
    .selectFrom('aplt_brands')
    .select('default_language')
    .where('is_default', '=', true)
    .executeTakeFirst();
  return (row?.default_language as string | undefined)?.trim();
}
