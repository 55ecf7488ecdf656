import { type Kysely, sql } from '@aplt/db';

/** The emailpass hash of an identity in one tenant's commerce DB. */
export async function readPasswordHash(
  db: Kysely<any>,
  entityId: string,
  provider: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('provider_identity')
    .select(sql<string | null>`provider_metadata->>'password'`.as('password'))
    .where('entity_id', '=', entityId)
    .where('provider', '=', provider)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.password ?? undefined;
}

/**
 * Writes only provider_metadata.password of the matching provider_identity: auth_identity and
 * its app_metadata.user_id stay as they are, so login keeps resolving this tenant's own user.
 * Returns the rows changed (0: the identity does not exist in this tenant).
 */
export async function writePasswordHash(
  db: Kysely<any>,
  entityId: string,
  provider: string,
  hash: string,
): Promise<number> {
  const res = await db
    .updateTable('provider_identity')
    .set({
      provider_metadata: sql`jsonb_set(coalesce(provider_metadata, '{}'::jsonb), '{password}', to_jsonb(${hash}::text))`,
      updated_at: sql`now()`,
    })
    .where('entity_id', '=', entityId)
    .where('provider', '=', provider)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
