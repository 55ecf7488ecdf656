import type { Metadata } from 'next';
import Link from 'next/link';
import { displayName, retrieveCustomer } from '@lib/data/customer';
import { tenantFeatures } from '@lib/data/features';
import { listInvoices } from '@lib/data/invoices';
import { listOrders } from '@lib/data/orders';
import { listQuotes } from '@lib/data/quotes';
import { money } from '@lib/i18n';
import { ExpiryBanner } from '@modules/account/components/expiry-banner';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Account' };

/** The overview: expiring quotations first, then what is open, per feature the tenant has. */
export default async function AccountOverview({ params }: { params: Promise<{ lang: string }> }) {
  const lang = await pageLang(params);
  const tx = at(lang);
  const base = `/${lang}/account`;
  const [customer, features] = await Promise.all([retrieveCustomer(), tenantFeatures()]);
  const none = Promise.resolve(undefined);
  const [quotes, orders, invoices] = await Promise.all([
    features.hasFeature('quotations') ? load(lang, () => listQuotes('open')) : none,
    features.hasFeature('orders') ? load(lang, () => listOrders(1)) : none,
    features.hasFeature('invoices') ? load(lang, () => listInvoices(1, { status: 'open' })) : none,
  ]);
  return (
    <>
      <h1>{tx.welcome(customer ? displayName(customer) : '')}</h1>
      {quotes?.data && <ExpiryBanner lang={lang} quotes={quotes.data.data} />}
      <div className="tiles">
        {quotes && (
          <section className="tile" data-testid="tile-quotations">
            <h2>{tx.quotations}</h2>
            {quotes.error !== undefined ? (
              <p className="error">{quotes.error}</p>
            ) : (
              <p>{tx.openQuotations(quotes.data.count)}</p>
            )}
            <Link href={`${base}/quotations`}>{tx.viewAll}</Link>
          </section>
        )}
        {invoices && (
          <section className="tile" data-testid="tile-invoices">
            <h2>{tx.invoices}</h2>
            {invoices.error !== undefined ? (
              <p className="error">{invoices.error}</p>
            ) : (
              <p>{tx.openInvoices(invoices.data.count)}</p>
            )}
            <Link href={`${base}/invoices`}>{tx.viewAll}</Link>
          </section>
        )}
      </div>
      {orders && (
        <section data-testid="recent-orders">
          <h2>{tx.recentOrders}</h2>
          {orders.error !== undefined ? (
            <p className="error">{orders.error}</p>
          ) : orders.data.data.length === 0 ? (
            <p className="muted">{tx.none}</p>
          ) : (
            <table className="doc-table">
              <tbody>
                {orders.data.data.slice(0, 5).map((o) => (
                  <tr key={o.id}>
                    <td>
                      <Link href={`${base}/orders/${o.id}`}>{o.order_number}</Link>
                    </td>
                    <td>{formatDate(lang, o.order_date)}</td>
                    <td>
                      <StatusBadge status={o.status} label={label(tx.orderStatus, o.status)} />
                    </td>
                    <td className="num">{o.total ? money(o.total, lang) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </>
  );
}
