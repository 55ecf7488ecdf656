import { type ApltDatabase, type Kysely, sql } from '@aplt/db';

/** aplt_email_verifications in the tenant's aplt DB; only a hash of each token is kept. */
export async function insertVerification(
  db: Kysely<ApltDatabase>,
  v: { email: string; customerId: string; tokenHash: string; ttlHours: number },
): Promise<void> {
  await db
    .insertInto('aplt_email_verifications')
    .values({
      customer_email: v.email,
      commerce_customer_id: v.customerId,
      token_hash: v.tokenHash,
      expires_at: sql`now() + make_interval(hours => ${v.ttlHours})`,
    })
    .execute();
}

/** Spends a verification token; undefined when unknown, used or expired. */
export async function consumeVerification(
  db: Kysely<ApltDatabase>,
  tokenHash: string,
): Promise<{ email: string; customerId: string | null } | undefined> {
  const row = await db
    .updateTable('aplt_email_verifications')
    .set({ verified_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('verified_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['customer_email', 'commerce_customer_id'])
    .executeTakeFirst();
  return row ? { email: row.customer_email, customerId: row.commerce_customer_id } : undefined;
}
