import { sql } from '@aplt/db';
import type { Executor } from '../db';

export async function insertTicket(
  db: Executor,
  t: {
    id: string;
    sessionId: string;
    host: string;
    returnUrl: string;
    trustDevice: boolean;
    ttlSeconds: number;
  },
): Promise<void> {
  await db
    .insertInto('access_login_tickets')
    .values({
      id: t.id,
      session_id: t.sessionId,
      host: t.host,
      return_url: t.returnUrl,
      trust_device: t.trustDevice,
      expires_at: sql`now() + make_interval(secs => ${t.ttlSeconds})`,
    })
    .execute();
}

/**
 * Marks the ticket used, in one statement, when it is unused, unexpired, made for `host`, and its
 * login's session is still live; what the child session needs, or undefined.
 */
export const useTicket = (db: Executor, id: string, host: string) =>
  db
    .updateTable('access_login_tickets as t')
    .from('access_sessions as s')
    .set({ used_at: sql`now()` })
    .whereRef('s.id', '=', 't.session_id')
    .where('t.id', '=', id)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('t.host', '=', host)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .returning([
      't.session_id',
      't.return_url',
      't.trust_device',
      's.user_id',
      's.expires_at',
      sql<number>`floor(extract(epoch FROM s.expires_at - now()))::int`.as('seconds_left'),
    ])
    .executeTakeFirst();

/** A session bound to one host that ends with its parent (the login's session). */
export async function insertChildSession(
  db: Executor,
  s: {
    id: string;
    userId: number;
    parentId: string;
    host: string;
    ip: string;
    userAgent: string | undefined;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('access_sessions')
    .values({
      id: s.id,
      user_id: s.userId,
      parent_id: s.parentId,
      host: s.host,
      ip: s.ip,
      user_agent: s.userAgent ?? null,
      expires_at: s.expiresAt,
    })
    .execute();
}
