import type { ApltDatabase, Kysely } from '@aplt/db';
import { conflict, notFound, unprocessable } from '@aplt/http';
import { insertRelation } from '../chain/relation.repository';
import { post } from '../ledger/posting.service';
import { allocateNumber, provisionalNumber } from '../numbering/number.repository';
import { insertUnappliedCredit } from '../payments/payment.repository';
import { lineAmount } from '../quotations/pricing.service';
import { today } from '../shared/context';
import { D, Decimal, money, sum } from '../shared/money';
import { vatSummary } from '../shared/vat';
import * as repo from './invoice.repository';
import { loadInvoice, refreshStoredStatus } from './invoice.service';
import { copiedLineFields } from '../shared/line-copy';

export interface CreditNoteInput {
  invoice_id: number;
  /** Omitted: credit everything still creditable (a full credit note). */
  lines?: Array<{ invoice_line_id: number; quantity: number }>;
  reason: string;
  issue_date?: string;
}

/**
 * A credit note derived from an invoice, full or partial by quantity per invoice line. What can
 * be credited is capped per line (quantity - credited_quantity, amount - credited amount) and per
 * VAT category, so the credited total can never pass the invoice total. Credit beyond what is
 * still outstanding (an already paid invoice) becomes customer credit, never lost.
 */
export async function createCreditNote(
  db: Kysely<ApltDatabase>,
  input: CreditNoteInput,
  actor: string | null,
) {
  return db
    .transaction()
    .execute(async (trx) => {
      const inv = await repo.findInvoiceHeader(trx, input.invoice_id, true);
      if (!inv) throw notFound(`Invoice ${input.invoice_id} not found`);
      if (inv.document_type !== 'invoice')
        throw unprocessable(`${inv.invoice_number} is a ${inv.document_type}; only invoices can be credited`);
      const invLines = await repo.findInvoiceLines(trx, [inv.id]);
      const creditedAmt = await repo.creditedAmounts(
        trx,
        invLines.map((l) => l.id),
      );
      const wanted = new Map((input.lines ?? []).map((l) => [String(l.invoice_line_id), l.quantity]));
      for (const id of wanted.keys())
        if (!invLines.some((l) => String(l.id) === id))
          throw unprocessable(`invoice line ${id} is not on ${inv.invoice_number}`);
      const drafts = [];
      for (const l of invLines) {
        const remainingQty = l.quantity - l.credited_quantity;
        const qty = input.lines ? (wanted.get(String(l.id)) ?? 0) : remainingQty;
        if (qty <= 0) continue;
        if (qty > remainingQty) {
          throw conflict(
            `invoice line ${l.id}: ${qty} requested but only ${remainingQty} can still be credited`,
            { invoice_line_id: Number(l.id), creditable_quantity: remainingQty },
          );
        }
        const remainingAmt = D(l.line_total).minus(creditedAmt.get(String(l.id)) ?? 0);
        const amount =
          qty === remainingQty
            ? remainingAmt
            : Decimal.min(
                remainingAmt,
                lineAmount(qty, l.unit_price, l.print_unit_price, l.discount_percent),
              );
        drafts.push({
          credited_line_id: l.id,
          ...copiedLineFields(l, qty),
          vat_category: l.vat_category,
          line_total: money(amount),
        });
      }
      if (!drafts.length) throw conflict(`${inv.invoice_number} has nothing left to credit`);

      // VAT per category, rounded once; the last credit of a category takes exactly what is left.
      const invVat = await repo.findVatSummaries(trx, [inv.id]);
      const prior = await repo.creditedVat(trx, inv.id);
      const summary = vatSummary(drafts).map((r) => {
        const key = (x: { vat_category: string; vat_rate: string }) =>
          `${x.vat_category}|${D(x.vat_rate).toFixed(2)}`;
        const orig = invVat.find((v) => key(v) === key(r));
        const done = prior.find((p) => key(p) === key(r));
        const leftTaxable = D(orig?.taxable_amount).minus(done?.taxable ?? 0);
        const leftVat = D(orig?.vat_amount).minus(done?.vat ?? 0);
        const vat = D(r.taxable_amount).eq(leftTaxable) ? leftVat : Decimal.min(leftVat, r.vat_amount);
        return { ...r, vat_amount: money(vat) };
      });
      const net = sum(summary.map((r) => r.taxable_amount));
      const vat = sum(summary.map((r) => r.vat_amount));
      const total = net.plus(vat);
      if (D(inv.credited_total).plus(total).gt(inv.total))
        throw conflict(`Crediting ${money(total)} would exceed ${inv.invoice_number}'s total`);

      const issueDate = input.issue_date ?? today();
      const cn = await repo.insertInvoiceHeader(trx, {
        invoice_number: provisionalNumber('C'),
        document_type: 'credit_note',
        credited_invoice_id: inv.id,
        order_id: inv.order_id,
        customer_id: inv.customer_id,
        brand_id: inv.brand_id,
        issue_date: issueDate,
        due_date: issueDate,
        payment_term_days: 0,
        reference: inv.invoice_number,
        customer_email: inv.customer_email,
        customer_name: inv.customer_name,
        customer_company: inv.customer_company,
        customer_vat_number: inv.customer_vat_number,
        customer_country: inv.customer_country,
        billing_address: inv.billing_address == null ? null : JSON.stringify(inv.billing_address),
        language: inv.language,
        currency: inv.currency,
        subtotal: money(net),
        vat_total: money(vat),
        total: money(total),
        reverse_charge: inv.reverse_charge,
        vat_note: inv.vat_note,
        credit_reason: input.reason,
        created_by: actor,
      });
      await repo.insertInvoiceLines(
        trx,
        drafts.map((d, i) => ({ ...d, invoice_id: cn.id, line_no: i + 1 })),
      );
      await repo.insertVatSummary(
        trx,
        summary.map((r) => ({ ...r, invoice_id: cn.id })),
      );
      for (const d of drafts) await repo.addCreditedQuantity(trx, d.credited_line_id, d.quantity);

      // The number is taken late so the counter row is locked only for the last statements.
      const number = await allocateNumber(trx, 'C', Number(issueDate.slice(0, 4)));
      await repo.updateInvoiceHeader(trx, cn.id, { invoice_number: number });
      const outstandingBefore = Decimal.max(0, D(inv.total).minus(inv.credited_total).minus(inv.paid_total));
      const toReceivables = Decimal.min(total, outstandingBefore);
      const toCustomerCredit = total.minus(toReceivables);
      await repo.updateInvoiceHeader(trx, inv.id, {
        credited_total: money(D(inv.credited_total).plus(total)),
      });
      if (toCustomerCredit.gt(0)) {
        await insertUnappliedCredit(trx, {
          customer_id: inv.customer_id,
          source_type: 'credit_note',
          credit_note_id: cn.id,
          amount: money(toCustomerCredit),
          notes: `Credit note ${number} on paid ${inv.invoice_number}`,
        });
      }
      await post(
        trx,
        {
          entry_date: issueDate,
          description: `Creditnota ${number} op ${inv.invoice_number}`,
          source_type: 'credit_note',
          source_id: cn.id,
          created_by: actor,
        },
        [
          { account: 'revenue', side: 'debit', amount: net },
          { account: 'vat_payable', side: 'debit', amount: vat },
          { account: 'receivables', side: 'credit', amount: toReceivables },
          { account: 'customer_credit', side: 'credit', amount: toCustomerCredit },
        ],
        inv.customer_id,
      );
      await insertRelation(trx, {
        source_type: 'invoice',
        source_id: inv.id,
        target_type: 'credit_note',
        target_id: cn.id,
        relation_type: 'credited',
        created_by: actor,
      });
      await refreshStoredStatus(trx, inv.id);
      return cn.id;
    })
    .then((id) => loadInvoice(db, id));
}
