import { type CommerceDatabase, type Kysely, newId, spendResetTokens, sql } from '@aplt/db';

/** A tenant's commerce database, or a transaction on it: Medusa's identities live there. */
type Db = Kysely<CommerceDatabase>;

export interface EmailpassIdentity {
  providerIdentityId: string;
  authIdentityId: string;
  entityId: string;
  appMetadata: Record<string, unknown>;
  passwordHash: string | null;
}

/** Medusa v2's identity rows in a tenant's commerce DB; the e-mail is matched exactly. */
export async function findIdentity(
  db: Db,
  entityId: string,
  provider: string,
): Promise<EmailpassIdentity | undefined> {
  const row = await db
    .selectFrom('provider_identity as p')
    .innerJoin('auth_identity as a', 'a.id', 'p.auth_identity_id')
    .select([
      'p.id as provider_identity_id',
      'p.entity_id',
      'a.id as auth_identity_id',
      'a.app_metadata',
      sql<string | null>`p.provider_metadata->>'password'`.as('password'),
    ])
    .where('p.entity_id', '=', entityId)
    .where('p.provider', '=', provider)
    .where('p.deleted_at', 'is', null)
    .where('a.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    providerIdentityId: row.provider_identity_id,
    authIdentityId: row.auth_identity_id,
    entityId: row.entity_id,
    appMetadata: (row.app_metadata ?? {}) as Record<string, unknown>,
    passwordHash: row.password,
  };
}

/**
 * Writes the new hash; returns the identity's id, or undefined when there is no such identity.
 * `changedAt` is stored as password_changed_at: the password sync keeps the newest change.
 */
export async function setPasswordHash(
  db: Db,
  entityId: string,
  provider: string,
  hash: string,
  changedAt: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable('provider_identity')
    .set({
      provider_metadata: sql`coalesce(provider_metadata, '{}'::jsonb) || jsonb_build_object('password', ${hash}::text, 'password_changed_at', ${changedAt}::timestamptz)`,
      updated_at: sql`now()`,
    })
    .where('entity_id', '=', entityId)
    .where('provider', '=', provider)
    .where('deleted_at', 'is', null)
    .returning('auth_identity_id')
    .executeTakeFirst();
  return row?.auth_identity_id;
}

export async function createIdentity(
  db: Db,
  opts: { entityId: string; provider: string; hash: string; appMetadata: Record<string, unknown> },
): Promise<string> {
  const authId = newId('authid');
  await db
    .insertInto('auth_identity')
    .values({ id: authId, app_metadata: sql`${JSON.stringify(opts.appMetadata)}::jsonb` })
    .execute();
  await db
    .insertInto('provider_identity')
    .values({
      id: newId(),
      entity_id: opts.entityId,
      provider: opts.provider,
      auth_identity_id: authId,
      provider_metadata: sql`${JSON.stringify({ password: opts.hash })}::jsonb`,
    })
    .execute();
  return authId;
}

export async function insertResetToken(
  db: Db,
  t: { jti: string; entityId: string; provider: string; actorType: string; ttlSeconds: number },
): Promise<void> {
  await db
    .insertInto('auth_reset_token')
    .values({
      id: t.jti,
      entity_id: t.entityId,
      provider: t.provider,
      actor_type: t.actorType,
      expires_at: sql`now() + make_interval(secs => ${t.ttlSeconds})`,
    })
    .execute();
}

/**
 * Stores a new reset token and spends every earlier unused one of the same e-mail, so only the
 * newest link works. The identity's row is locked first: two requests at once still end with
 * one live token.
 */
export async function replaceResetToken(
  db: Db,
  t: { jti: string; entityId: string; provider: string; actorType: string; ttlSeconds: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('provider_identity')
      .select('id')
      .where('entity_id', '=', t.entityId)
      .where('provider', '=', t.provider)
      .forUpdate()
      .execute();
    await spendResetTokens(trx, t.entityId, t.provider);
    await insertResetToken(trx, t);
  });
}

/** Marks the token used; false when it is unknown, already used or expired. Atomic. */
export async function consumeResetToken(
  db: Db,
  t: { jti: string; entityId: string; provider: string; actorType: string },
): Promise<boolean> {
  const row = await db
    .updateTable('auth_reset_token')
    .set({ used_at: sql`now()` })
    .where('id', '=', t.jti)
    .where('entity_id', '=', t.entityId)
    .where('provider', '=', t.provider)
    .where('actor_type', '=', t.actorType)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Housekeeping: tokens long past their expiry are worthless. */
export async function deleteExpiredResetTokens(db: Db): Promise<void> {
  await db
    .deleteFrom('auth_reset_token')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

export async function findIdentityById(
  db: Db,
  id: string,
): Promise<{ id: string; appMetadata: Record<string, unknown> } | undefined> {
  const row = await db
    .selectFrom('auth_identity')
    .select(['id', 'app_metadata'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { id: row.id, appMetadata: (row.app_metadata ?? {}) as Record<string, unknown> } : undefined;
}

/** The emailpass e-mail of an identity (Medusa's registration token names only the identity). */
export async function findEntityIdOf(
  db: Db,
  authIdentityId: string,
  provider: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('provider_identity')
    .select('entity_id')
    .where('auth_identity_id', '=', authIdentityId)
    .where('provider', '=', provider)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.entity_id;
}

/** Links an identity to its actor; only when it has no link yet (a registration token works once). */
export async function linkActor(
  db: Db,
  authIdentityId: string,
  key: string,
  actorId: string,
): Promise<boolean> {
  const res = await db
    .updateTable('auth_identity')
    .set({
      app_metadata: sql`coalesce(app_metadata, '{}'::jsonb) || jsonb_build_object(${key}::text, ${actorId}::text)`,
      updated_at: sql`now()`,
    })
    .where('id', '=', authIdentityId)
    .where(sql<boolean>`coalesce(app_metadata->>${key}, '') = ''`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
