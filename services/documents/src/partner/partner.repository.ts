import { type ApltDatabase, type Kysely, type Selectable, sql } from '@aplt/db';
import type { Updateable } from 'kysely';
import type { PartnerListQuery, PartnerState } from './partner.schemas';

type Syncs = ApltDatabase['partner_order_sync'];
export type SyncChanges = Updateable<Syncs>;
/** The status column's CHECK allows only our states. */
type SyncState = { status: PartnerState };

/** The columns an admin sees of a sync row, with its order's number and status. */
const viewColumns = [
  's.order_id',
  'o.order_number',
  'o.status as order_status',
  's.status',
  's.partner_process_id',
  's.partner_document_id',
  's.partner_organisation_id',
  's.tracking_url',
  's.attempts',
  's.last_http_status',
  's.error_message',
  's.sent_at',
  's.shipped_at',
  's.last_polled_at',
  's.created_at',
  's.updated_at',
] as const;

const toView = <R extends { order_id: number | null }>(r: R) => ({ ...r, order_id: Number(r.order_id) });

export async function findSyncView(db: Kysely<ApltDatabase>, orderId: number) {
  const row = await db
    .selectFrom('partner_order_sync as s')
    .innerJoin('aplt_order_headers as o', 'o.id', 's.order_id')
    .select(viewColumns)
    .where('s.order_id', '=', orderId)
    .$narrowType<SyncState>()
    .executeTakeFirst();
  return row ? toView(row) : null;
}

export async function listSyncViews(db: Kysely<ApltDatabase>, f: PartnerListQuery) {
  let q = db.selectFrom('partner_order_sync as s').innerJoin('aplt_order_headers as o', 'o.id', 's.order_id');
  if (f.status) q = q.where('s.status', '=', f.status);
  const [rows, total] = await Promise.all([
    q
      .select(viewColumns)
      .orderBy('s.updated_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .$narrowType<SyncState>()
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toView), count: Number(total.n) };
}

export async function findOrder(db: Kysely<ApltDatabase>, orderId: number, forUpdate = false) {
  let q = db.selectFrom('aplt_order_headers').selectAll().where('id', '=', orderId);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The order's product lines whose product comes from one of `supplierCodes`. */
export async function findPartnerLines(
  db: Kysely<ApltDatabase>,
  orderId: number,
  supplierCodes: readonly string[],
) {
  if (!supplierCodes.length) return [];
  return db
    .selectFrom('aplt_order_lines as l')
    .innerJoin('aplt_products as p', 'p.id', 'l.product_id')
    .leftJoin('aplt_product_variants as v', 'v.id', 'l.variant_id')
    .select([
      'l.id',
      'l.line_no',
      'l.sku',
      'p.sku as product_sku',
      'p.supplier_code',
      'p.supplier_sku',
      'v.supplier_sku as variant_supplier_sku',
      'l.description',
      'l.quantity',
      'l.unit_price',
      'l.technique_code',
      'l.technique_name',
      'l.print_position',
      'l.print_area',
      'l.print_colours',
      'l.logo_transaction_id',
    ])
    .where('l.order_id', '=', orderId)
    .where('l.line_type', '=', 'product')
    .where('p.supplier_code', 'in', [...supplierCodes])
    .orderBy('l.line_no')
    .execute();
}

export async function findCustomer(db: Kysely<ApltDatabase>, customerId: number) {
  return db.selectFrom('aplt_customers').selectAll().where('id', '=', customerId).executeTakeFirst();
}

/** The outbox row of a confirmed order; a second call for the same order changes nothing. */
export async function insertQueuedSync(
  db: Kysely<ApltDatabase>,
  order: {
    id: number;
    order_number: string;
    quotation_id: number | null;
    customer_name: string | null;
    customer_email: string | null;
  },
): Promise<boolean> {
  const res = await sql`
    INSERT INTO partner_order_sync
      (source_reference, order_id, quotation_id, customer_name, customer_email, status, synced_via, idempotency_key)
    VALUES (${order.order_number}, ${order.id}, ${order.quotation_id}, ${order.customer_name},
            ${order.customer_email}, 'queued', 'worker', 'aplt-order-' || gen_random_uuid())
    ON CONFLICT (order_id) WHERE order_id IS NOT NULL DO NOTHING
  `.execute(db);
  return Number(res.numAffectedRows ?? 0) > 0;
}

/**
 * Claims the order's row for one send: only a queued row, or one whose claim is older than the
 * lease (its worker died). One UPDATE, so of two workers at once exactly one gets the row.
 */
export async function claimForSend(
  db: Kysely<ApltDatabase>,
  orderId: number,
  claimToken: string,
  leaseMs: number,
) {
  const res = await sql<Selectable<Syncs>>`
    UPDATE partner_order_sync
       SET status = 'sending', claim_token = ${claimToken}, claimed_at = now(), attempts = attempts + 1
     WHERE order_id = ${orderId}
       AND (status = 'queued'
            OR (status = 'sending' AND claimed_at < now() - make_interval(secs => ${leaseMs / 1000})))
    RETURNING *
  `.execute(db);
  return res.rows[0] ?? null;
}

/** Ends a claim; only the claim's owner may (a worker overtaken after its lease writes nothing). */
export async function finishClaim(
  db: Kysely<ApltDatabase>,
  orderId: number,
  claimToken: string,
  values: SyncChanges,
): Promise<boolean> {
  const res = await db
    .updateTable('partner_order_sync')
    .set({ ...values, claim_token: null, claimed_at: null })
    .where('order_id', '=', orderId)
    .where('claim_token', '=', claimToken)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function findSync(db: Kysely<ApltDatabase>, orderId: number, forUpdate = false) {
  let q = db
    .selectFrom('partner_order_sync')
    .selectAll()
    .where('order_id', '=', orderId)
    .$narrowType<SyncState>();
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function updateSync(db: Kysely<ApltDatabase>, orderId: number, values: SyncChanges) {
  await db.updateTable('partner_order_sync').set(values).where('order_id', '=', orderId).execute();
}

/** An order with due work and the moment its row last changed (so a queued job is not queued twice). */
export interface DueRow {
  orderId: number;
  stamp: number;
}

/** Orders waiting for a send: queued, or claimed longer ago than the lease. */
export async function findDueSends(
  db: Kysely<ApltDatabase>,
  leaseMs: number,
  limit = 200,
): Promise<DueRow[]> {
  const res = await sql<{ order_id: number; stamp: Date }>`
    SELECT order_id, updated_at AS stamp FROM partner_order_sync
     WHERE order_id IS NOT NULL
       AND (status = 'queued'
            OR (status = 'sending' AND claimed_at < now() - make_interval(secs => ${leaseMs / 1000})))
     ORDER BY updated_at LIMIT ${limit}
  `.execute(db);
  return res.rows.map((r) => ({ orderId: Number(r.order_id), stamp: r.stamp ? r.stamp.getTime() : 0 }));
}

/** Sent orders the partner has not finished with, read (or sent) longer than `everyMs` ago. */
export async function findDuePolls(
  db: Kysely<ApltDatabase>,
  everyMs: number,
  limit = 200,
): Promise<DueRow[]> {
  const states: PartnerState[] = ['pushed', 'confirmed'];
  const res = await sql<{ order_id: number; stamp: Date | null }>`
    SELECT order_id, last_polled_at AS stamp FROM partner_order_sync
     WHERE order_id IS NOT NULL
       AND status IN (${sql.join(states)})
       AND partner_process_id IS NOT NULL AND partner_document_id IS NOT NULL
       AND COALESCE(last_polled_at, sent_at, updated_at) < now() - make_interval(secs => ${everyMs / 1000})
     ORDER BY COALESCE(last_polled_at, sent_at, updated_at) LIMIT ${limit}
  `.execute(db);
  return res.rows.map((r) => ({ orderId: Number(r.order_id), stamp: r.stamp ? r.stamp.getTime() : 0 }));
}
