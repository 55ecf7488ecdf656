import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { RunStatusBadge } from '../../components/operations/run-progress';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type SupplierListItem, useSuppliers } from '../../hooks/api/suppliers';
import { useFormat } from '../../hooks/use-format';

type Filter = 'is_active';

/** /app/suppliers: the tenant's suppliers with their feeds and the state of their four connectors. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['is_active'] });
  const list = useSuppliers(query.apiQuery);

  const columns: DataTableColumn<SupplierListItem>[] = [
    { id: 'code', header: t('ops.code'), cell: (s) => <span className="font-mono">{s.code}</span> },
    {
      id: 'name',
      header: t('ops.name'),
      cell: (s) => (
        <Text size="small" weight="plus" leading="compact">
          {s.name}
        </Text>
      ),
    },
    { id: 'format', header: t('suppliers.format'), cell: (s) => <Badge size="2xsmall">{s.format}</Badge> },
    {
      id: 'feeds',
      header: t('suppliers.feeds'),
      cell: (s) => (
        <span className="flex gap-x-1">
          {(Object.keys(s.feeds) as Array<keyof typeof s.feeds>)
            .filter((k) => s.feeds[k])
            .map((k) => (
              <Badge key={k} size="2xsmall" color="grey">
                {t(`connectors.kinds.${k}`)}
              </Badge>
            ))}
        </span>
      ),
    },
    {
      id: 'connectors',
      header: t('suppliers.connectors'),
      cell: (s) => (
        <span className="flex flex-wrap gap-1">
          {s.connectors.map((c) => (
            <span key={c.name} title={c.name}>
              <RunStatusBadge status={c.status} />
            </span>
          ))}
        </span>
      ),
    },
    {
      id: 'products',
      header: t('suppliers.products'),
      align: 'right',
      cell: (s) => f.number(s.product_count),
    },
    { id: 'status', header: t('ops.status'), cell: (s) => <ActiveBadge active={s.is_active} /> },
  ];

  return (
    <Page title={t('nav.items.suppliers')} description={t('suppliers.description')} testId="suppliers">
      {list.data && !list.data.editable && <ReadOnlyNote>{t('ops.readOnlyMaster')}</ReadOnlyNote>}
      <DataTable<SupplierListItem, Filter>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(s) => s.id}
        onRowOpen={(s) => void navigate(String(s.id))}
        query={query}
        filters={[
          {
            key: 'is_active',
            label: t('ops.status'),
            options: [
              { value: 'true', label: t('ops.active') },
              { value: 'false', label: t('ops.inactive') },
            ],
          },
        ]}
        testId="supplier-table"
      />
    </Page>
  );
}
