import { Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { customerLabel } from '../../components/sales/detail';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type CreditNote, useCreditNotes } from '../../hooks/api/credit-notes';
import { useFormat } from '../../hooks/use-format';

/** /app/credit-notes: every credit note, paged and searched on the server. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery({ pageSize: 20 });
  const list = useCreditNotes(query.apiQuery);
  const columns: DataTableColumn<CreditNote>[] = [
    {
      id: 'number',
      header: t('sales.fields.number'),
      cell: (c) => (
        <Text size="small" weight="plus">
          {c.invoice_number}
        </Text>
      ),
    },
    { id: 'date', header: t('invoices.fields.issueDate'), cell: (c) => f.date(c.issue_date) },
    { id: 'customer', header: t('sales.fields.customer'), cell: (c) => customerLabel(c) },
    {
      id: 'reason',
      header: t('creditNotes.fields.reason'),
      cell: (c) => <span className="block max-w-[280px] truncate">{c.credit_reason ?? '—'}</span>,
    },
    { id: 'total', header: t('sales.fields.total'), align: 'right', cell: (c) => f.money(c.total) },
  ];
  return (
    <Page title={t('nav.items.creditNotes')} description={t('creditNotes.description')} testId="credit-notes">
      <DataTable<CreditNote>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(c) => c.id}
        onRowOpen={(c) => void navigate(String(c.id))}
        query={query}
        emptyTitle={t('creditNotes.empty')}
        emptyDescription={t('creditNotes.emptyHint')}
        testId="credit-note-table"
      />
    </Page>
  );
}
