import type { Metadata } from 'next';
import Link from 'next/link';
import { listQuotes, type QuotationStatus, quotationStatuses } from '@lib/data/quotes';
import { money } from '@lib/i18n';
import { ExpiryBanner } from '@modules/account/components/expiry-banner';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, requireFeature } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Quotations' };

export default async function QuotationsPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ status?: string }>;
}) {
  const lang = await pageLang(params);
  await requireFeature('quotations');
  const tx = at(lang);
  const raw = (await searchParams).status;
  const status = quotationStatuses.includes(raw as QuotationStatus) ? (raw as QuotationStatus) : undefined;
  const quotes = await load(lang, () => listQuotes(status));
  const base = `/${lang}/account/quotations`;
  return (
    <>
      <h1>{tx.quotations}</h1>
      <nav className="filters" aria-label={tx.status}>
        <Link href={base} className={!status ? 'active' : undefined}>
          {tx.all}
        </Link>
        {quotationStatuses.map((s) => (
          <Link key={s} href={`${base}?status=${s}`} className={status === s ? 'active' : undefined}>
            {label(tx.quotationStatus, s)}
          </Link>
        ))}
      </nav>
      {quotes.error !== undefined ? (
        <p className="error" role="alert">
          {quotes.error}
        </p>
      ) : (
        <>
          <ExpiryBanner lang={lang} quotes={quotes.data.data} />
          {quotes.data.data.length === 0 ? (
            <p className="muted">{tx.none}</p>
          ) : (
            <table className="doc-table" data-testid="quotation-list">
              <thead>
                <tr>
                  <th>{tx.number}</th>
                  <th>{tx.description}</th>
                  <th>{tx.date}</th>
                  <th>{tx.validUntil}</th>
                  <th>{tx.status}</th>
                  <th className="num">{tx.total}</th>
                </tr>
              </thead>
              <tbody>
                {quotes.data.data.map((q) => (
                  <tr key={q.id} className={q.expiring_soon ? 'expiring' : undefined}>
                    <td>
                      <Link href={`${base}/${q.id}`}>{q.quotation_number}</Link>
                    </td>
                    <td>{q.title ?? q.reference ?? ''}</td>
                    <td>{formatDate(lang, q.quotation_date)}</td>
                    <td>{formatDate(lang, q.valid_until)}</td>
                    <td>
                      <StatusBadge status={q.status} label={label(tx.quotationStatus, q.status)} />
                    </td>
                    <td className="num">{q.total ? money(q.total, lang) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}
