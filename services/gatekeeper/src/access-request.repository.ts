import { type Kysely, sql, type Transaction, type ApltDatabase, type CommerceDatabase } from '@aplt/db';

export type AccessStatus = 'pending' | 'approved' | 'rejected';

export interface AccessRequestRow {
  id: number;
  ip_address: string;
  name: string | null;
  email: string | null;
  company: string | null;
  message: string | null;
  status: AccessStatus;
  approved_by: string | null;
  approved_at: Date | null;
  created_at: Date;
}

type Db = Kysely<ApltDatabase> | Transaction<ApltDatabase>;

/** The visitor's newest request decides its state (a new request may follow a rejection). */
export async function latestForIp(db: Db, ip: string): Promise<AccessRequestRow | undefined> {
  return (await db
    .selectFrom('aplt_access_requests')
    .selectAll()
    .where('ip_address', '=', ip)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as AccessRequestRow | undefined;
}

export async function countSince(db: Db, ip: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('aplt_access_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip_address', '=', ip)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertRequest(
  db: Db,
  values: { ip: string; name: string; email: string; company: string; message: string },
): Promise<AccessRequestRow> {
  return (await db
    .insertInto('aplt_access_requests')
    .values({
      ip_address: values.ip,
      name: values.name,
      email: values.email,
      company: values.company,
      message: values.message,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as AccessRequestRow;
}

/** One page of requests, newest first, with the number of all that match (for paging). */
export async function listByStatus(
  db: Db,
  status: AccessStatus | 'all',
  limit: number,
  offset = 0,
): Promise<{ rows: AccessRequestRow[]; count: number }> {
  let page = db
    .selectFrom('aplt_access_requests')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
  let total = db.selectFrom('aplt_access_requests').select((eb) => eb.fn.countAll<number>().as('n'));
  if (status !== 'all') {
    page = page.where('status', '=', status);
    total = total.where('status', '=', status);
  }
  const [rows, counted] = await Promise.all([page.execute(), total.executeTakeFirstOrThrow()]);
  return { rows: rows as AccessRequestRow[], count: Number(counted.n) };
}

export async function findForUpdate(
  trx: Transaction<ApltDatabase>,
  id: number,
): Promise<AccessRequestRow | undefined> {
  return (await trx
    .selectFrom('aplt_access_requests')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()) as AccessRequestRow | undefined;
}

export async function decide(
  trx: Transaction<ApltDatabase>,
  id: number,
  status: 'approved' | 'rejected',
  by: string,
): Promise<AccessRequestRow> {
  return (await trx
    .updateTable('aplt_access_requests')
    .set({ status, approved_by: by, approved_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()) as AccessRequestRow;
}

export async function audit(
  trx: Transaction<ApltDatabase>,
  entry: {
    actor: string;
    action: string;
    entityId: number;
    changes: Record<string, unknown>;
    ip: string;
    requestId: string;
  },
): Promise<void> {
  await trx
    .insertInto('aplt_audit_log')
    .values({
      actor: entry.actor,
      actor_type: 'admin',
      action: entry.action,
      entity_type: 'access_request',
      entity_id: String(entry.entityId),
      changes: JSON.stringify(entry.changes),
      ip: entry.ip,
      request_id: entry.requestId,
    })
    .execute();
}

/** An admin user's e-mail, from the tenant's commerce database (who decided a request). */
export async function adminEmail(
  commerce: Kysely<CommerceDatabase>,
  userId: string,
): Promise<string | undefined> {
  const user = await commerce.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
  return user?.email as string | undefined;
}
