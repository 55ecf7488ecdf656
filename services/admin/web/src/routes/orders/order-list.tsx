import { Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { customerLabel } from '../../components/sales/detail';
import { DocumentStatus } from '../../components/sales/status-badge';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type Order, orderStatuses, useOrders } from '../../hooks/api/orders';
import { useFormat } from '../../hooks/use-format';

type Filter = 'status';

/** /app/orders: every order, paged, searched and filtered on the server. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['status'] });
  const list = useOrders(query.apiQuery);
  const columns: DataTableColumn<Order>[] = [
    {
      id: 'number',
      header: t('sales.fields.number'),
      cell: (o) => (
        <Text size="small" weight="plus">
          {o.order_number}
        </Text>
      ),
    },
    { id: 'date', header: t('sales.fields.date'), cell: (o) => f.date(o.order_date) },
    { id: 'customer', header: t('sales.fields.customer'), cell: (o) => customerLabel(o) },
    { id: 'reference', header: t('sales.fields.reference'), cell: (o) => o.reference || '—' },
    {
      id: 'delivery',
      header: t('orders.fields.expectedDelivery'),
      cell: (o) => f.date(o.expected_delivery_date),
    },
    {
      id: 'status',
      header: t('sales.fields.status'),
      cell: (o) => <DocumentStatus kind="order" status={o.status} />,
    },
    { id: 'total', header: t('sales.fields.total'), align: 'right', cell: (o) => f.money(o.total) },
  ];
  return (
    <Page title={t('nav.items.orders')} description={t('orders.description')} testId="orders">
      <DataTable<Order, Filter>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(o) => o.id}
        onRowOpen={(o) => void navigate(String(o.id))}
        query={query}
        filters={[
          {
            key: 'status',
            label: t('sales.fields.status'),
            options: orderStatuses.map((s) => ({ value: s, label: t(`sales.status.order.${s}`) })),
          },
        ]}
        emptyTitle={t('orders.empty')}
        testId="order-table"
      />
    </Page>
  );
}
