import type { ApltDatabase, Kysely } from '@aplt/db';
import { inTransaction } from '../shared/in-transaction';
import { conflict, notFound, unprocessable } from '@aplt/http';
import type { Config } from '../config';
import { allocateNumber, provisionalNumber } from '../numbering/number.repository';
import { addDays, isoDate, today } from '../shared/context';
import {
  customerAddress,
  customerName,
  type CustomerRow,
  findCustomer,
  findDefaultBrandId,
} from '../shared/customer.repository';
import { zeroRating } from '../shared/vat';
import { computeTotals, quotationAmountLines, resolveLines, type ResolvedLine } from './pricing.service';
import { findOrderByQuotation } from '../orders/order.repository';
import { jsonObject } from '../shared/json';
import { pickDefined } from '../shared/values';
import * as repo from './quotation.repository';
import type { CreateQuotationInput, LineInput, UpdateQuotationInput } from './quotation.schemas';

export interface ActorMeta {
  actor: string | null;
}

async function customerOf(
  db: Kysely<ApltDatabase>,
  customerId: number | null | undefined,
): Promise<CustomerRow | null> {
  if (customerId == null) return null;
  const c = await findCustomer(db, customerId);
  if (!c) throw unprocessable(`customer ${customerId} does not exist`);
  return c;
}

/** Header fields copied from the customer unless the input names them. */
function customerFields(
  input: {
    customer_email?: string;
    customer_name?: string;
    customer_company?: string;
    billing_address?: unknown;
  },
  c: CustomerRow | null,
): Pick<
  repo.QuotationHeaderChanges,
  'customer_email' | 'customer_name' | 'customer_company' | 'billing_address'
> {
  return {
    customer_email: input.customer_email ?? c?.email ?? null,
    customer_name: input.customer_name ?? (c ? customerName(c) : null),
    customer_company: input.customer_company ?? c?.company ?? null,
    billing_address: JSON.stringify(input.billing_address ?? (c ? customerAddress(c) : null)),
  };
}

/** Creates a quotation with its lines and setup costs; the Q number is allocated in the same transaction. */
export async function createQuotation(
  db: Kysely<ApltDatabase>,
  config: Config,
  input: CreateQuotationInput,
  meta: ActorMeta & { defaultSource: string },
) {
  return inTransaction(db, async (trx) => {
    const customer = await customerOf(trx, input.customer_id);
    const date = input.quotation_date ?? today();
    const validUntil = input.valid_until ?? addDays(date, config.QUOTATION_VALIDITY_DAYS);
    if (validUntil < date) throw unprocessable('valid_until must not be before quotation_date');
    const lines = await resolveLines(trx, input.lines, date);
    const totals = await computeTotals(trx, config, quotationAmountLines(lines), {
      zeroRating: zeroRating(customer),
      shippingOverride: input.shipping_cost ?? null,
    });
    const { vat_summary: _vat, ...headerTotals } = totals;
    const header = await repo.insertQuotationHeader(trx, {
      quotation_number: provisionalNumber('Q'),
      customer_id: input.customer_id ?? null,
      brand_id: input.brand_id ?? customer?.brand_id ?? (await findDefaultBrandId(trx)) ?? null,
      source_code: input.source_code ?? meta.defaultSource,
      quotation_date: date,
      valid_until: validUntil,
      reference: input.reference ?? null,
      title: input.title ?? null,
      ...customerFields(input, customer),
      shipping_address: input.shipping_address ? JSON.stringify(input.shipping_address) : null,
      language: input.language ?? customer?.language ?? 'nl',
      ...headerTotals,
      terms: input.terms ?? null,
      notes: input.notes ?? null,
      internal_notes: input.internal_notes ?? null,
      metadata: JSON.stringify({
        ...(input.metadata ?? {}),
        ...(input.shipping_cost != null ? { shipping_cost_override: input.shipping_cost } : {}),
      }),
      created_by: meta.actor,
    });
    await repo.insertQuotationLines(trx, Number(header.id), lines);
    // Numbered last, so the counter row is locked only until the commit that follows.
    const number = await allocateNumber(trx, 'Q', Number(date.slice(0, 4)));
    await repo.updateQuotationHeader(trx, Number(header.id), { quotation_number: number });
    return Number(header.id);
  }).then((id) => loadQuotation(db, id));
}

/** A quotation with lines (each with setup_costs) and the VAT summary of its current totals. */
export async function loadQuotation(db: Kysely<ApltDatabase>, id: number) {
  const header = await repo.findQuotationHeader(db, id);
  if (!header) throw notFound(`Quotation ${id} not found`);
  const [withLines] = await attachLines(db, [header]);
  return withLines!;
}

/** A quotation for the admin's detail page: with its lines and the order it became, if any. */
export async function loadQuotationDetail(db: Kysely<ApltDatabase>, id: number) {
  const quotation = await loadQuotation(db, id);
  const order = await findOrderByQuotation(db, id);
  return { ...quotation, order: order ? { id: Number(order.id), order_number: order.order_number } : null };
}

export async function attachLines(db: Kysely<ApltDatabase>, headers: repo.QuotationHeader[]) {
  const lines = await repo.findQuotationLines(
    db,
    headers.map((h) => Number(h.id)),
  );
  const setups = await repo.findSetupCosts(
    db,
    lines.map((l) => l.id),
  );
  return headers.map((h) => ({
    ...normaliseQuotation(h),
    lines: lines
      .filter((l) => l.quotation_id === h.id)
      .map((l) => ({ ...l, setup_costs: setups.filter((s) => s.quotation_line_id === l.id) })),
  }));
}

export function normaliseQuotation<H extends Pick<repo.QuotationHeader, 'quotation_date' | 'valid_until'>>(
  h: H,
) {
  return { ...h, quotation_date: isoDate(h.quotation_date), valid_until: isoDate(h.valid_until) };
}

/** A page of quotations with their lines, and the number of all that match the filter. */
export async function listQuotations(db: Kysely<ApltDatabase>, filter: repo.QuotationFilter) {
  const { rows, count } = await repo.listQuotationHeaders(db, filter);
  return { data: await attachLines(db, rows), count };
}

function assertOpen(h: Pick<repo.QuotationHeader, 'status' | 'quotation_number'>) {
  if (h.status !== 'open')
    throw conflict(`Quotation ${h.quotation_number} is ${h.status}; only open quotations can change`, {
      status: h.status,
    });
}

/** Recomputes header totals from the stored lines (after any line change). */
export async function recalculateQuotation(db: Kysely<ApltDatabase>, config: Config, id: number) {
  const header = await repo.findQuotationHeader(db, id);
  if (!header) throw notFound(`Quotation ${id} not found`);
  const lines = await repo.findQuotationLines(db, [id]);
  const setups = await repo.findSetupCosts(
    db,
    lines.map((l) => l.id),
  );
  const amountLines = [
    ...lines.map((l) => ({
      line_type: l.line_type,
      line_total: l.line_total,
      vat_rate: l.vat_rate,
      quantity: l.quantity,
    })),
    ...setups.map((s) => ({
      line_type: 'setup',
      line_total: s.total,
      vat_rate: s.vat_rate,
      quantity: s.quantity,
    })),
  ];
  const customer = await customerOf(db, header.customer_id);
  const override = jsonObject(header.metadata).shipping_cost_override;
  const { vat_summary: _v, ...totals } = await computeTotals(db, config, amountLines, {
    zeroRating: zeroRating(customer),
    shippingOverride: typeof override === 'string' ? override : null,
  });
  await repo.updateQuotationHeader(db, id, totals);
}

export async function updateQuotation(
  db: Kysely<ApltDatabase>,
  config: Config,
  id: number,
  input: UpdateQuotationInput,
) {
  return inTransaction(db, async (trx) => {
    const header = await repo.findQuotationHeader(trx, id, true);
    if (!header) throw notFound(`Quotation ${id} not found`);
    assertOpen(header);
    const customer = input.customer_id !== undefined ? await customerOf(trx, input.customer_id) : null;
    const plain = [
      'brand_id',
      'source_code',
      'quotation_date',
      'valid_until',
      'reference',
      'title',
      'language',
      'terms',
      'notes',
      'internal_notes',
    ] as const satisfies ReadonlyArray<keyof repo.QuotationHeaderChanges>;
    const set: repo.QuotationHeaderChanges = pickDefined(input, plain);
    if (input.customer_id !== undefined) {
      set.customer_id = input.customer_id;
      Object.assign(set, customerFields(input, customer));
    } else {
      const copied = ['customer_email', 'customer_name', 'customer_company'] as const;
      Object.assign(
        set,
        pickDefined(input, copied satisfies ReadonlyArray<keyof repo.QuotationHeaderChanges>),
      );
      if (input.billing_address !== undefined) set.billing_address = JSON.stringify(input.billing_address);
    }
    if (input.shipping_address !== undefined) set.shipping_address = JSON.stringify(input.shipping_address);
    const metadata: Record<string, unknown> = { ...jsonObject(header.metadata), ...(input.metadata ?? {}) };
    if (input.shipping_cost !== undefined) metadata.shipping_cost_override = input.shipping_cost;
    set.metadata = JSON.stringify(metadata);
    const date = set.quotation_date ?? isoDate(header.quotation_date)!;
    const validUntil = set.valid_until ?? isoDate(header.valid_until)!;
    if (validUntil < date) throw unprocessable('valid_until must not be before quotation_date');
    await repo.updateQuotationHeader(trx, id, set);
    if (input.lines) {
      await repo.deleteQuotationLines(trx, id);
      await repo.insertQuotationLines(trx, id, await resolveLines(trx, input.lines, date));
    }
    await recalculateQuotation(trx, config, id);
    return loadQuotation(trx, id);
  });
}

/** Deleting is for open quotations never converted; accepted ones are part of a document chain. */
export async function removeQuotation(db: Kysely<ApltDatabase>, id: number) {
  await inTransaction(db, async (trx) => {
    const header = await repo.findQuotationHeader(trx, id, true);
    if (!header) throw notFound(`Quotation ${id} not found`);
    if (header.status === 'accepted')
      throw conflict(`Quotation ${header.quotation_number} was converted to an order and cannot be deleted`);
    await repo.deleteQuotation(trx, id);
  });
}

export async function addQuotationLine(
  db: Kysely<ApltDatabase>,
  config: Config,
  quotationId: number,
  input: LineInput,
) {
  return inTransaction(db, async (trx) => {
    const header = await repo.findQuotationHeader(trx, quotationId, true);
    if (!header) throw notFound(`Quotation ${quotationId} not found`);
    assertOpen(header);
    const [resolved] = await resolveLines(trx, [input], isoDate(header.quotation_date)!);
    const [row] = await repo.insertQuotationLines(
      trx,
      quotationId,
      [resolved as ResolvedLine],
      await repo.nextLineNo(trx, quotationId),
    );
    await recalculateQuotation(trx, config, quotationId);
    return row!;
  });
}

/** Changes what automation may change on a line: quantity, description, prices, discount. */
export async function updateQuotationLine(
  db: Kysely<ApltDatabase>,
  config: Config,
  lineId: number,
  patch: {
    quantity?: number;
    description?: string;
    unit_price?: string;
    print_unit_price?: string;
    discount_percent?: string;
  },
) {
  return inTransaction(db, async (trx) => {
    const line = await repo.findQuotationLine(trx, lineId);
    if (!line) throw notFound(`Quotation line ${lineId} not found`);
    const header = await repo.findQuotationHeader(trx, Number(line.quotation_id), true);
    assertOpen(header!);
    const merged: LineInput = {
      line_type: line.line_type,
      product_id: line.product_id == null ? undefined : Number(line.product_id),
      sku: line.sku ?? undefined,
      description: patch.description ?? line.description ?? undefined,
      quantity: patch.quantity ?? line.quantity,
      // A new quantity re-reads the tier price unless the caller sets a price.
      unit_price:
        patch.unit_price ??
        (patch.quantity !== undefined && line.product_id != null ? undefined : String(line.unit_price)),
      print_unit_price: patch.print_unit_price ?? String(line.print_unit_price),
      discount_percent: patch.discount_percent ?? String(line.discount_percent),
      vat_rate: String(line.vat_rate),
      setup_costs: [],
    };
    const [resolved] = await resolveLines(trx, [merged], isoDate(header!.quotation_date)!);
    const {
      setup_costs: _s,
      metadata: _m,
      technique_id: _t,
      technique_code: _tc,
      technique_name: _tn,
      print_position: _pp,
      print_area: _pa,
      print_colours: _pc,
      logo_transaction_id: _l,
      ...values
    } = resolved!;
    const row = await repo.updateQuotationLine(trx, lineId, values);
    await recalculateQuotation(trx, config, Number(line.quotation_id));
    return row!;
  });
}

export async function removeQuotationLine(db: Kysely<ApltDatabase>, config: Config, lineId: number) {
  return inTransaction(db, async (trx) => {
    const line = await repo.findQuotationLine(trx, lineId);
    if (!line) throw notFound(`Quotation line ${lineId} not found`);
    const header = await repo.findQuotationHeader(trx, Number(line.quotation_id), true);
    assertOpen(header!);
    await repo.deleteQuotationLine(trx, lineId);
    await recalculateQuotation(trx, config, Number(line.quotation_id));
    return line;
  });
}

/** Rejection by the customer (or staff): reason kept on the quotation. */
export async function rejectQuotation(db: Kysely<ApltDatabase>, id: number, reason: string) {
  return inTransaction(db, async (trx) => {
    const header = await repo.findQuotationHeader(trx, id, true);
    if (!header) throw notFound(`Quotation ${id} not found`);
    assertOpen(header);
    const row = await repo.updateQuotationHeader(trx, id, {
      status: 'rejected',
      rejection_reason: reason,
      rejected_at: new Date(),
    });
    return normaliseQuotation(row!);
  });
}

/** The expiry job: open quotations past valid_until become expired. */
export async function expireDueQuotations(db: Kysely<ApltDatabase>, asOf: string = today()) {
  return repo.expireQuotations(db, asOf);
}

/** The customer portal's view: quotations of the aplt customer or addressed to the e-mail. */
export async function customerQuotations(
  db: Kysely<ApltDatabase>,
  customerId: number | null,
  email: string,
  status?: string,
) {
  return attachLines(db, await repo.listQuotationsOfCustomer(db, customerId, email, status));
}

export async function findQuotation(db: Kysely<ApltDatabase>, id: number) {
  return repo.findQuotationHeader(db, id);
}
