import { subscriptionStatuses } from '@aplt/service-documents/schemas/subscriptions';
import { Plus } from '@medusajs/icons';
import { Button, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type SubscriptionListItem, useSubscriptions } from '../../hooks/api/subscriptions';
import { useFormat } from '../../hooks/use-format';
import { BillingSection } from './billing-section';
import { subscriptionCustomer, SubscriptionStatus } from './subscription-status';

/** /app/subscriptions: every subscription (server paged, searched, by status) and the billing. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<'status'>({ pageSize: 20, filterKeys: ['status'] });
  const list = useSubscriptions(query.apiQuery);

  const columns: DataTableColumn<SubscriptionListItem>[] = [
    { id: 'id', header: '#', cell: (s) => <span className="font-mono">{s.id}</span> },
    {
      id: 'description',
      header: t('subscriptions.fields.description'),
      cell: (s) => (
        <div className="flex flex-col">
          <Text size="small" weight="plus" leading="compact">
            {s.description}
          </Text>
          <Text size="xsmall" className="text-ui-fg-muted" leading="compact">
            {subscriptionCustomer(s)}
          </Text>
        </div>
      ),
    },
    {
      id: 'interval',
      header: t('subscriptions.fields.interval'),
      cell: (s) => t(`subscriptions.interval.${s.interval}`),
    },
    {
      id: 'period',
      header: t('subscriptions.fields.period'),
      cell: (s) => `${f.date(s.start_date)} – ${s.end_date ? f.date(s.end_date) : '…'}`,
    },
    {
      id: 'status',
      header: t('subscriptions.fields.status'),
      cell: (s) => <SubscriptionStatus status={s.status} />,
    },
    {
      id: 'amount',
      header: t('subscriptions.fields.amount'),
      align: 'right',
      cell: (s) => <span className="tabular-nums">{f.money(s.amount_excl_vat)}</span>,
    },
  ];

  return (
    <Page
      title={t('nav.items.subscriptions')}
      description={t('subscriptions.description')}
      testId="subscriptions"
      actions={
        <Button size="small" variant="secondary" asChild>
          <Link to="create" data-testid="subscription-new">
            <Plus />
            {t('subscriptions.create')}
          </Link>
        </Button>
      }
      sections={<BillingSection />}
    >
      <DataTable<SubscriptionListItem, 'status'>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(s) => s.id}
        onRowOpen={(s) => void navigate(String(s.id))}
        query={query}
        emptyTitle={t('subscriptions.empty')}
        filters={[
          {
            key: 'status',
            label: t('subscriptions.fields.status'),
            options: subscriptionStatuses.map((s) => ({ value: s, label: t(`subscriptions.status.${s}`) })),
          },
        ]}
        testId="subscription-table"
      />
    </Page>
  );
}
