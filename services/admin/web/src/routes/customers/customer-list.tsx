import { Plus } from '@medusajs/icons';
import { Button, Text } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ActiveBadge } from '../../components/operations/active-badge';
import { Page } from '../../components/layout/page';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type CustomerListItem, useCustomers } from '../../hooks/api/customers';
import { useFormat } from '../../hooks/use-format';
import { CreateCustomerDrawer } from './customer-form';

type Filter = 'is_active' | 'sort';

export const customerName = (c: Pick<CustomerListItem, 'company' | 'first_name' | 'last_name'>) =>
  c.company || [c.first_name, c.last_name].filter(Boolean).join(' ') || '—';

/** /app/customers: every customer, paged and searched on the server, with the open balance. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['is_active', 'sort'] });
  const list = useCustomers(query.apiQuery);

  const columns: DataTableColumn<CustomerListItem>[] = [
    {
      id: 'number',
      header: t('customers.number'),
      cell: (c) => <span className="font-mono">{c.customer_number ?? '—'}</span>,
    },
    {
      id: 'name',
      header: t('ops.name'),
      cell: (c) => (
        <div className="flex flex-col">
          <Text size="small" weight="plus" leading="compact">
            {customerName(c)}
          </Text>
          {c.company && (c.first_name || c.last_name) && (
            <Text size="xsmall" className="text-ui-fg-muted" leading="compact">
              {[c.first_name, c.last_name].filter(Boolean).join(' ')}
            </Text>
          )}
        </div>
      ),
    },
    { id: 'email', header: t('customers.email'), cell: (c) => c.email ?? '—' },
    { id: 'city', header: t('customers.city'), cell: (c) => [c.city, c.country].filter(Boolean).join(', ') },
    { id: 'status', header: t('ops.status'), cell: (c) => <ActiveBadge active={c.is_active} /> },
    {
      id: 'open',
      header: t('customers.openBalance'),
      align: 'right',
      cell: (c) => <span className="tabular-nums">{f.money(c.open_balance, c.currency)}</span>,
    },
  ];

  return (
    <Page
      title={t('nav.items.customers')}
      description={t('customers.description')}
      testId="customers"
      actions={
        <Button size="small" variant="secondary" onClick={() => setCreating(true)} data-testid="customer-new">
          <Plus />
          {t('customers.create')}
        </Button>
      }
    >
      <DataTable<CustomerListItem, Filter>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(c) => c.id}
        onRowOpen={(c) => void navigate(String(c.id))}
        query={query}
        filters={[
          {
            key: 'is_active',
            label: t('customers.activeFilter'),
            options: [
              { value: 'true', label: t('ops.active') },
              { value: 'false', label: t('ops.inactive') },
            ],
          },
          {
            key: 'sort',
            label: t('customers.sort'),
            options: [
              { value: 'name', label: t('customers.sortName') },
              { value: 'number', label: t('customers.sortNumber') },
              { value: 'newest', label: t('customers.sortNewest') },
            ],
          },
        ]}
        testId="customer-table"
      />
      {creating && <CreateCustomerDrawer open={creating} onOpenChange={setCreating} />}
    </Page>
  );
}
