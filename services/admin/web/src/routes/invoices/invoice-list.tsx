import { Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { customerLabel } from '../../components/sales/detail';
import { DocumentStatus } from '../../components/sales/status-badge';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type Invoice, invoiceStatuses, useInvoices } from '../../hooks/api/invoices';
import { useFormat } from '../../hooks/use-format';

type Filter = 'status';

/** /app/invoices: invoices and proformas, paged on the server, filtered by open/overdue/paid. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['status'] });
  const list = useInvoices(query.apiQuery);
  const columns: DataTableColumn<Invoice>[] = [
    {
      id: 'number',
      header: t('sales.fields.number'),
      cell: (i) => (
        <div className="flex items-center gap-x-2">
          <Text size="small" weight="plus">
            {i.invoice_number}
          </Text>
          {i.document_type === 'proforma' && (
            <Text size="xsmall" className="text-ui-fg-muted">
              {t('sales.docType.proforma')}
            </Text>
          )}
        </div>
      ),
    },
    { id: 'date', header: t('invoices.fields.issueDate'), cell: (i) => f.date(i.issue_date) },
    { id: 'customer', header: t('sales.fields.customer'), cell: (i) => customerLabel(i) },
    { id: 'due', header: t('invoices.fields.dueDate'), cell: (i) => f.date(i.due_date) },
    {
      id: 'status',
      header: t('sales.fields.status'),
      cell: (i) => <DocumentStatus kind="invoice" status={i.status} />,
    },
    { id: 'total', header: t('sales.fields.total'), align: 'right', cell: (i) => f.money(i.total) },
    { id: 'balance', header: t('invoices.fields.balance'), align: 'right', cell: (i) => f.money(i.balance) },
  ];
  return (
    <Page title={t('nav.items.invoices')} description={t('invoices.description')} testId="invoices">
      <DataTable<Invoice, Filter>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(i) => i.id}
        onRowOpen={(i) => void navigate(String(i.id))}
        query={query}
        filters={[
          {
            key: 'status',
            label: t('sales.fields.status'),
            options: invoiceStatuses.map((s) => ({ value: s, label: t(`sales.status.invoice.${s}`) })),
          },
        ]}
        emptyTitle={t('invoices.empty')}
        testId="invoice-table"
      />
    </Page>
  );
}
