import type { Metadata } from 'next';
import Link from 'next/link';
import { getInvoice } from '@lib/data/invoices';
import { money } from '@lib/i18n';
import { DocumentLines } from '@modules/account/components/document-lines';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, requireFeature, routeId } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Invoice' };

export default async function InvoicePage({ params }: { params: Promise<{ lang: string; id: string }> }) {
  const lang = await pageLang(params);
  await requireFeature('invoices');
  const id = routeId((await params).id);
  const tx = at(lang);
  const inv = await load(lang, () => getInvoice(id), 'document');
  const base = `/${lang}/account/invoices`;
  const back = (
    <Link href={base} className="back">
      ← {tx.invoices}
    </Link>
  );
  if (inv.error !== undefined)
    return (
      <>
        {back}
        <p className="error" role="alert">
          {inv.error}
        </p>
      </>
    );
  const invoice = inv.data;
  return (
    <>
      {back}
      <h1>
        {invoice.document_type === 'credit_note' ? `${tx.creditNote} ` : ''}
        {invoice.invoice_number}{' '}
        <StatusBadge status={invoice.status} label={label(tx.invoiceStatus, invoice.status)} />
      </h1>
      <dl className="facts">
        <dt>{tx.date}</dt>
        <dd>{formatDate(lang, invoice.issue_date)}</dd>
        <dt>{tx.dueDate}</dt>
        <dd>{formatDate(lang, invoice.due_date)}</dd>
        <dt>{tx.balance}</dt>
        <dd>{invoice.balance ? money(invoice.balance, lang) : '—'}</dd>
      </dl>
      <p className="actions-row">
        <a href={`${base}/${invoice.id}/pdf`} download className="button">
          {tx.downloadPdf}
        </a>
        {invoice.document_type !== 'credit_note' && (
          <Link href={`/${lang}/account/returns/new?invoice=${invoice.id}`}>{tx.fileReturn}</Link>
        )}
      </p>
      <DocumentLines lang={lang} doc={invoice} />
    </>
  );
}
