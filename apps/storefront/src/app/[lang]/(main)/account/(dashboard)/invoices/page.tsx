import type { Metadata } from 'next';
import Link from 'next/link';
import { PAGE_SIZE } from '@lib/data/documents';
import { type InvoiceStatus, invoiceStatuses, listInvoices } from '@lib/data/invoices';
import { money } from '@lib/i18n';
import { Pager } from '@modules/account/components/pager';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, pageNumber, requireFeature } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Invoices' };

/** My invoices (and credit notes), filtered by status and year, each with its PDF. */
export default async function InvoicesPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ status?: string; year?: string; page?: string }>;
}) {
  const lang = await pageLang(params);
  await requireFeature('invoices');
  const tx = at(lang);
  const sp = await searchParams;
  const status = invoiceStatuses.includes(sp.status as InvoiceStatus)
    ? (sp.status as InvoiceStatus)
    : undefined;
  const yearNo = Number(sp.year);
  const year = Number.isInteger(yearNo) && yearNo >= 2000 && yearNo <= 9999 ? yearNo : undefined;
  const page = pageNumber(sp.page);
  const invoices = await load(lang, () => listInvoices(page, { status, year }));
  const base = `/${lang}/account/invoices`;
  const href = (p: number) =>
    `${base}?${new URLSearchParams({
      ...(status ? { status } : {}),
      ...(year ? { year: String(year) } : {}),
      page: String(p),
    })}`;
  const thisYear = new Date().getUTCFullYear();
  const years = Array.from({ length: 6 }, (_, i) => thisYear - i);
  return (
    <>
      <h1>{tx.invoices}</h1>
      <form method="get" action={base} className="filter-form" data-testid="invoice-filter">
        <label>
          <span>{tx.status}</span>
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{tx.all}</option>
            {invoiceStatuses.map((s) => (
              <option key={s} value={s}>
                {label(tx.invoiceStatus, s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{tx.year}</span>
          <select name="year" defaultValue={year ? String(year) : ''}>
            <option value="">{tx.all}</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{tx.filter}</button>
      </form>
      {invoices.error !== undefined ? (
        <p className="error" role="alert">
          {invoices.error}
        </p>
      ) : invoices.data.data.length === 0 ? (
        <p className="muted">{tx.none}</p>
      ) : (
        <>
          <table className="doc-table" data-testid="invoice-list">
            <thead>
              <tr>
                <th>{tx.number}</th>
                <th>{tx.date}</th>
                <th>{tx.dueDate}</th>
                <th>{tx.status}</th>
                <th className="num">{tx.total}</th>
                <th className="num">{tx.balance}</th>
                <th>PDF</th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.data.map((i) => (
                <tr key={i.id} data-invoice={i.invoice_number}>
                  <td>
                    <Link href={`${base}/${i.id}`}>{i.invoice_number}</Link>
                    {i.document_type === 'credit_note' ? (
                      <span className="muted small"> · {tx.creditNote}</span>
                    ) : null}
                  </td>
                  <td>{formatDate(lang, i.issue_date)}</td>
                  <td>{formatDate(lang, i.due_date)}</td>
                  <td>
                    <StatusBadge status={i.status} label={label(tx.invoiceStatus, i.status)} />
                  </td>
                  <td className="num">{i.total ? money(i.total, lang) : '—'}</td>
                  <td className="num">{i.balance ? money(i.balance, lang) : '—'}</td>
                  <td>
                    <a href={`${base}/${i.id}/pdf`} download data-testid="invoice-pdf">
                      {tx.downloadPdf}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} count={invoices.data.count} size={PAGE_SIZE} href={href} texts={tx} />
        </>
      )}
    </>
  );
}
