import { type Kysely, sql } from '@aplt/db';

export async function recordFailure(db: Kysely<any>, email: string, ip: string): Promise<void> {
  await db.insertInto('portal_login_failures').values({ email, ip }).execute();
}

export async function recentFailures(
  db: Kysely<any>,
  email: string,
  ip: string,
  windowSeconds: number,
): Promise<{ byEmail: number; byIp: number }> {
  const since = sql<Date>`CURRENT_TIMESTAMP(3) - INTERVAL ${windowSeconds} SECOND`;
  const [e, i] = await Promise.all([
    db
      .selectFrom('portal_login_failures')
      .select(sql<number>`count(*)`.as('n'))
      .where('email', '=', email)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('portal_login_failures')
      .select(sql<number>`count(*)`.as('n'))
      .where('ip', '=', ip)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow(),
  ]);
  return { byEmail: Number(e.n), byIp: Number(i.n) };
}

export async function clearFailures(db: Kysely<any>, email: string): Promise<void> {
  await db.deleteFrom('portal_login_failures').where('email', '=', email).execute();
}

export async function deleteOldFailures(db: Kysely<any>, windowSeconds: number): Promise<void> {
  await db
    .deleteFrom('portal_login_failures')
    .where('created_at', '<', sql<Date>`CURRENT_TIMESTAMP(3) - INTERVAL ${windowSeconds} SECOND`)
    .execute();
}
