import type { ApltDatabase, Kysely } from '@aplt/db';
import { inTransaction } from '../shared/in-transaction';
import { conflict, notFound, unprocessable } from '@aplt/http';
import type { Config } from '../config';
import { deleteRelationsTo, insertRelation } from '../chain/relation.repository';
import { queueForPartner } from '../partner/partner-outbox';
import { allocateNumber } from '../numbering/number.repository';
import {
  computeTotals,
  quotationAmountLines,
  resolveLines,
  type ResolvedSetupCost,
  STANDARD_VAT_RATE,
} from '../quotations/pricing.service';
import * as quotations from '../quotations/quotation.repository';
import type { LineInput } from '../quotations/quotation.schemas';
import { isoDate, today } from '../shared/context';
import {
  customerAddress,
  customerName,
  findCustomer,
  findDefaultBrandId,
} from '../shared/customer.repository';
import { jsonObject } from '../shared/json';
import { D } from '../shared/money';
import { pickDefined } from '../shared/values';
import { zeroRating } from '../shared/vat';
import * as repo from './order.repository';
import { type OrderFilter, type OrderStatus, orderTransitions } from './order.schemas';

export { orderStatuses, orderTransitions, type OrderStatus } from './order.schemas';

const timestampColumn: Partial<
  Record<OrderStatus, 'confirmed_at' | 'shipped_at' | 'delivered_at' | 'cancelled_at'>
> = {
  confirmed: 'confirmed_at',
  shipped: 'shipped_at',
  delivered: 'delivered_at',
  cancelled: 'cancelled_at',
};

/**
 * A line to order: a resolved input line, or a stored quotation line (its id becomes the
 * order line's quotation_line_id); either way its fields are order-line columns.
 */
type SourceLine = Omit<repo.OrderLineValues, 'order_id' | 'quotation_line_id' | 'line_no' | 'metadata'> & {
  id?: number | null;
  metadata?: unknown;
  setup_costs: ResolvedSetupCost[];
};

/** Order lines from quotation lines; each setup cost becomes a 'setup' line, shipping a 'shipping' line. */
function orderLinesFrom(lines: SourceLine[], shippingCost: string) {
  const rows: Array<Omit<repo.OrderLineValues, 'order_id'>> = [];
  for (const l of lines) {
    const { setup_costs, id, ...line } = l;
    rows.push({ ...line, quotation_line_id: id ?? null, metadata: JSON.stringify(line.metadata ?? {}) });
    for (const s of setup_costs) {
      rows.push({
        quotation_line_id: id ?? null,
        line_type: 'setup',
        description: s.description,
        quantity: s.quantity,
        unit_price: s.unit_cost,
        technique_id: s.technique_id,
        vat_rate: s.vat_rate,
        line_total: s.total,
        metadata: JSON.stringify({
          opstartkosten_id: s.opstartkosten_id,
          setup_for_line: line.sku ?? line.description,
        }),
      });
    }
  }
  if (D(shippingCost).gt(0)) {
    rows.push({
      line_type: 'shipping',
      description: 'Verzendkosten',
      quantity: 1,
      unit_price: shippingCost,
      vat_rate: STANDARD_VAT_RATE,
      line_total: shippingCost,
      metadata: '{}',
    });
  }
  return rows.map((r, i) => ({ ...r, line_no: i + 1 }));
}

/**
 * Converts an open quotation into an order in one transaction: lines and setup costs copied, the
 * quotation accepted, a 'converted' relation written. The quotation row lock plus the UNIQUE
 * order quotation_id make a second conversion a 409, even when two arrive at once.
 */
export async function convertQuotation(
  db: Kysely<ApltDatabase>,
  quotationId: number,
  meta: { actor: string | null; requireValid?: boolean },
) {
  return inTransaction(db, async (trx) => {
    const q = await quotations.findQuotationHeader(trx, quotationId, true);
    if (!q) throw notFound(`Quotation ${quotationId} not found`);
    const existing = await repo.findOrderByQuotation(trx, quotationId);
    if (existing) {
      throw conflict(
        `Quotation ${q.quotation_number} was already converted to order ${existing.order_number}`,
        {
          order_id: Number(existing.id),
          order_number: existing.order_number,
        },
      );
    }
    if (q.status !== 'open')
      throw conflict(
        `Quotation ${q.quotation_number} is ${q.status}; only open quotations can be converted`,
        { status: q.status },
      );
    if (meta.requireValid && isoDate(q.valid_until)! < today())
      throw conflict(`Quotation ${q.quotation_number} is no longer valid`, {
        valid_until: isoDate(q.valid_until),
      });
    const qLines = await quotations.findQuotationLines(trx, [quotationId]);
    if (!qLines.some((l) => l.line_type !== 'text'))
      throw unprocessable(`Quotation ${q.quotation_number} has no lines to order`);
    const setups = await quotations.findSetupCosts(
      trx,
      qLines.map((l) => l.id),
    );
    const lines = qLines.map((l) => {
      const {
        quotation_id: _q,
        line_no: _n,
        created_at: _c,
        updated_at: _u,
        variant_id,
        print_position_id,
        vat_code_id,
        ...rest
      } = l;
      return {
        ...rest,
        variant_id,
        print_position_id,
        vat_code_id,
        setup_costs: setups
          .filter((s) => s.quotation_line_id === l.id)
          .map((s) => ({
            opstartkosten_id: s.opstartkosten_id,
            technique_id: s.technique_id,
            description: s.description,
            quantity: s.quantity,
            unit_cost: String(s.unit_cost),
            total: String(s.total),
            vat_rate: String(s.vat_rate),
          })),
      };
    });
    const date = today();
    const number = await allocateNumber(trx, 'O', Number(date.slice(0, 4)));
    const order = await repo.insertOrderHeader(trx, {
      order_number: number,
      quotation_id: quotationId,
      customer_id: q.customer_id,
      brand_id: q.brand_id,
      source_code: q.source_code,
      order_date: date,
      reference: q.reference,
      customer_email: q.customer_email,
      customer_name: q.customer_name,
      customer_company: q.customer_company,
      billing_address: q.billing_address == null ? null : JSON.stringify(q.billing_address),
      shipping_address: q.shipping_address == null ? null : JSON.stringify(q.shipping_address),
      language: q.language,
      currency: q.currency,
      subtotal: q.subtotal,
      setup_cost_total: q.setup_cost_total,
      discount_total: q.discount_total,
      shipping_cost: q.shipping_cost,
      vat_total: q.vat_total,
      total: q.total,
      notes: q.notes,
      created_by: meta.actor,
    });
    await repo.insertOrderLines(
      trx,
      orderLinesFrom(lines, String(q.shipping_cost)).map((r) => ({ ...r, order_id: order.id })),
    );
    await quotations.updateQuotationHeader(trx, quotationId, {
      status: 'accepted',
      accepted_at: new Date(),
    });
    await insertRelation(trx, {
      source_type: 'quotation',
      source_id: quotationId,
      target_type: 'order',
      target_id: order.id,
      relation_type: 'converted',
      created_by: meta.actor,
    });
    // Accepted: an order with partner lines is queued for the partner in this transaction.
    await queueForPartner(trx, Number(order.id));
    return Number(order.id);
  }).then((id) => loadOrder(db, id));
}

export interface CreateOrderInput {
  customer_id?: number;
  reference?: string;
  notes?: string;
  expected_delivery_date?: string;
  shipping_cost?: string;
  source_code?: string;
  lines: LineInput[];
}

/** A direct order without a quotation (e.g. a repeat order). */
export async function createOrder(
  db: Kysely<ApltDatabase>,
  config: Config,
  input: CreateOrderInput,
  meta: { actor: string | null },
) {
  return inTransaction(db, async (trx) => {
    const customer = input.customer_id ? await findCustomer(trx, input.customer_id) : null;
    if (input.customer_id && !customer) throw unprocessable(`customer ${input.customer_id} does not exist`);
    const date = today();
    const lines = await resolveLines(trx, input.lines, date);
    if (!lines.length) throw unprocessable('An order needs at least one line');
    const { vat_summary: _v, ...totals } = await computeTotals(trx, config, quotationAmountLines(lines), {
      zeroRating: zeroRating(customer),
      shippingOverride: input.shipping_cost ?? null,
    });
    const number = await allocateNumber(trx, 'O', Number(date.slice(0, 4)));
    const order = await repo.insertOrderHeader(trx, {
      order_number: number,
      customer_id: input.customer_id ?? null,
      brand_id: customer?.brand_id ?? (await findDefaultBrandId(trx)) ?? null,
      // A direct order is made by staff, like a staff quotation (spec 1: manual).
      source_code: input.source_code ?? 'manual',
      order_date: date,
      expected_delivery_date: input.expected_delivery_date ?? null,
      reference: input.reference ?? null,
      customer_email: customer?.email ?? null,
      customer_name: customer ? customerName(customer) : null,
      customer_company: customer?.company ?? null,
      billing_address: customer ? JSON.stringify(customerAddress(customer)) : null,
      language: customer?.language ?? 'nl',
      ...totals,
      notes: input.notes ?? null,
      created_by: meta.actor,
    });
    await repo.insertOrderLines(
      trx,
      orderLinesFrom(lines, totals.shipping_cost).map((r) => ({ ...r, order_id: order.id })),
    );
    return loadOrder(trx, Number(order.id));
  });
}

export function normaliseOrder(h: repo.OrderHeader) {
  return {
    ...h,
    order_date: isoDate(h.order_date),
    expected_delivery_date: isoDate(h.expected_delivery_date),
    tracking_url: jsonObject(h.metadata).tracking_url ?? null,
    /** The statuses this order may move to next (the panel offers exactly these). */
    allowed_transitions: orderTransitions[h.status as OrderStatus] ?? [],
  };
}

export async function loadOrder(db: Kysely<ApltDatabase>, id: number) {
  const header = await repo.findOrderHeader(db, id);
  if (!header) throw notFound(`Order ${id} not found`);
  const lines = await repo.findOrderLines(db, [id]);
  return { ...normaliseOrder(header), lines };
}

/** A page of orders with their lines, and the number of all that match the filter. */
export async function listOrders(db: Kysely<ApltDatabase>, f: OrderFilter) {
  const { rows, count } = await repo.listOrderHeaders(db, f);
  const lines = await repo.findOrderLines(
    db,
    rows.map((h) => Number(h.id)),
  );
  return {
    data: rows.map((h) => ({ ...normaliseOrder(h), lines: lines.filter((l) => l.order_id === h.id) })),
    count,
  };
}

/** Moves an order one step; anything else is a 409 naming the allowed moves. */
export async function changeOrderStatus(
  db: Kysely<ApltDatabase>,
  id: number,
  status: OrderStatus,
  extra: { tracking_url?: string; expected_delivery_date?: string },
) {
  return inTransaction(db, async (trx) => {
    const order = await repo.findOrderHeader(trx, id, true);
    if (!order) throw notFound(`Order ${id} not found`);
    const from = order.status as OrderStatus;
    const allowed = orderTransitions[from];
    if (!allowed.includes(status)) {
      throw conflict(`Order ${order.order_number} cannot move from ${from} to ${status}`, {
        status: from,
        requested: status,
        allowed,
      });
    }
    const set: repo.OrderHeaderChanges = { status };
    const col = timestampColumn[status];
    if (col) set[col] = new Date();
    if (extra.expected_delivery_date) set.expected_delivery_date = extra.expected_delivery_date;
    if (extra.tracking_url)
      set.metadata = JSON.stringify({ ...jsonObject(order.metadata), tracking_url: extra.tracking_url });
    await repo.updateOrderHeader(trx, id, set);
    // A direct order confirmed: queued for the partner when it has partner lines (once per order).
    if (status === 'confirmed') await queueForPartner(trx, id);
    return loadOrder(trx, id);
  });
}

export async function updateOrder(
  db: Kysely<ApltDatabase>,
  id: number,
  patch: {
    expected_delivery_date?: string | null;
    tracking_url?: string | null;
    reference?: string;
    notes?: string;
    internal_notes?: string;
    metadata?: Record<string, unknown>;
  },
) {
  return inTransaction(db, async (trx) => {
    const order = await repo.findOrderHeader(trx, id, true);
    if (!order) throw notFound(`Order ${id} not found`);
    const plain = ['expected_delivery_date', 'reference', 'notes', 'internal_notes'] as const;
    const set: repo.OrderHeaderChanges = pickDefined(
      patch,
      plain satisfies ReadonlyArray<keyof repo.OrderHeaderChanges>,
    );
    const metadata: Record<string, unknown> = { ...jsonObject(order.metadata), ...(patch.metadata ?? {}) };
    if (patch.tracking_url !== undefined) metadata.tracking_url = patch.tracking_url;
    set.metadata = JSON.stringify(metadata);
    await repo.updateOrderHeader(trx, id, set);
    return loadOrder(trx, id);
  });
}

/** Only a pending order that was never invoiced can be deleted; its quotation opens again. */
export async function removeOrder(db: Kysely<ApltDatabase>, id: number) {
  await inTransaction(db, async (trx) => {
    const order = await repo.findOrderHeader(trx, id, true);
    if (!order) throw notFound(`Order ${id} not found`);
    if (order.status !== 'pending')
      throw conflict(`Order ${order.order_number} is ${order.status}; only pending orders can be deleted`);
    if ((await repo.countInvoicesOfOrder(trx, id)) > 0)
      throw conflict(`Order ${order.order_number} has invoices`);
    await deleteRelationsTo(trx, 'order', id);
    await repo.deleteOrder(trx, id);
    if (order.quotation_id)
      await quotations.updateQuotationHeader(trx, Number(order.quotation_id), {
        status: 'open',
        accepted_at: null,
      });
  });
}
