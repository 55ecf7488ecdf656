import { Button, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { RegisterPayment } from '../../components/sales/register-payment';
import { DocumentStatus } from '../../components/sales/status-badge';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type Payment, usePayments } from '../../hooks/api/payments';
import { useFormat } from '../../hooks/use-format';

/** /app/payments: every payment with what it settled, paged and searched on the server. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery({ pageSize: 20 });
  const list = usePayments(query.apiQuery);
  const columns: DataTableColumn<Payment>[] = [
    {
      id: 'number',
      header: t('sales.fields.number'),
      cell: (p) => (
        <Text size="small" weight="plus">
          {p.payment_number}
        </Text>
      ),
    },
    { id: 'date', header: t('payments.fields.date'), cell: (p) => f.date(p.payment_date) },
    { id: 'customer', header: t('sales.fields.customer'), cell: (p) => p.customer_name ?? '—' },
    {
      id: 'method',
      header: t('payments.fields.method'),
      cell: (p) => t(`payments.method.${p.method}` as 'payments.method.cash'),
    },
    {
      id: 'invoices',
      header: t('payments.fields.invoices'),
      cell: (p) => (
        <span className="block max-w-[220px] truncate">
          {p.allocations.map((a) => a.invoice_number).join(', ') || '—'}
        </span>
      ),
    },
    {
      id: 'status',
      header: t('sales.fields.status'),
      cell: (p) => <DocumentStatus kind="payment" status={p.status} />,
    },
    { id: 'amount', header: t('payments.fields.amount'), align: 'right', cell: (p) => f.money(p.amount) },
  ];
  return (
    <Page
      title={t('nav.items.payments')}
      description={t('payments.description')}
      testId="payments"
      actions={
        <RegisterPayment
          trigger={
            <Button size="small" variant="secondary" data-testid="payments-register">
              {t('payments.register.button')}
            </Button>
          }
        />
      }
    >
      <DataTable<Payment>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(p) => p.id}
        onRowOpen={(p) => void navigate(String(p.id))}
        query={query}
        emptyTitle={t('payments.empty')}
        testId="payment-table"
      />
    </Page>
  );
}
