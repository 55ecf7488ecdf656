import { Button, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { customerLabel } from '../../components/sales/detail';
import { DocumentStatus } from '../../components/sales/status-badge';
import { DataTable, type DataTableColumn, type DataTableFilter } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { useFeatures } from '../../hooks/api/features';
import {
  type Quotation,
  quotationSources,
  quotationStatuses,
  useQuotations,
} from '../../hooks/api/quotations';
import { useFormat } from '../../hooks/use-format';

type Filter = 'status' | 'source_code';

/**
 * /app/quotations: every quotation, paged, searched and filtered on the server. The source
 * filter is a licensed add-on (`quotation_source_filter`): without it the filter is not offered
 * (the API would refuse it with 403).
 */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const sourceLicensed = useFeatures().data?.features.includes('quotation_source_filter') ?? false;
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['status', 'source_code'] });
  const { source_code, ...rest } = query.apiQuery;
  const list = useQuotations(sourceLicensed && source_code ? { ...rest, source_code } : rest);

  const columns: DataTableColumn<Quotation>[] = [
    {
      id: 'number',
      header: t('sales.fields.number'),
      cell: (q) => (
        <Text size="small" weight="plus">
          {q.quotation_number}
        </Text>
      ),
    },
    { id: 'date', header: t('sales.fields.date'), cell: (q) => f.date(q.quotation_date) },
    { id: 'customer', header: t('sales.fields.customer'), cell: (q) => customerLabel(q) },
    {
      id: 'title',
      header: t('quotations.fields.title'),
      cell: (q) => <span className="block max-w-[260px] truncate">{q.title || '—'}</span>,
    },
    ...(sourceLicensed
      ? [
          {
            id: 'source',
            header: t('quotations.fields.source'),
            cell: (q: Quotation) => t(`sales.source.${q.source_code}` as 'sales.source.web'),
          },
        ]
      : []),
    { id: 'validUntil', header: t('quotations.fields.validUntil'), cell: (q) => f.date(q.valid_until) },
    {
      id: 'status',
      header: t('sales.fields.status'),
      cell: (q) => <DocumentStatus kind="quotation" status={q.status} />,
    },
    { id: 'total', header: t('sales.fields.total'), align: 'right', cell: (q) => f.money(q.total) },
  ];

  const filters: DataTableFilter<Filter>[] = [
    {
      key: 'status',
      label: t('sales.fields.status'),
      options: quotationStatuses.map((s) => ({ value: s, label: t(`sales.status.quotation.${s}`) })),
    },
    ...(sourceLicensed
      ? [
          {
            key: 'source_code' as const,
            label: t('quotations.fields.source'),
            options: quotationSources.map((s) => ({ value: s, label: t(`sales.source.${s}`) })),
          },
        ]
      : []),
  ];

  return (
    <Page
      title={t('nav.items.quotations')}
      description={t('quotations.description')}
      testId="quotations"
      actions={
        <Button size="small" variant="secondary" asChild>
          <Link to="create" data-testid="quotation-create">
            {t('quotations.create')}
          </Link>
        </Button>
      }
    >
      <DataTable<Quotation, Filter>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(q) => q.id}
        onRowOpen={(q) => void navigate(String(q.id))}
        query={query}
        filters={filters}
        emptyTitle={t('quotations.empty')}
        testId="quotation-table"
      />
    </Page>
  );
}
