import { sql } from '@aplt/db';
import type { Executor } from '../db';

export interface Identity {
  userId: number;
  email: string;
  roles: string[];
  /** The tenant the user belongs to: forward auth lets them through on its hosts only. */
  tenantId: string | null;
  /** A login hand-over's child session is valid on the one host it was made for; else null. */
  boundHost: string | null;
}

const identityColumns = [
  'u.id as user_id',
  'u.email as email',
  'u.roles as roles',
  'u.tenant_id as tenant_id',
] as const;

const toIdentity = (
  r: { user_id: number; email: string; roles: string[]; tenant_id: string | null },
  boundHost: string | null = null,
): Identity => ({
  userId: r.user_id,
  email: r.email,
  roles: r.roles,
  tenantId: r.tenant_id,
  boundHost,
});

export async function insertSession(
  db: Executor,
  s: { id: string; userId: number; ip: string; userAgent: string | undefined; hours: number },
): Promise<void> {
  await db
    .insertInto('access_sessions')
    .values({
      id: s.id,
      user_id: s.userId,
      ip: s.ip,
      user_agent: s.userAgent ?? null,
      expires_at: sql`now() + make_interval(hours => ${s.hours})`,
    })
    .execute();
}

/** A live session's user; also slides last_seen_at so inactivity can be told apart. */
export async function liveSession(
  db: Executor,
  id: string,
  idleMinutes = 120,
): Promise<Identity | undefined> {
  const row = await db
    .updateTable('access_sessions as s')
    .from('access_users as u')
    .set({ last_seen_at: sql`now()` })
    .whereRef('u.id', '=', 's.user_id')
    .where('s.id', '=', id)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${idleMinutes})`)
    .where('u.disabled', '=', false)
    .returning([...identityColumns, 's.host as host'])
    .executeTakeFirst();
  return row ? toIdentity(row as never, (row as { host: string | null }).host) : undefined;
}

export async function liveDeviceToken(db: Executor, id: string): Promise<Identity | undefined> {
  const row = await db
    .selectFrom('access_device_tokens as d')
    .innerJoin('access_users as u', 'u.id', 'd.user_id')
    .select([...identityColumns])
    .where('d.id', '=', id)
    .where('d.revoked_at', 'is', null)
    .where('d.expires_at', '>', sql<Date>`now()`)
    .where('u.disabled', '=', false)
    .executeTakeFirst();
  return row ? toIdentity(row as never) : undefined;
}

export async function insertDeviceToken(
  db: Executor,
  d: { id: string; userId: number; label: string | undefined; days: number },
): Promise<void> {
  await db
    .insertInto('access_device_tokens')
    .values({
      id: d.id,
      user_id: d.userId,
      label: d.label ?? null,
      expires_at: sql`now() + make_interval(days => ${d.days})`,
    })
    .execute();
}

export const listSessions = (db: Executor, userId: number) =>
  db
    .selectFrom('access_sessions')
    .select(['id', 'ip', 'user_agent', 'host', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at', 'desc')
    .execute();

export const listDeviceTokens = (db: Executor, userId: number) =>
  db
    .selectFrom('access_device_tokens')
    .select(['id', 'label', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at', 'desc')
    .execute();

/**
 * Revokes a session and the sessions handed over from it to other hosts (login tickets); only
 * the caller's own when `userId` is given. Returns the ids revoked, for the identity cache.
 */
export async function revokeSession(db: Executor, id: string, userId?: number): Promise<string[]> {
  let q = db
    .updateTable('access_sessions')
    .set({ revoked_at: sql`now()` })
    .where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)]))
    .where('revoked_at', 'is', null);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const rows = await q.returning(['id']).execute();
  return rows.map((r) => r.id as string);
}

export async function revokeDeviceToken(db: Executor, userId: number, id: string): Promise<boolean> {
  const r = await db
    .updateTable('access_device_tokens')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends every session and device token of a user (disabled, or given a new password by an admin). */
export async function revokeAllOfUser(db: Executor, userId: number): Promise<void> {
  for (const table of ['access_sessions', 'access_device_tokens'] as const)
    await db
      .updateTable(table)
      .set({ revoked_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
}
