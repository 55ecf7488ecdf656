import type { Executor } from '../db';

/** The whitelist table's ranges as the admin API shows them (cidr as text). */
export const listWhitelist = async (db: Executor) =>
  (await db.selectFrom('access_ip_whitelist').select(['id', 'cidr', 'note']).orderBy('id').execute()).map(
    (r) => ({ ...r, cidr: String(r.cidr) }),
  );

/** Adds a range; a range already there is a unique violation for the caller to answer. */
export async function insertWhitelistEntry(db: Executor, e: { cidr: string; note: string | null }) {
  const row = await db
    .insertInto('access_ip_whitelist')
    .values(e)
    .returning(['id', 'cidr', 'note'])
    .executeTakeFirstOrThrow();
  return { ...row, cidr: String(row.cidr) };
}

/** True when there was such an entry. */
export async function deleteWhitelistEntry(db: Executor, id: number): Promise<boolean> {
  const r = await db.deleteFrom('access_ip_whitelist').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
