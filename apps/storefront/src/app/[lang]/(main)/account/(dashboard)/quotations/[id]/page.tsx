import type { Metadata } from 'next';
import Link from 'next/link';
import { getQuote } from '@lib/data/quotes';
import { acceptQuoteAction, rejectQuoteAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { DocumentLines } from '@modules/account/components/document-lines';
import { ExpiryBanner } from '@modules/account/components/expiry-banner';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, requireFeature, routeId } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Quotation' };

/** One quotation: lines and totals; an open one can be accepted (it becomes an order) or rejected with a reason. */
export default async function QuotationPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string; id: string }>;
  searchParams: Promise<{ accepted?: string; rejected?: string }>;
}) {
  const lang = await pageLang(params);
  await requireFeature('quotations');
  const id = routeId((await params).id);
  const tx = at(lang);
  const q = await load(lang, () => getQuote(id), 'document');
  const back = (
    <Link href={`/${lang}/account/quotations`} className="back">
      ← {tx.quotations}
    </Link>
  );
  if (q.error !== undefined)
    return (
      <>
        {back}
        <p className="error" role="alert">
          {q.error}
        </p>
      </>
    );
  const quote = q.data;
  const sp = await searchParams;
  const notice =
    // Only a real order number is echoed: a crafted link cannot put other words in the page.
    sp.accepted && quote.status === 'accepted' && /^[A-Z]{1,4}-\d{4}-\d{1,8}$/.test(sp.accepted)
      ? tx.accepted(sp.accepted)
      : sp.rejected && quote.status === 'rejected'
        ? tx.rejected
        : null;
  return (
    <>
      {back}
      {notice && (
        <p className="notice" role="status" data-testid="quote-notice">
          {notice}
        </p>
      )}
      <h1>
        {quote.quotation_number}{' '}
        <StatusBadge status={quote.status} label={label(tx.quotationStatus, quote.status)} />
      </h1>
      <ExpiryBanner lang={lang} quotes={[quote]} />
      <dl className="facts">
        {quote.title && (
          <>
            <dt>{tx.description}</dt>
            <dd>{quote.title}</dd>
          </>
        )}
        <dt>{tx.date}</dt>
        <dd>{formatDate(lang, quote.quotation_date)}</dd>
        <dt>{tx.validUntil}</dt>
        <dd>{formatDate(lang, quote.valid_until)}</dd>
        {quote.rejection_reason && (
          <>
            <dt>{tx.rejectionReason}</dt>
            <dd>{quote.rejection_reason}</dd>
          </>
        )}
      </dl>
      <DocumentLines lang={lang} doc={quote} quotation />
      {quote.status === 'open' && (
        <div className="quote-actions" data-testid="quote-actions">
          <ActionForm
            action={acceptQuoteAction}
            lang={lang}
            submitLabel={tx.accept}
            className="account-form inline"
            testId="accept-form"
            hideOnOk
          >
            <input type="hidden" name="id" value={quote.id} />
          </ActionForm>
          <details className="reject">
            <summary>{tx.reject}</summary>
            <ActionForm
              action={rejectQuoteAction}
              lang={lang}
              submitLabel={tx.reject}
              danger
              testId="reject-form"
              hideOnOk
            >
              <input type="hidden" name="id" value={quote.id} />
              <label className="field">
                <span>{tx.rejectReason}</span>
                <textarea name="reason" required maxLength={2000} rows={3} />
              </label>
            </ActionForm>
          </details>
        </div>
      )}
    </>
  );
}
