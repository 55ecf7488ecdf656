import { type Kysely, revokeTokensBefore, spendResetTokens, sql, type CommerceDatabase } from '@aplt/db';

export interface SourcePassword {
  hash: string;
  /** When the password was set (the auth service records it; older rows fall back to updated_at). */
  changedAt: string;
}

/** The emailpass hash of an identity in one tenant's commerce DB. */
export async function readPassword(
  db: Kysely<CommerceDatabase>,
  entityId: string,
  provider: string,
): Promise<SourcePassword | undefined> {
  const row = await db
    .selectFrom('provider_identity')
    .select([
      sql<string | null>`provider_metadata->>'password'`.as('hash'),
      sql<string>`coalesce((provider_metadata->>'password_changed_at')::timestamptz, updated_at)::text`.as(
        'changed_at',
      ),
    ])
    .where('entity_id', '=', entityId)
    .where('provider', '=', provider)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.hash ? { hash: row.hash, changedAt: row.changed_at } : undefined;
}

/**
 * Writes only the password fields of the matching provider_identity: auth_identity and its
 * app_metadata.user_id stay as they are, so login keeps resolving this tenant's own user. A
 * target whose password changed later than the source's is left alone (the newest change wins,
 * whatever order crossing runs finish in). In the same transaction as a write, the target's
 * earlier sessions are revoked (every token of that identity issued before `revokedAt`, cookie
 * sessions included) and its unused reset links spent, as a reset in that tenant would.
 */
export async function writePassword(
  db: Kysely<CommerceDatabase>,
  entityId: string,
  provider: string,
  source: SourcePassword,
  revokedAt: Date,
): Promise<'updated' | 'newer' | 'not_present'> {
  return db.transaction().execute(async (trx) => {
    const written = await trx
      .updateTable('provider_identity')
      .set({
        provider_metadata: sql`coalesce(provider_metadata, '{}'::jsonb) || jsonb_build_object('password', ${source.hash}::text, 'password_changed_at', ${source.changedAt}::timestamptz)`,
        updated_at: sql`now()`,
      })
      .where('entity_id', '=', entityId)
      .where('provider', '=', provider)
      .where('deleted_at', 'is', null)
      .where(
        sql<boolean>`coalesce((provider_metadata->>'password_changed_at')::timestamptz, '-infinity') <= ${source.changedAt}::timestamptz`,
      )
      .returning('auth_identity_id')
      .executeTakeFirst();
    if (written) {
      await revokeTokensBefore(trx, written.auth_identity_id as string, revokedAt);
      await spendResetTokens(trx, entityId, provider);
      return 'updated';
    }
    const exists = await trx
      .selectFrom('provider_identity')
      .select('id')
      .where('entity_id', '=', entityId)
      .where('provider', '=', provider)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return exists ? 'newer' : 'not_present';
  });
}
