import { randomUUID } from 'node:crypto';
import type { ApltDatabase, Kysely } from '@aplt/db';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { changeOrderStatus, type OrderStatus, updateOrder } from '../orders/order.service';
import type { OrderHeader } from '../orders/order.repository';
import { inTransaction } from '../shared/in-transaction';
import { jsonObject } from '../shared/json';
import { PartnerCallError, PartnerClient } from './partner-client';
import type { PartnerConfig } from './partner.config';
import * as repo from './partner.repository';
import type { PartnerListQuery, PartnerState } from './partner.schemas';
import { credentialsOf, isActive, readPartnerSettings } from './partner-settings.service';

/*
 * Sending confirmed orders to the partner and reading their state back (issue #16).
 *
 * The partner API of spec 1 does not show its order-creation endpoint. We use
 * `POST /api/v1/admin/transaction/` (the collection whose members spec 1 reads at
 * `/api/v1/admin/transaction/{processId}/{docId}`), answered with `{process_id, document_id,
 * status}`, and send our key per order in the `Idempotency-Key` header. Organisations are found
 * by `GET /api/v1/admin/business-contacts/organisations?external_reference=<ours>` and created
 * with a POST to the same path. See docs/decisions.md.
 */

export interface PartnerDeps {
  config: PartnerConfig;
  /** The service secret the stored partner password is sealed with. */
  masterSecret: string;
}

export type SendResult =
  | { result: 'sent'; process_id: string; document_id: string }
  | { result: 'failed'; error: string; status: number | null }
  | { result: 'skipped'; reason: string };

const TRANSACTIONS = '/api/v1/admin/transaction/';
const ORGANISATIONS = '/api/v1/admin/business-contacts/organisations';

function clientFor(
  deps: PartnerDeps,
  creds: ConstructorParameters<typeof PartnerClient>[0],
  signal?: AbortSignal,
) {
  return new PartnerClient(creds, {
    timeoutMs: deps.config.PARTNER_TIMEOUT_MS,
    retryDelaysMs: deps.config.PARTNER_RETRY_DELAYS_MS,
    maxReauth: deps.config.PARTNER_MAX_REAUTH,
    signal,
  });
}

const idString = (v: unknown): string | null =>
  (typeof v === 'string' && v.length > 0 && v.length <= 200) || (typeof v === 'number' && Number.isFinite(v))
    ? String(v)
    : null;

/** The partner's state word in ours; unknown words keep the state we have. */
export function partnerStateOf(word: unknown): PartnerState | null {
  switch (typeof word === 'string' ? word.toLowerCase() : '') {
    case 'open':
    case 'new':
    case 'pending':
    case 'received':
    case 'created':
      return 'pushed';
    case 'confirmed':
    case 'accepted':
    case 'processing':
    case 'in_production':
      return 'confirmed';
    case 'shipped':
    case 'sent':
    case 'dispatched':
      return 'shipped';
    case 'delivered':
      return 'delivered';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    default:
      return null;
  }
}

/** A tracking link we pass on to the customer: an absolute http(s) address, else nothing. */
export function trackingUrlOf(answer: Record<string, unknown>): string | null {
  const shipment = answer.shipment as Record<string, unknown> | undefined;
  const raw = answer.tracking_url ?? answer.trackingUrl ?? shipment?.tracking_url;
  if (typeof raw !== 'string' || raw.length > 2000) return null;
  try {
    const u = new URL(raw.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

function orderPayload(
  order: OrderHeader,
  lines: Awaited<ReturnType<typeof repo.findPartnerLines>>,
  organisationId: string,
) {
  return {
    type: 'order',
    reference: order.order_number,
    external_reference: order.order_number,
    organisation_id: organisationId,
    order_date: order.order_date,
    expected_delivery_date: order.expected_delivery_date ?? null,
    currency: order.currency,
    language: order.language,
    delivery_address: order.shipping_address ?? order.billing_address ?? null,
    contact: { name: order.customer_name, company: order.customer_company, email: order.customer_email },
    notes: order.notes ?? null,
    lines: lines.map((l) => ({
      line_no: l.line_no,
      sku: l.variant_supplier_sku ?? l.supplier_sku ?? l.sku ?? l.product_sku,
      our_sku: l.sku ?? l.product_sku,
      supplier_code: l.supplier_code,
      description: l.description,
      quantity: l.quantity,
      unit_price: String(l.unit_price),
      print:
        l.technique_code || l.print_position
          ? {
              technique: l.technique_code,
              technique_name: l.technique_name,
              position: l.print_position,
              area: l.print_area,
              colours: l.print_colours,
              logo_transaction_id: l.logo_transaction_id,
            }
          : null,
    })),
  };
}

/** The partner's organisation for the order's customer: found by our reference, else created. */
async function organisationFor(
  client: PartnerClient,
  order: OrderHeader,
  customer: Awaited<ReturnType<typeof repo.findCustomer>> | null,
): Promise<string> {
  const reference = customer
    ? `customer-${customer.customer_number ?? customer.id}`
    : `email-${String(order.customer_email ?? order.order_number).toLowerCase()}`;
  const found = await client.get<unknown>(
    `${ORGANISATIONS}?external_reference=${encodeURIComponent(reference)}`,
  );
  const list = Array.isArray(found) ? found : ((found as { results?: unknown[] } | null)?.results ?? []);
  const match = (list as Array<Record<string, unknown>>).find(
    (o) => o && (o.external_reference === undefined || o.external_reference === reference),
  );
  const existing = match ? idString(match.id) : null;
  if (existing) return existing;
  const created = await client.post<Record<string, unknown>>(ORGANISATIONS, {
    name:
      customer?.company ?? order.customer_company ?? order.customer_name ?? order.customer_email ?? reference,
    email: customer?.email ?? order.customer_email ?? null,
    vat_number: customer?.vat_number ?? null,
    external_reference: reference,
    address: order.billing_address ?? null,
  });
  const id = idString(created?.id);
  if (!id) throw new PartnerCallError('partner created an organisation without an id', null);
  return id;
}

/**
 * Sends one order: claims its row (only a queued row, or a claim past its lease), then logs in,
 * finds or creates the organisation, creates the order under the row's idempotency key and
 * records the partner's ids. A second job for the same order, at the same time or later, finds
 * nothing to claim and sends nothing.
 */
export async function sendOrder(
  db: Kysely<ApltDatabase>,
  tenantId: string,
  orderId: number,
  deps: PartnerDeps,
  signal?: AbortSignal,
): Promise<SendResult> {
  const settings = await readPartnerSettings(db);
  if (!isActive(settings)) return { result: 'skipped', reason: 'partner sync is off for this tenant' };
  const claimToken = randomUUID();
  const row = await repo.claimForSend(db, orderId, claimToken, deps.config.PARTNER_SEND_LEASE_MS);
  if (!row) {
    const current = await repo.findSync(db, orderId);
    return { result: 'skipped', reason: current ? `order is ${current.status}` : 'order is not queued' };
  }
  const fail = async (error: string, status: number | null, response?: string | null) => {
    await repo.finishClaim(db, orderId, claimToken, {
      status: 'failed',
      error_message: error.slice(0, 2000),
      last_http_status: status,
      ...(response ? { partner_response: JSON.stringify({ error_excerpt: response }) } : {}),
    });
    return { result: 'failed' as const, error, status };
  };
  try {
    const creds = credentialsOf(settings, deps.masterSecret, tenantId);
    if ('problem' in creds) return await fail(creds.problem, null);
    const order = await repo.findOrder(db, orderId);
    if (!order) return await fail('order no longer exists', null);
    const lines = await repo.findPartnerLines(db, orderId, settings.supplierCodes);
    if (!lines.length) return await fail('order has no partner lines under the current settings', null);
    const customer = order.customer_id ? await repo.findCustomer(db, Number(order.customer_id)) : null;
    const client = clientFor(deps, creds, signal);
    let organisationId: string | null = row.partner_organisation_id;
    if (!organisationId) {
      organisationId = await organisationFor(client, order, customer);
      await repo.updateSync(db, orderId, { partner_organisation_id: organisationId });
    }
    const payload = orderPayload(order, lines, organisationId);
    const answer = await client.post<Record<string, unknown>>(TRANSACTIONS, payload, {
      'idempotency-key': row.idempotency_key,
    });
    const processId = idString(answer?.process_id ?? answer?.processId);
    const documentId = idString(answer?.document_id ?? answer?.documentId ?? answer?.doc_id);
    if (!processId || !documentId)
      return await fail(
        'partner answered without a process id and document id',
        null,
        JSON.stringify(answer).slice(0, 500),
      );
    const state = partnerStateOf(answer.status);
    await repo.finishClaim(db, orderId, claimToken, {
      status: state && state !== 'shipped' && state !== 'delivered' ? state : 'pushed',
      partner_process_id: processId,
      partner_document_id: documentId,
      partner_response: JSON.stringify(answer),
      order_data: JSON.stringify(payload),
      sent_at: new Date(),
      error_message: null,
      last_http_status: null,
    });
    return { result: 'sent', process_id: processId, document_id: documentId };
  } catch (err) {
    if (err instanceof PartnerCallError) return fail(err.message, err.status, err.responseExcerpt);
    if (signal?.aborted) {
      await fail(`stopped: ${(signal.reason as Error | undefined)?.message ?? 'aborted'}`, null).catch(
        () => {},
      );
    }
    // Anything else (the database): the claim stays until its lease ends, then the sweep retries.
    throw err;
  }
}

/** The order's moves to reach the partner's `shipped` or `delivered` from where it is. */
function movesTo(from: OrderStatus, target: 'shipped' | 'delivered'): OrderStatus[] {
  const path: OrderStatus[] = ['confirmed', 'shipped', 'delivered'];
  const order: OrderStatus[] = ['pending', 'confirmed', 'shipped', 'delivered'];
  const at = order.indexOf(from);
  if (at < 0) return []; // cancelled: staff decide, the partner does not reopen it
  return path.filter((s) => order.indexOf(s) > at && order.indexOf(s) <= order.indexOf(target));
}

/**
 * Reads one sent order from the partner and applies what changed: the sync row's state and
 * tracking link, and for shipped (or delivered) the order itself with its tracking URL, which
 * the customer's order view shows.
 */
export async function pollOrderStatus(
  db: Kysely<ApltDatabase>,
  tenantId: string,
  orderId: number,
  deps: PartnerDeps,
  signal?: AbortSignal,
) {
  const settings = await readPartnerSettings(db);
  if (!isActive(settings)) return { result: 'skipped', reason: 'partner sync is off for this tenant' };
  const row = await repo.findSync(db, orderId);
  if (!row || !row.partner_process_id || !row.partner_document_id)
    return { result: 'skipped', reason: 'order was not sent' };
  const creds = credentialsOf(settings, deps.masterSecret, tenantId);
  if ('problem' in creds) {
    await repo.updateSync(db, orderId, { last_polled_at: new Date(), error_message: creds.problem });
    return { result: 'failed', error: creds.problem };
  }
  let answer: Record<string, unknown>;
  try {
    answer = await clientFor(deps, creds, signal).get<Record<string, unknown>>(
      `${TRANSACTIONS}${encodeURIComponent(row.partner_process_id)}/${encodeURIComponent(row.partner_document_id)}`,
    );
  } catch (err) {
    if (!(err instanceof PartnerCallError)) throw err;
    // A failed read changes no state; the next sweep reads again.
    await repo.updateSync(db, orderId, {
      last_polled_at: new Date(),
      error_message: `status read: ${err.message}`.slice(0, 2000),
      last_http_status: err.status,
    });
    return { result: 'failed', error: err.message };
  }
  const state = partnerStateOf(answer?.status);
  const tracking = trackingUrlOf(answer ?? {});
  return inTransaction(db, async (trx) => {
    const current = await repo.findSync(trx, orderId, true);
    if (!current) return { result: 'skipped', reason: 'sync row gone' };
    const next = state ?? current.status;
    await repo.updateSync(trx, orderId, {
      status: next,
      tracking_url: tracking ?? current.tracking_url,
      shipped_at:
        (next === 'shipped' || next === 'delivered') && !current.shipped_at ? new Date() : current.shipped_at,
      last_polled_at: new Date(),
      partner_response: JSON.stringify(answer),
      error_message: null,
      last_http_status: null,
    });
    if (next === 'shipped' || next === 'delivered') {
      const order = await repo.findOrder(trx, orderId, true);
      if (order) {
        for (const step of movesTo(order.status as OrderStatus, next))
          await changeOrderStatus(
            trx,
            orderId,
            step,
            step === 'shipped' && tracking ? { tracking_url: tracking } : {},
          );
        const after = await repo.findOrder(trx, orderId);
        if (
          tracking &&
          after &&
          after.status !== 'cancelled' &&
          jsonObject(after.metadata).tracking_url !== tracking
        )
          await updateOrder(trx, orderId, { tracking_url: tracking });
      }
    }
    return { result: 'read', status: next, tracking_url: tracking };
  });
}

/** Orders of one tenant waiting to be sent, and those whose status read is due. */
export async function dueWork(db: Kysely<ApltDatabase>, config: PartnerConfig) {
  const settings = await readPartnerSettings(db);
  if (!isActive(settings)) return { sends: [], polls: [] };
  const [sends, polls] = await Promise.all([
    repo.findDueSends(db, config.PARTNER_SEND_LEASE_MS),
    repo.findDuePolls(db, config.PARTNER_POLL_EVERY_MS),
  ]);
  return { sends, polls };
}

/** An order's partner state for the admin, with how many of its lines are partner lines. */
export async function orderPartnerState(db: Kysely<ApltDatabase>, orderId: number) {
  const order = await repo.findOrder(db, orderId);
  if (!order) throw notFound(`Order ${orderId} not found`);
  const settings = await readPartnerSettings(db);
  const lines = await repo.findPartnerLines(db, orderId, settings.supplierCodes);
  return {
    order_id: orderId,
    order_number: order.order_number,
    partner_lines: lines.length,
    sync: await repo.findSyncView(db, orderId),
  };
}

export async function listPartnerStates(db: Kysely<ApltDatabase>, f: PartnerListQuery) {
  const { rows, count } = await repo.listSyncViews(db, f);
  return { data: rows, count, limit: f.limit, offset: f.offset };
}

/**
 * Puts an order back in the queue: a failed one, or with `force` one in any state but `sending`
 * (the partner still sees one order: the key stays the same). An order that was never queued is
 * queued when it has partner lines. Answers the state after the change.
 */
export async function requestResend(db: Kysely<ApltDatabase>, orderId: number, force: boolean) {
  await inTransaction(db, async (trx) => {
    const order = await repo.findOrder(trx, orderId, true);
    if (!order) throw notFound(`Order ${orderId} not found`);
    const settings = await readPartnerSettings(trx);
    if (!isActive(settings)) throw conflict('The partner sync is off for this tenant');
    const row = await repo.findSync(trx, orderId, true);
    if (!row) {
      if (order.status === 'pending' && !order.quotation_id)
        throw conflict(`Order ${order.order_number} is not confirmed yet`, { order_status: order.status });
      if (order.status === 'cancelled') throw conflict(`Order ${order.order_number} is cancelled`);
      const lines = await repo.findPartnerLines(trx, orderId, settings.supplierCodes);
      if (!lines.length) throw unprocessable(`Order ${order.order_number} has no partner lines`);
      await repo.insertQueuedSync(trx, {
        id: orderId,
        order_number: order.order_number,
        quotation_id: order.quotation_id == null ? null : Number(order.quotation_id),
        customer_name: order.customer_company ?? order.customer_name ?? null,
        customer_email: order.customer_email ?? null,
      });
      return;
    }
    if (row.status === 'queued') return;
    if (row.status === 'sending')
      throw conflict(`Order ${order.order_number} is being sent right now`, { status: row.status });
    if (row.status !== 'failed' && !force)
      throw conflict(
        `Order ${order.order_number} was sent already (${row.status}); resend with force to send it again`,
        {
          status: row.status,
        },
      );
    await repo.updateSync(trx, orderId, { status: 'queued', error_message: null, last_http_status: null });
  });
  return orderPartnerState(db, orderId);
}
