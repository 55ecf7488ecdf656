import { type Kysely, sql } from 'kysely';
import type { CommerceDatabase } from './types';

/** A tenant's commerce database, or a transaction on it. */
type Db = Kysely<CommerceDatabase>;

/** What a verified admin or customer JWT claims, as the revocation check needs it. */
export interface ActorTokenFacts {
  actorType: 'user' | 'customer';
  /** The user or customer id; '' for a registration token (identity without a customer yet). */
  actorId: string;
  authIdentityId: string;
  /** When the token was issued (claim iat_ms, else iat). */
  issuedAt: Date;
}

/**
 * True while the token may still be used: its identity exists and is not deleted, its user or
 * customer exists, is not deleted and is the one the identity links to, and no password change
 * since the token's issue revoked it. One query of primary-key lookups (commerce DB).
 */
export async function actorTokenValid(db: Db, t: ActorTokenFacts): Promise<boolean> {
  const linkKey = t.actorType === 'user' ? 'user_id' : 'customer_id';
  const query = db
    .selectFrom('auth_identity as a')
    .leftJoin('auth_token_revocation as r', 'r.auth_identity_id', 'a.id')
    .select(sql<number>`1`.as('ok'))
    .where('a.id', '=', t.authIdentityId)
    .where('a.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('r.not_before', 'is', null), eb('r.not_before', '<=', t.issuedAt)]));
  const linked = sql<boolean>`a.app_metadata->>${linkKey} = ${t.actorId}`;
  // The two actor tables are spelt out: a join over a union of table names does not type-check.
  const checked =
    // A registration token (actor_id '') names no actor yet: the identity and revocation suffice.
    t.actorId === ''
      ? query
      : t.actorType === 'user'
        ? query
            .innerJoin('user as actor', (join) =>
              join.on('actor.id', '=', t.actorId).on('actor.deleted_at', 'is', null),
            )
            .where(linked)
        : query
            .innerJoin('customer as actor', (join) =>
              join.on('actor.id', '=', t.actorId).on('actor.deleted_at', 'is', null),
            )
            .where(linked);
  return (await checked.executeTakeFirst()) !== undefined;
}

/**
 * Refuses every token of the identity issued before `notBefore`. The mark only moves forward,
 * so a late or repeated write (a password-sync retry) never revives older tokens.
 */
export async function revokeTokensBefore(db: Db, authIdentityId: string, notBefore: Date): Promise<void> {
  await db
    .insertInto('auth_token_revocation')
    .values({ auth_identity_id: authIdentityId, not_before: notBefore })
    .onConflict((oc) =>
      oc.column('auth_identity_id').doUpdateSet({
        not_before: sql`greatest(auth_token_revocation.not_before, excluded.not_before)`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/** Spends every unused password-reset token of an e-mail (all actor types): the password changed. */
export async function spendResetTokens(db: Db, entityId: string, provider: string): Promise<void> {
  await db
    .updateTable('auth_reset_token')
    .set({ used_at: sql`now()` })
    .where('entity_id', '=', entityId)
    .where('provider', '=', provider)
    .where('used_at', 'is', null)
    .execute();
}
