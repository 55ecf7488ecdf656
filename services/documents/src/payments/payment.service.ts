import type { ApltDatabase, Kysely } from '@aplt/db';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { insertRelation } from '../chain/relation.repository';
import * as invoices from '../invoices/invoice.repository';
import { invoiceState, refreshStoredStatus } from '../invoices/invoice.service';
import { post } from '../ledger/posting.service';
import { allocateNumber } from '../numbering/number.repository';
import { isoDate, today } from '../shared/context';
import { findCustomer } from '../shared/customer.repository';
import { D, Decimal, money, sum } from '../shared/money';
import * as repo from './payment.repository';
import type { PaymentFilter } from './payment.schemas';

export interface PaymentInput {
  customer_id: number;
  amount: string;
  payment_date?: string;
  method?: string;
  reference?: string;
  bank_account?: string;
  notes?: string;
  allocations?: Array<{ invoice_id: number; amount: string }>;
}

/** Locks the invoices (in id order, so concurrent allocations cannot deadlock) and checks each can take its amount. */
async function lockAllocatable(
  trx: Kysely<ApltDatabase>,
  customerId: number,
  allocations: Array<{ invoice_id: number; amount: string }>,
) {
  const ids = [...new Set(allocations.map((a) => a.invoice_id))].sort((a, b) => a - b);
  if (ids.length !== allocations.length) throw unprocessable('Each invoice may appear once in allocations');
  const locked = new Map<number, invoices.InvoiceHeader>();
  for (const id of ids) {
    const h = await invoices.findInvoiceHeader(trx, id, true);
    if (!h) throw unprocessable(`invoice ${id} does not exist`);
    if (h.document_type !== 'invoice')
      throw unprocessable(`${h.invoice_number} is a ${h.document_type}; only invoices take payments`);
    if (String(h.customer_id) !== String(customerId))
      throw unprocessable(`${h.invoice_number} belongs to another customer`);
    locked.set(id, h);
  }
  for (const a of allocations) {
    const h = locked.get(a.invoice_id)!;
    const balance = invoiceState(h).balance;
    if (D(a.amount).gt(balance)) {
      throw conflict(
        `Allocating ${money(a.amount)} to ${h.invoice_number} exceeds its open balance ${balance}`,
        { invoice_id: a.invoice_id, balance },
      );
    }
  }
  return locked;
}

/**
 * Registers a payment (B number) and allocates it across invoices. Allocations may not exceed
 * the payment nor any invoice's open balance; what is not allocated stays on the customer as
 * unapplied credit. Journal: debit bank, credit receivables (allocated) and customer credit (rest).
 */
export async function registerPayment(db: Kysely<ApltDatabase>, input: PaymentInput, actor: string | null) {
  return db
    .transaction()
    .execute(async (trx) => {
      const customer = await findCustomer(trx, input.customer_id);
      if (!customer) throw unprocessable(`customer ${input.customer_id} does not exist`);
      const amount = D(input.amount);
      const allocations = (input.allocations ?? []).map((a) => ({ ...a, amount: money(a.amount) }));
      for (const a of allocations)
        if (D(a.amount).lte(0)) throw unprocessable('Allocation amounts must be greater than 0');
      const allocated = sum(allocations.map((a) => a.amount));
      if (allocated.gt(amount))
        throw unprocessable(
          `Allocations (${money(allocated)}) exceed the payment amount (${money(amount)})`,
          {
            allocated: money(allocated),
            amount: money(amount),
          },
        );
      await lockAllocatable(trx, customer.id, allocations);
      const date = input.payment_date ?? today();
      const number = await allocateNumber(trx, 'B', Number(date.slice(0, 4)));
      const payment = await repo.insertPayment(trx, {
        payment_number: number,
        customer_id: customer.id,
        payment_date: date,
        amount: money(amount),
        allocated_total: money(allocated),
        method: input.method ?? 'bank_transfer',
        reference: input.reference ?? null,
        bank_account: input.bank_account ?? null,
        notes: input.notes ?? null,
        created_by: actor,
      });
      for (const a of allocations) {
        await repo.insertAllocation(trx, {
          payment_id: payment.id,
          invoice_id: a.invoice_id,
          amount: a.amount,
          created_by: actor,
        });
        await repo.addPaidTotal(trx, a.invoice_id, a.amount);
        await refreshStoredStatus(trx, a.invoice_id);
        await insertRelation(trx, {
          source_type: 'invoice',
          source_id: a.invoice_id,
          target_type: 'payment',
          target_id: payment.id,
          relation_type: 'allocated',
          created_by: actor,
          metadata: { amount: a.amount },
        });
      }
      const rest = amount.minus(allocated);
      if (rest.gt(0)) {
        await repo.insertUnappliedCredit(trx, {
          customer_id: customer.id,
          source_type: 'payment',
          payment_id: payment.id,
          amount: money(rest),
          notes: `Unallocated part of ${number}`,
        });
      }
      await post(
        trx,
        {
          entry_date: date,
          description: `Betaling ${number}`,
          source_type: 'payment',
          source_id: payment.id,
          created_by: actor,
        },
        [
          { account: 'bank', side: 'debit', amount },
          { account: 'receivables', side: 'credit', amount: allocated },
          { account: 'customer_credit', side: 'credit', amount: rest },
        ],
        customer.id,
      );
      return payment.id;
    })
    .then((id) => loadPayment(db, id));
}

/**
 * Spends a customer's unapplied credit (overpayments, credit on paid invoices) on an invoice,
 * oldest credit first, up to the requested amount or the invoice's balance.
 */
export async function allocateCredit(
  db: Kysely<ApltDatabase>,
  input: { invoice_id: number; amount?: string },
  actor: string | null,
) {
  return db.transaction().execute(async (trx) => {
    const inv = await invoices.findInvoiceHeader(trx, input.invoice_id, true);
    if (!inv) throw notFound(`Invoice ${input.invoice_id} not found`);
    if (inv.document_type !== 'invoice')
      throw unprocessable(`${inv.invoice_number} is a ${inv.document_type}`);
    const balance = D(invoiceState(inv).balance);
    const wanted = input.amount === undefined ? balance : D(input.amount);
    if (wanted.gt(balance))
      throw conflict(
        `Allocating ${money(wanted)} exceeds ${inv.invoice_number}'s open balance ${money(balance)}`,
        { balance: money(balance) },
      );
    const credits = await repo.openCreditsForUpdate(trx, inv.customer_id);
    const available = sum(credits.map((c) => c.remaining_amount));
    if (wanted.gt(available))
      throw conflict(`The customer has ${money(available)} credit, ${money(wanted)} requested`, {
        available: money(available),
      });
    if (wanted.lte(0)) throw conflict(`Nothing to allocate to ${inv.invoice_number}`);
    let left = wanted;
    const used = [];
    for (const c of credits) {
      if (left.lte(0)) break;
      const take = Decimal.min(left, c.remaining_amount);
      await repo.insertAllocation(trx, {
        unapplied_credit_id: c.id,
        invoice_id: inv.id,
        amount: money(take),
        created_by: actor,
      });
      await repo.setCreditRemaining(trx, c.id, money(D(c.remaining_amount).minus(take)));
      if (c.payment_id) {
        await insertRelation(trx, {
          source_type: 'invoice',
          source_id: inv.id,
          target_type: 'payment',
          target_id: c.payment_id,
          relation_type: 'allocated',
          created_by: actor,
          metadata: { amount: money(take), via: 'customer_credit' },
        });
      }
      used.push({ unapplied_credit_id: c.id, amount: money(take) });
      left = left.minus(take);
    }
    await repo.addPaidTotal(trx, inv.id, money(wanted));
    await refreshStoredStatus(trx, inv.id);
    await post(
      trx,
      {
        entry_date: today(),
        description: `Verrekening tegoed met ${inv.invoice_number}`,
        source_type: 'allocation',
        source_id: inv.id,
        created_by: actor,
      },
      [
        { account: 'customer_credit', side: 'debit', amount: wanted },
        { account: 'receivables', side: 'credit', amount: wanted },
      ],
      inv.customer_id,
    );
    return { invoice_id: Number(inv.id), allocated: money(wanted), credits: used };
  });
}

export function normalisePayment<P extends { payment_date: string }>(p: P) {
  return { ...p, payment_date: isoDate(p.payment_date) };
}

export async function loadPayment(db: Kysely<ApltDatabase>, id: number) {
  const p = await repo.findPayment(db, id);
  if (!p) throw notFound(`Payment ${id} not found`);
  const [allocations, credit, customerName] = await Promise.all([
    repo.allocationsOfPayments(db, [id]),
    repo.creditOfPayment(db, id),
    repo.customerNameOf(db, p.customer_id),
  ]);
  return {
    ...normalisePayment(p),
    customer_name: customerName,
    allocations,
    unapplied_credit: credit ?? null,
  };
}

/** A page of payments with their allocations, and the number of all that match the filter. */
export async function listPayments(db: Kysely<ApltDatabase>, f: PaymentFilter) {
  const { rows, count } = await repo.listPayments(db, f);
  const allocations = await repo.allocationsOfPayments(
    db,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r) => ({
      ...normalisePayment(r),
      allocations: allocations.filter((a) => a.payment_id === r.id),
    })),
    count,
  };
}

export async function customerCredit(db: Kysely<ApltDatabase>, customerId: number) {
  const credits = await repo.creditsOfCustomer(db, customerId);
  return { customer_id: customerId, available: money(sum(credits.map((c) => c.remaining_amount))), credits };
}
