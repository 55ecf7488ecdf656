import { Button, Table } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { EmptyState } from '../../components/common/empty-state';
import { Page, PageSection } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { useAccessRequests } from '../../hooks/api/access-requests';
import { type CustomerListItem, useCustomers } from '../../hooks/api/customers';
import { useFormat } from '../../hooks/use-format';
import { useAccessRequestColumns } from '../access-requests/access-request-list';
import { customerName } from '../customers/customer-list';

function PendingRequests() {
  const { t } = useTranslation();
  const list = useAccessRequests({ limit: 5, offset: 0, status: 'pending' });
  const columns = useAccessRequestColumns();
  return (
    <PageSection
      title={t('crm.accessRequests')}
      actions={
        <Button size="small" variant="transparent" asChild>
          <Link to="/access-requests">{t('crm.allRequests')}</Link>
        </Button>
      }
    >
      {list.error ? (
        <div className="px-6 py-4">
          <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
        </div>
      ) : list.data && list.data.access_requests.length === 0 ? (
        <EmptyState title={t('accessRequests.emptyPending')} />
      ) : (
        <Table>
          <Table.Body>
            {(list.data?.access_requests ?? []).map((r) => (
              <Table.Row key={r.id}>
                {columns.map((c) => (
                  <Table.Cell key={c.id} className={c.align === 'right' ? 'text-right' : undefined}>
                    {c.cell(r)}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </PageSection>
  );
}

/** /app/crm: customer relations - the customers, newest first, and open access requests. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery({ pageSize: 10 });
  const customers = useCustomers({ ...query.apiQuery, sort: 'newest' });
  const columns: DataTableColumn<CustomerListItem>[] = [
    {
      id: 'number',
      header: t('customers.number'),
      cell: (c) => <span className="font-mono">{c.customer_number ?? '—'}</span>,
    },
    { id: 'name', header: t('ops.name'), cell: (c) => customerName(c) },
    { id: 'email', header: t('customers.email'), cell: (c) => c.email ?? '—' },
    { id: 'created', header: t('ops.createdAt'), cell: (c) => f.date(c.created_at) },
    { id: 'status', header: t('ops.status'), cell: (c) => <ActiveBadge active={c.is_active} /> },
    {
      id: 'open',
      header: t('customers.openBalance'),
      align: 'right',
      cell: (c) => f.money(c.open_balance, c.currency),
    },
  ];
  return (
    <Page
      title={t('nav.items.crm')}
      description={t('crm.description')}
      testId="crm"
      actions={
        <Button size="small" variant="transparent" asChild>
          <Link to="/customers">{t('crm.allCustomers')}</Link>
        </Button>
      }
      sections={<PendingRequests />}
    >
      <DataTable<CustomerListItem>
        columns={columns}
        rows={customers.data?.data}
        count={customers.data?.count}
        isLoading={customers.isPending}
        error={customers.error}
        onRetry={() => void customers.refetch()}
        rowKey={(c) => c.id}
        onRowOpen={(c) => void navigate(`/customers/${c.id}`)}
        query={query}
        testId="crm-customers"
      />
    </Page>
  );
}
