import type { Executor } from '../db';
import { randomUUID } from 'node:crypto';
import { type PortalDatabase, sql, type Transaction } from '@aplt/db';

type Db = Executor;

export const categories = ['bug', 'feature', 'question', 'other'] as const;
export const ticketPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export const ticketStatuses = ['open', 'in_progress', 'waiting', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export interface TicketRow {
  id: number;
  ticket_number: string;
  user_id: number;
  user_email: string;
  user_name: string;
  tenant_id: string | null;
  subject: string;
  description: string;
  category: (typeof categories)[number];
  priority: (typeof ticketPriorities)[number];
  status: (typeof ticketStatuses)[number];
  dev_project_id: number | null;
  dev_project_branch: string | null;
  dev_project_code: string | null;
  dev_project_url: string | null;
  created_at: Date;
  updated_at: Date;
}

const columns = [
  't.id',
  't.ticket_number',
  't.user_id',
  'u.email as user_email',
  'u.name as user_name',
  't.tenant_id',
  't.subject',
  't.description',
  't.category',
  't.priority',
  't.status',
  't.dev_project_id',
  't.dev_project_branch',
  't.dev_project_code',
  't.dev_project_url',
  't.created_at',
  't.updated_at',
] as const;

function base(db: Db) {
  return db.selectFrom('tickets as t').innerJoin('users as u', 'u.id', 't.user_id').select(columns);
}

/** Numbered TCK-000042 from the id, set in the same transaction as the insert. */
export async function insertTicket(
  trx: Transaction<PortalDatabase>,
  values: {
    user_id: number;
    tenant_id: string | null;
    subject: string;
    description: string;
    category: (typeof categories)[number];
    priority: (typeof ticketPriorities)[number];
  },
): Promise<number> {
  const res = await trx
    .insertInto('tickets')
    .values({ ...values, ticket_number: `new-${randomUUID().slice(0, 28)}` })
    .executeTakeFirstOrThrow();
  const id = Number(res.insertId);
  await trx
    .updateTable('tickets')
    .set({ ticket_number: `TCK-${String(id).padStart(6, '0')}` })
    .where('id', '=', id)
    .execute();
  return id;
}

export async function findTicket(db: Db, id: number, ownerId?: number): Promise<TicketRow | undefined> {
  let q = base(db).where('t.id', '=', id);
  if (ownerId !== undefined) q = q.where('t.user_id', '=', ownerId);
  return (await q.executeTakeFirst()) as TicketRow | undefined;
}

export async function listTickets(
  db: Db,
  filter: {
    ownerId?: number;
    status?: (typeof ticketStatuses)[number] | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ rows: TicketRow[]; count: number }> {
  let q = base(db);
  let c = db.selectFrom('tickets as t').select(sql<number>`count(*)`.as('n'));
  if (filter.ownerId !== undefined) {
    q = q.where('t.user_id', '=', filter.ownerId);
    c = c.where('t.user_id', '=', filter.ownerId);
  }
  if (filter.status) {
    q = q.where('t.status', '=', filter.status);
    c = c.where('t.status', '=', filter.status);
  }
  const [rows, count] = await Promise.all([
    q.orderBy('t.id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
    c.executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as TicketRow[], count: Number(count.n) };
}

export async function updateTicket(db: Db, id: number, patch: Record<string, unknown>): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('tickets').set(patch).where('id', '=', id).execute();
}

/** Links only a ticket that has no project yet; false when another request linked it first. */
export async function linkDevProject(
  db: Db,
  id: number,
  link: {
    dev_project_id: number;
    dev_project_branch: string;
    dev_project_code: string;
    dev_project_url: string;
  },
): Promise<boolean> {
  const res = await db
    .updateTable('tickets')
    .set(link)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('dev_project_id', 'is', null), eb('dev_project_id', '=', link.dev_project_id)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export interface MessageRow {
  id: number;
  ticket_id: number;
  user_id: number;
  user_name: string;
  user_role: string;
  body: string;
  created_at: Date;
}

export async function listMessages(db: Db, ticketId: number): Promise<MessageRow[]> {
  return (await db
    .selectFrom('ticket_messages as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.id',
      'm.ticket_id',
      'm.user_id',
      'u.name as user_name',
      'u.role as user_role',
      'm.body',
      'm.created_at',
    ])
    .where('m.ticket_id', '=', ticketId)
    .orderBy('m.id')
    .execute()) as MessageRow[];
}

export async function insertMessage(db: Db, values: { ticket_id: number; user_id: number; body: string }) {
  const res = await db.insertInto('ticket_messages').values(values).executeTakeFirstOrThrow();
  return Number(res.insertId);
}
