import { type ApltDatabase, type CommerceDatabase, type Kysely, sql } from '@aplt/db';

/** The tenant's commerce database (or a transaction on it): the customers are there. */
type CommerceDb = Kysely<CommerceDatabase>;
/** The tenant's aplt database: its brands, and so its language, are there. */
type ApltDb = Kysely<ApltDatabase>;

export interface CustomerRow {
  id: string;
  /** Always set by registration; the column allows none (Medusa's guest customers). */
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  metadata: Record<string, unknown> | null;
}

/** Storefront customers in the tenant's commerce DB (Medusa v2 `customer`). */
export async function insertCustomer(
  db: CommerceDb,
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

export async function findCustomer(db: CommerceDb, id: string): Promise<CustomerRow | undefined> {
  const row = await db
    .selectFrom('customer')
    .select(['id', 'email', 'first_name', 'last_name', 'metadata'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  // Every writer stores a JSON object here.
  return row && { ...row, metadata: row.metadata as CustomerRow['metadata'] };
}

export async function markEmailVerified(db: CommerceDb, id: string): Promise<void> {
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
export async function tenantDefaultLanguage(aplt: ApltDb): Promise<string | undefined> {
  const row = await aplt
    .selectFrom('aplt_brands')
    .select('default_language')
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row?.default_language.trim();
}
