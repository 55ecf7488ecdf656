import type { Metadata } from 'next';
import Link from 'next/link';
import { getOrder } from '@lib/data/orders';
import { DocumentLines } from '@modules/account/components/document-lines';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, requireFeature, routeId } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Order' };

export default async function OrderPage({ params }: { params: Promise<{ lang: string; id: string }> }) {
  const lang = await pageLang(params);
  await requireFeature('orders');
  const id = routeId((await params).id);
  const tx = at(lang);
  const o = await load(lang, () => getOrder(id), 'document');
  const back = (
    <Link href={`/${lang}/account/orders`} className="back">
      ← {tx.orders}
    </Link>
  );
  if (o.error !== undefined)
    return (
      <>
        {back}
        <p className="error" role="alert">
          {o.error}
        </p>
      </>
    );
  const order = o.data;
  return (
    <>
      {back}
      <h1>
        {order.order_number} <StatusBadge status={order.status} label={label(tx.orderStatus, order.status)} />
      </h1>
      <dl className="facts">
        <dt>{tx.date}</dt>
        <dd>{formatDate(lang, order.order_date)}</dd>
        <dt>{tx.expectedDelivery}</dt>
        <dd>{order.expected_delivery_date ? formatDate(lang, order.expected_delivery_date) : '—'}</dd>
        <dt>{tx.tracking}</dt>
        <dd>
          {order.tracking_url ? (
            <a href={order.tracking_url} target="_blank" rel="noopener noreferrer">
              {tx.trackShipment} ↗
            </a>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <DocumentLines lang={lang} doc={order} />
    </>
  );
}
