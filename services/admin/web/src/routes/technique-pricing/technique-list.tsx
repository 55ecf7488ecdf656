import { Badge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { DataTable, type DataTableColumn } from '../../components/table/data-table';
import { useDataTableQuery } from '../../components/table/use-data-table-query';
import { type Technique, useTechniques } from '../../hooks/api/technique-pricing';
import { useFormat } from '../../hooks/use-format';

type Filter = 'is_active' | 'supplier_code';

/** The technique's name in the current language (Dutch when there is none). */
export const techniqueName = (tq: Pick<Technique, 'name_nl' | 'name_en'>, language: string) =>
  (language === 'en' ? tq.name_en : null) ?? tq.name_nl;

/** /app/technique-pricing: techniques with their scales, paged and searched on the server. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<Filter>({ pageSize: 20, filterKeys: ['is_active', 'supplier_code'] });
  const list = useTechniques(query.apiQuery);

  const columns: DataTableColumn<Technique>[] = [
    { id: 'code', header: t('ops.code'), cell: (x) => <span className="font-mono">{x.code}</span> },
    {
      id: 'name',
      header: t('ops.name'),
      cell: (x) => (
        <Text size="small" weight="plus" leading="compact">
          {techniqueName(x, f.language)}
        </Text>
      ),
    },
    { id: 'supplier', header: t('techniques.supplier'), cell: (x) => x.supplier_code ?? '—' },
    {
      id: 'type',
      header: t('techniques.pricingType'),
      cell: (x) => <Badge size="2xsmall">{x.pricing_type}</Badge>,
    },
    { id: 'tiers', header: t('techniques.tiers'), align: 'right', cell: (x) => f.number(x.tiers.length) },
    {
      id: 'from',
      header: t('techniques.pricePerUnit'),
      align: 'right',
      cell: (x) => (x.tiers[0] ? f.money(x.tiers[0].price_per_unit, x.tiers[0].currency) : '—'),
    },
    {
      id: 'setup',
      header: t('techniques.setupCost'),
      align: 'right',
      cell: (x) => (x.setup_cost ? f.money(x.setup_cost.setup_cost) : '—'),
    },
    { id: 'status', header: t('ops.status'), cell: (x) => <ActiveBadge active={x.is_active} /> },
  ];

  return (
    <Page
      title={t('nav.items.techniquePricing')}
      description={t('techniques.description')}
      testId="technique-pricing"
    >
      {list.data && !list.data.editable && <ReadOnlyNote>{t('ops.readOnlyMaster')}</ReadOnlyNote>}
      <DataTable<Technique, Filter>
        columns={columns}
        rows={list.data?.data}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(x) => x.id}
        onRowOpen={(x) => void navigate(String(x.id))}
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
          {
            key: 'supplier_code',
            label: t('techniques.supplierFilter'),
            options: Array.from({ length: 9 }, (_, i) => `0${i + 1}`).map((c) => ({ value: c, label: c })),
          },
        ]}
        testId="technique-table"
      />
    </Page>
  );
}
