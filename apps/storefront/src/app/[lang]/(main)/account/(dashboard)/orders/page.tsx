import type { Metadata } from 'next';
import Link from 'next/link';
import { PAGE_SIZE } from '@lib/data/documents';
import { listOrders, type OrderStatus, orderStatuses } from '@lib/data/orders';
import { money } from '@lib/i18n';
import { Pager } from '@modules/account/components/pager';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, pageNumber, requireFeature } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Orders' };

/** My orders, 20 per page (spec 1), with status, expected delivery and the tracking link. */
export default async function OrdersPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ status?: string; page?: string }>;
}) {
  const lang = await pageLang(params);
  await requireFeature('orders');
  const tx = at(lang);
  const sp = await searchParams;
  const status = orderStatuses.includes(sp.status as OrderStatus) ? (sp.status as OrderStatus) : undefined;
  const page = pageNumber(sp.page);
  const orders = await load(lang, () => listOrders(page, status));
  const base = `/${lang}/account/orders`;
  const href = (p: number) =>
    `${base}?${new URLSearchParams({ ...(status ? { status } : {}), page: String(p) })}`;
  return (
    <>
      <h1>{tx.orders}</h1>
      <nav className="filters" aria-label={tx.status}>
        <Link href={base} className={!status ? 'active' : undefined}>
          {tx.all}
        </Link>
        {orderStatuses.map((s) => (
          <Link key={s} href={`${base}?status=${s}`} className={status === s ? 'active' : undefined}>
            {label(tx.orderStatus, s)}
          </Link>
        ))}
      </nav>
      {orders.error !== undefined ? (
        <p className="error" role="alert">
          {orders.error}
        </p>
      ) : orders.data.data.length === 0 ? (
        <p className="muted">{tx.none}</p>
      ) : (
        <>
          <table className="doc-table" data-testid="order-list">
            <thead>
              <tr>
                <th>{tx.number}</th>
                <th>{tx.date}</th>
                <th>{tx.status}</th>
                <th>{tx.expectedDelivery}</th>
                <th>{tx.tracking}</th>
                <th className="num">{tx.total}</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.data.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link href={`${base}/${o.id}`}>{o.order_number}</Link>
                  </td>
                  <td>{formatDate(lang, o.order_date)}</td>
                  <td>
                    <StatusBadge status={o.status} label={label(tx.orderStatus, o.status)} />
                  </td>
                  <td>{o.expected_delivery_date ? formatDate(lang, o.expected_delivery_date) : '—'}</td>
                  <td>
                    {o.tracking_url ? (
                      <a
                        href={o.tracking_url}
                        target="_blank"
                        rel="noopener noreferrer"
                        data-testid="tracking-link"
                      >
                        {tx.trackShipment} ↗
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="num">{o.total ? money(o.total, lang) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} count={orders.data.count} size={PAGE_SIZE} href={href} texts={tx} />
        </>
      )}
    </>
  );
}
